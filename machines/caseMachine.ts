import { setup } from 'xstate';

/**
 * The case machine (DESIGN.md 2.1 "Derived state", 2.8 "Cases"): an
 * investigation of an investigative tenant. The case's state is the fold of
 * its append-only event log through this machine; the persisted snapshot is a
 * cache of that fold. Every accepted command appends exactly one `CaseChanged`
 * event, so the context's `sequence` is the seq of the latest case event.
 * Timestamps, the principal and anything read from the database arrive in the
 * events: the machine itself decides and never computes I/O.
 *
 * States (CaseState in src/events/schemas.ts):
 * - `open` (initial): being worked. `case.open` (sent once, by the creation)
 *   records the case and appends `opened`. Members, intake and assertions are
 *   taken here and in `in_review`.
 * - `in_review`: a reviewer asked for changes (`case.review` with
 *   `request_changes`); still being worked, awaiting sign-off.
 * - `signed_off`: a reviewer signed the case off (what export requires). Its
 *   evidence is frozen: intake and assertions are refused until a reviewer
 *   requests changes again. Members may still change.
 * - `closed`: closed with an optional finding. Nothing changes it any more,
 *   except that a legal hold may still be placed and lifted (a hold preserves
 *   the records of a closed case too).
 *
 * `legal_hold` is a flag beside the state: `case.hold` sets it, `case.release`
 * clears it; a held case cannot be closed.
 *
 * Illegal commands (close while held, review of a closed case, a hold on a
 * held case...) are not taken: `refusalOf` names why, the guards use it, and
 * the HTTP side answers 409 with that reason.
 */
export const CASE_MACHINE_VERSION = 1;

export type CaseStateName = 'open' | 'in_review' | 'signed_off' | 'closed';
export type CaseRole = 'lead' | 'analyst' | 'reviewer' | 'observer';

export interface CaseAuthorization {
  kind: string;
  reference: string;
  issued_by: string;
  valid_until?: string | undefined;
}

export interface CaseMemberEntry {
  principal: string;
  role: CaseRole;
  added_at: string;
}

export interface CaseAssertionEntry {
  observation_id: string;
  disposition: 'supports' | 'weakens' | 'neutral';
  entity_id: string | null;
  material_ids: string[];
  finding_ids: string[];
  at: string;
}

/** A connection an expansion found, with the entities that share its value: what an investigator may choose to follow. */
export interface CaseCandidate {
  connection_id: string;
  type: string;
  value: string;
  entity_ids: string[];
}

/** A gated expansion (human_gate): its seed and candidates, waiting for an investigator's choice. */
export interface CaseGate {
  gate_id: string;
  seed: Record<string, unknown>;
  intent: string;
  candidates: CaseCandidate[];
  open: boolean;
  opened_at: string;
}

export type ExpansionOutcome = 'expanded' | 'gated' | 'chosen' | 'refused';

export interface CaseInput {
  case_id: string;
  tenant_id: string;
  mode: 'live' | 'test';
}

export interface CaseContext extends CaseInput {
  title: string;
  purpose: string;
  description: string | null;
  authorization: CaseAuthorization | null;
  budget_limit: number;
  budget_spent: number;
  members: CaseMemberEntry[];
  entity_ids: string[];
  /** Dedupe keys of intake items already taken (`type:normalised` or `sha256:...`). */
  intake_keys: string[];
  assertions: CaseAssertionEntry[];
  /** Gated expansions; absent on snapshots written before expansion existed. */
  gates?: CaseGate[];
  /** Who opened the case and who made its latest change (separation of duties); absent on older snapshots. */
  opened_by?: string;
  last_changed_by?: string;
  legal_hold: boolean;
  hold_reference: string | null;
  finding: string | null;
  sequence: number;
  created_at: string;
  updated_at: string;
  closed_at: string | null;
}

interface Stamp {
  at: string;
  principal: string;
}

export type CaseEvent =
  | (Stamp & {
      type: 'case.open';
      title: string;
      purpose: string;
      description: string | null;
      authorization: CaseAuthorization;
      budget: number;
      entity_ids: string[];
    })
  | (Stamp & { type: 'case.member'; action: 'add' | 'remove'; member: string; role: CaseRole })
  | (Stamp & {
      type: 'case.intake';
      intake_id: string;
      keys: string[];
      entity_ids: string[];
      accepted: number;
      duplicate: number;
      rejected: number;
    })
  | (Stamp & { type: 'case.assert' } & Omit<CaseAssertionEntry, 'at'>)
  | (Stamp & { type: 'case.hold'; reason: string; reference: string | null })
  | (Stamp & { type: 'case.release'; reason: string; reference: string | null })
  | (Stamp & { type: 'case.review'; outcome: 'sign_off' | 'request_changes'; note: string | null })
  | (Stamp & { type: 'case.close'; finding: string | null })
  | (Stamp & {
      type: 'case.expand';
      outcome: ExpansionOutcome;
      /** The inquiry the hop ran (none when refused). */
      inquiry_id: string | null;
      /** The gate opened (gated) or the one chosen from (chosen). */
      gate: CaseGate | null;
      chosen: string[];
      cost: number;
      entity_ids: string[];
      reason: string | null;
    });

export type CaseCommand = CaseEvent['type'];

/** Why a command cannot be taken in this state, or null when it can. Pure: the guards and the HTTP side share it. */
export function refusalOf(state: CaseStateName, context: CaseContext, event: CaseEvent): string | null {
  if (event.type === 'case.open') return context.sequence === 0 ? null : 'The case is already open.';
  if (context.sequence === 0) return 'The case has not been opened.';
  const closed = state === 'closed';
  switch (event.type) {
    case 'case.hold':
      return context.legal_hold ? 'The case is already on legal hold.' : null;
    case 'case.release':
      return context.legal_hold ? null : 'The case is not on legal hold.';
    case 'case.close':
      if (closed) return 'The case is already closed.';
      if (context.legal_hold) return 'A case on legal hold cannot be closed; release the hold first.';
      return null;
    case 'case.review':
      if (closed) return 'A closed case cannot be reviewed.';
      if (event.outcome === 'sign_off' && state === 'signed_off') return 'The case is already signed off.';
      return null;
    case 'case.member': {
      if (closed) return 'The members of a closed case cannot change.';
      const existing = context.members.find((m) => m.principal === event.member);
      if (event.action === 'remove') return existing ? null : 'That principal is not a member of the case.';
      return existing?.role === event.role ? 'That principal is already a member of the case with that role.' : null;
    }
    case 'case.intake':
    case 'case.assert':
      return evidenceRefusal(state);
    case 'case.expand':
      // A refusal is only recorded; it changes nothing the state guards.
      if (event.outcome === 'refused') return null;
      return evidenceRefusal(state) ?? (event.outcome === 'chosen' ? choiceRefusal(context, event) : null);
  }
}

function evidenceRefusal(state: CaseStateName): string | null {
  if (state === 'closed') return 'A closed case takes no more evidence.';
  if (state === 'signed_off') return 'A signed-off case takes no more evidence; a reviewer must request changes first.';
  return null;
}

function choiceRefusal(context: CaseContext, event: Extract<CaseEvent, { type: 'case.expand' }>): string | null {
  const gate = (context.gates ?? []).find((g) => g.gate_id === event.gate?.gate_id);
  if (!gate) return 'No gated expansion of this case has that inquiry id.';
  if (!gate.open) return 'The candidates of that expansion were already chosen.';
  const offered = new Set(gate.candidates.map((c) => c.connection_id));
  return event.chosen.every((id) => offered.has(id)) ? null : 'Only candidates the gated expansion showed can be chosen.';
}

/** Case events are small; a gate keeps at most this many candidates. */
export const MAX_CANDIDATES = 20;

const EXPANSION_CHANGE: Record<ExpansionOutcome, string> = {
  // A gate is an expansion requested and waiting for its choice.
  expanded: 'expanded',
  gated: 'expansion_requested',
  chosen: 'expansion_chosen',
  refused: 'expansion_refused',
};

const CHANGE_OF: Record<Exclude<CaseCommand, 'case.review' | 'case.member' | 'case.expand'>, string> = {
  'case.open': 'opened',
  'case.intake': 'intake',
  'case.assert': 'assertion',
  'case.hold': 'held',
  'case.release': 'released',
  'case.close': 'closed',
};

function changeOf(event: CaseEvent): string {
  if (event.type === 'case.review') return event.outcome === 'sign_off' ? 'signed_off' : 'review_requested_changes';
  if (event.type === 'case.member') return event.action === 'add' ? 'member_added' : 'member_removed';
  if (event.type === 'case.expand') return EXPANSION_CHANGE[event.outcome];
  return CHANGE_OF[event.type];
}

function summaryOf(event: CaseEvent): string {
  switch (event.type) {
    case 'case.open':
      return `Case opened: ${event.title}`;
    case 'case.member':
      return `${event.action === 'add' ? 'Member added' : 'Member removed'}: ${event.member} (${event.role})`;
    case 'case.intake':
      return `Intake ${event.intake_id}: ${event.accepted} accepted, ${event.duplicate} duplicate, ${event.rejected} rejected`;
    case 'case.assert':
      return `Assertion ${event.observation_id} (${event.disposition})`;
    case 'case.hold':
      return `Legal hold placed: ${event.reason}`;
    case 'case.release':
      return `Legal hold released: ${event.reason}`;
    case 'case.review':
      return event.outcome === 'sign_off' ? 'Signed off' : 'Changes requested';
    case 'case.close':
      return event.finding === null ? 'Case closed' : `Case closed: ${event.finding}`;
    case 'case.expand':
      return expansionSummary(event);
  }
}

function expansionSummary(event: Extract<CaseEvent, { type: 'case.expand' }>): string {
  switch (event.outcome) {
    case 'expanded':
      return `Expansion: inquiry ${event.inquiry_id}, cost ${event.cost}`;
    case 'gated':
      return `Expansion gated: ${event.gate?.candidates.length ?? 0} candidates shown, nothing spent (inquiry ${event.inquiry_id})`;
    case 'chosen':
      return `Candidates chosen by ${event.principal}: ${event.chosen.join(', ')}; inquiry ${event.inquiry_id}, cost ${event.cost}`;
    case 'refused':
      return `Expansion refused: ${event.reason ?? 'over budget'}`;
  }
}

const unique = (xs: string[]) => [...new Set(xs)];

/** The context after an accepted command (pure; the fold step). */
export function applyCommand(context: CaseContext, event: CaseEvent): CaseContext {
  const next: CaseContext = { ...context, sequence: context.sequence + 1, updated_at: event.at, last_changed_by: event.principal };
  switch (event.type) {
    case 'case.open':
      return {
        ...next,
        title: event.title,
        purpose: event.purpose,
        description: event.description,
        authorization: event.authorization,
        budget_limit: event.budget,
        entity_ids: unique(event.entity_ids),
        created_at: event.at,
        opened_by: event.principal,
        members: [{ principal: event.principal, role: 'lead', added_at: event.at }],
      };
    case 'case.member': {
      const others = context.members.filter((m) => m.principal !== event.member);
      const previous = context.members.find((m) => m.principal === event.member);
      return {
        ...next,
        members:
          event.action === 'remove'
            ? others
            : [...others, { principal: event.member, role: event.role, added_at: previous?.added_at ?? event.at }],
      };
    }
    case 'case.intake':
      return {
        ...next,
        intake_keys: unique([...context.intake_keys, ...event.keys]),
        entity_ids: unique([...context.entity_ids, ...event.entity_ids]),
      };
    case 'case.assert':
      return {
        ...next,
        assertions: [
          ...context.assertions,
          {
            observation_id: event.observation_id,
            disposition: event.disposition,
            entity_id: event.entity_id,
            material_ids: event.material_ids,
            finding_ids: event.finding_ids,
            at: event.at,
          },
        ],
        entity_ids: event.entity_id === null ? context.entity_ids : unique([...context.entity_ids, event.entity_id]),
      };
    case 'case.hold':
      return { ...next, legal_hold: true, hold_reference: event.reference };
    case 'case.release':
      return { ...next, legal_hold: false, hold_reference: null };
    case 'case.review':
      return next;
    case 'case.close':
      return { ...next, finding: event.finding, closed_at: event.at };
    case 'case.expand':
      return expanded(next, context, event);
  }
}

function expanded(next: CaseContext, context: CaseContext, event: Extract<CaseEvent, { type: 'case.expand' }>): CaseContext {
  const gates = context.gates ?? [];
  const spent = { budget_spent: context.budget_spent + event.cost, entity_ids: unique([...context.entity_ids, ...event.entity_ids]) };
  switch (event.outcome) {
    case 'refused':
      return next;
    case 'expanded':
      return { ...next, ...spent };
    case 'gated':
      return { ...next, gates: event.gate ? [...gates, event.gate] : gates };
    case 'chosen':
      return { ...next, ...spent, gates: gates.map((g) => (g.gate_id === event.gate?.gate_id ? { ...g, open: false } : g)) };
  }
}

/** The state a command leads to (pure). */
export function targetOf(state: CaseStateName, event: CaseEvent): CaseStateName {
  if (event.type === 'case.review') return event.outcome === 'sign_off' ? 'signed_off' : 'in_review';
  if (event.type === 'case.close') return 'closed';
  return state;
}

const runtimeSetup = setup({
  types: {
    context: {} as CaseContext,
    events: {} as CaseEvent,
    input: {} as CaseInput,
  },
  actions: {
    // Carried out by the runtime; declared here only so its params are typed.
    appendEvent: (_, _params: { type: string; payload: Record<string, unknown> }) => {},
  },
});

/** Takes the command: folds it into the context and appends its one CaseChanged event. */
const take = (to: CaseStateName) =>
  runtimeSetup.enqueueActions(({ context, event, enqueue }) => {
    const next = applyCommand(context, event);
    enqueue.assign(next);
    enqueue({
      type: 'appendEvent',
      params: {
        type: 'CaseChanged',
        payload: {
          case_id: context.case_id,
          change: changeOf(event),
          state: to,
          legal_hold: next.legal_hold,
          principal: event.principal,
          summary: summaryOf(event).slice(0, 500),
        },
      },
    });
  });

const COMMANDS: CaseCommand[] = [
  'case.open',
  'case.member',
  'case.intake',
  'case.assert',
  'case.hold',
  'case.release',
  'case.review',
  'case.close',
  'case.expand',
];

/** The transitions of one state: each command, guarded by `refusalOf`, goes where `targetOf` says. */
function transitionsOf(state: CaseStateName) {
  const on: Record<
    string,
    { guard: (a: { context: CaseContext; event: CaseEvent }) => boolean; target: string; actions: ReturnType<typeof take> }[]
  > = {};
  for (const command of COMMANDS) {
    const targets: CaseStateName[] =
      command === 'case.review' ? ['signed_off', 'in_review'] : command === 'case.close' ? ['closed'] : [state];
    on[command] = targets.map((to) => ({
      guard: ({ context, event }) => refusalOf(state, context, event) === null && targetOf(state, event) === to,
      target: to,
      actions: take(to),
    }));
  }
  return on;
}

export const caseMachine = runtimeSetup.createMachine({
  id: 'case',
  initial: 'open',
  context: ({ input }) => ({
    case_id: input.case_id,
    tenant_id: input.tenant_id,
    mode: input.mode,
    title: '',
    purpose: '',
    description: null,
    authorization: null,
    budget_limit: 0,
    budget_spent: 0,
    members: [],
    entity_ids: [],
    intake_keys: [],
    assertions: [],
    legal_hold: false,
    hold_reference: null,
    finding: null,
    sequence: 0,
    created_at: '',
    updated_at: '',
    closed_at: null,
  }),
  // The transition tables are built from data (transitionsOf), keyed by command; XState types `on`
  // from a literal object per state, which a generated table cannot be, so each is passed as never.
  states: {
    open: { on: transitionsOf('open') as never },
    in_review: { on: transitionsOf('in_review') as never },
    signed_off: { on: transitionsOf('signed_off') as never },
    closed: { on: transitionsOf('closed') as never },
  },
});
