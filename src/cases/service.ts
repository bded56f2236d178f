import { caseGraph } from './graph.js';
import { randomUUID } from 'node:crypto';
import { ActorNotFoundError } from '../../actors/errors.js';
import type { ActorRuntime, SendResult } from '../../actors/runtime.js';
import {
  refusalOf,
  type caseMachine,
  type CaseContext,
  type CaseEvent,
  type CaseGate,
  type CaseInput,
  type CaseStateName,
} from '../../machines/caseMachine.js';
import type { Principal } from '../auth/index.js';
import { normalisePresentation } from '../checks/normalise.js';
import type { NormalisedPresentation } from '../checks/types.js';
import { withTenant, type Db, type Tx } from '../platform/db/pool.js';
import { EntityNotFoundError, resolveEntity, resolvingIdentifiers } from '../entities/index.js';
import { envelopeOf } from '../events/index.js';
import type { CallContext, CallOutcome } from '../auth/index.js';
import { ServiceProblem, ValidationFailure } from '../platform/problems.js';
import { admit } from '../policies/index.js';
import { loadAdmission, observationRefusals, recordObservation } from '../observations/index.js';
import type { PolicyCache } from '../policies/index.js';
import type { RegistryCache } from '../registry/index.js';
import type { RuleId } from '../platform/rules.js';
import type { CaseCreate, CaseGraphOut, CaseOut, IntakeManifest, IntakeOut } from './schemas.js';
import type { EventEnvelope } from '../events/schemas.js';
import type { ObservationIn, ObservationOut } from '../observations/schemas.js';
import { tenantMayInvestigate } from './standing.js';
import { withListing } from '../registry/index.js';

/**
 * Cases (DESIGN.md 2.8): each case is an actor of kind `case` whose state is
 * the fold of its CaseChanged events (machines/caseMachine.ts). Every command
 * is one transaction through the actor runtime: the row lock, the machine's
 * one event, any rows the command writes (an assertion's observation, the
 * entities intake resolves) and the call's audit row commit together. A
 * command the machine would not take is refused under the lock with 409 and
 * the machine's reason; another tenant's or mode's case, or an id of another
 * kind of actor, is 404.
 */
export interface CaseServiceDeps {
  db: Db;
  runtime: ActorRuntime;
  registry: RegistryCache;
  policies: PolicyCache;
}

export interface CaseMemberIn {
  principal: string;
  role: 'lead' | 'analyst' | 'reviewer' | 'observer';
  action: 'add' | 'remove';
}
export interface CaseHoldIn {
  reason: string;
  reference?: string | undefined;
}
export interface CaseReviewIn {
  outcome: 'sign_off' | 'request_changes';
  note?: string | undefined;
}
export interface CaseAssertionIn {
  subject: ObservationIn['subject'];
  statement: string;
  disposition: 'supports' | 'weakens' | 'neutral';
  observed_at: string;
  data_class: ObservationOut['data_class'];
  material_ids?: string[] | undefined;
  finding_ids?: string[] | undefined;
}

/**
 * A case as its commands answer it: the fold of its events, without the
 * address of its stream (events_url), which its routes add (wire.ts caseBody).
 */
export type CaseView = Omit<CaseOut, 'events_url'>;

export interface CaseService {
  open(ctx: CallContext, principal: Principal, body: CaseCreate): Promise<CaseView>;
  view(principal: Principal, caseId: string): Promise<CaseView>;
  timeline(principal: Principal, caseId: string): Promise<EventEnvelope[]>;
  graph(principal: Principal, caseId: string): Promise<CaseGraphOut>;
  members(ctx: CallContext, principal: Principal, caseId: string, body: CaseMemberIn): Promise<CaseView>;
  hold(ctx: CallContext, principal: Principal, caseId: string, body: CaseHoldIn): Promise<CaseView>;
  release(ctx: CallContext, principal: Principal, caseId: string, body: CaseHoldIn): Promise<CaseView>;
  review(ctx: CallContext, principal: Principal, caseId: string, body: CaseReviewIn): Promise<CaseView>;
  close(ctx: CallContext, principal: Principal, caseId: string, finding: string | null): Promise<CaseView>;
  assert(ctx: CallContext, principal: Principal, caseId: string, body: CaseAssertionIn): Promise<ObservationOut>;
  intake(ctx: CallContext, principal: Principal, caseId: string, body: IntakeManifest): Promise<IntakeOut>;
  /** Records one expansion step (src/cases/expand.ts) with the call's audit row; 409 when the case cannot take it. */
  recordExpansion(ctx: CallContext, principal: Principal, caseId: string, step: ExpansionStep): Promise<CaseView>;
  /** A gated expansion of the case by its inquiry id, or null. */
  gate(principal: Principal, caseId: string, gateId: string): Promise<CaseGate | null>;
}

export type ExpansionStep = Omit<Extract<CaseEvent, { type: 'case.expand' }>, 'type' | 'at' | 'principal'>;

/** Spending limit of a case whose CaseCreate names none (no per-tenant case budget is configured yet). */
export const DEFAULT_CASE_BUDGET = 1000;
// Rows per timeline read; a case's log is read whole, page by page.
const TIMELINE_PAGE = 500;

const notFound = () => new ServiceProblem('not-found', 'No such case.');

export function caseView(state: CaseStateName, c: CaseContext): CaseView {
  return {
    case_id: c.case_id,
    state,
    legal_hold: c.legal_hold,
    title: c.title,
    purpose: c.purpose,
    authorization: c.authorization as CaseOut['authorization'],
    members: c.members.map((m) => ({ principal: m.principal, role: m.role, added_at: m.added_at })),
    budget: { limit: c.budget_limit, spent: c.budget_spent, remaining: Math.max(0, c.budget_limit - c.budget_spent) },
    entity_ids: c.entity_ids,
    finding: c.finding,
    sequence: c.sequence,
    created_at: c.created_at,
    updated_at: c.updated_at,
    closed_at: c.closed_at,
  };
}

function normalised(p: { type: string; value: string }, country: string | undefined): NormalisedPresentation | null {
  return normalisePresentation(p.type, p.value, country ? { defaultCountry: country } : {});
}

/** The entity a CaseCreate's subject resolves to, if any. */
async function subjectEntity(tx: Tx, principal: Principal, subject: NonNullable<CaseCreate['subject']>): Promise<string | null> {
  const country = subject.claim?.country;
  const presented = (subject.presentations ?? []).map(
    (p) => normalised(p, country) ?? { type: p.type, value: p.value, normalised: p.value.trim() },
  );
  if (presented.length === 0 && !subject.entity_id) return null;
  try {
    return (await resolveEntity(tx, principal, presented, { entityId: subject.entity_id })).entityId;
  } catch (error) {
    if (error instanceof EntityNotFoundError)
      throw new ValidationFailure([{ loc: ['body', 'subject', 'entity_id'], msg: 'No such entity for this tenant.', type: 'not_found' }]);
    throw error;
  }
}

export function createCaseService(deps: CaseServiceDeps): CaseService {
  const target = (ctx: CallContext, caseId: string) => {
    ctx.audit.target_kind = 'case';
    ctx.audit.target_id = caseId;
  };

  /**
   * One case command: under the row lock, builds the machine event from the restored case,
   * refuses it with 409 when the machine would not take it, and commits it with the audit row.
   */
  async function command(
    ctx: CallContext,
    principal: Principal,
    caseId: string,
    outcome: CallOutcome,
    build: (context: CaseContext, state: CaseStateName, tx: Tx) => Promise<CaseEvent> | CaseEvent,
  ): Promise<SendResult<typeof caseMachine>> {
    target(ctx, caseId);
    // An actor's kind never changes: checked before the send, so another kind's id never reaches its machine.
    await readCase(principal, caseId);
    try {
      return await deps.runtime.send(
        principal,
        { kind: 'case', id: caseId },
        async (snapshot, tx) => {
          const context = snapshot.context;
          const state = snapshot.value;
          const event = await build(context, state, tx);
          const why = refusalOf(state, context, event);
          if (why !== null) throw new ServiceProblem('conflict', why, { case_state: state, legal_hold: context.legal_hold });
          return event;
        },
        { inTx: (tx) => ctx.auditInTx(tx, outcome) },
      );
    } catch (error) {
      if (error instanceof ActorNotFoundError) throw notFound();
      throw error;
    }
  }

  const outOf = (result: SendResult<typeof caseMachine>): CaseView => caseView(result.snapshot.value, result.snapshot.context);

  const stamp = (ctx: CallContext, principal: Principal) => ({ at: ctx.occurredAt, principal: principal.label });

  async function open(ctx: CallContext, principal: Principal, body: CaseCreate): Promise<CaseView> {
    ctx.audit.purpose = body.purpose;
    ctx.audit.target_kind = 'case';
    const mayInvestigate = await withTenant(deps.db, principal, (tx) => tenantMayInvestigate(tx, principal.tenantId));
    if (!mayInvestigate) {
      throw ValidationFailure.rule('C01', ['body'], 'Cases require an investigative (KYB) tenant with an authorization record (rule C01).');
    }
    await admit(deps, principal, { purpose: body.purpose, presentations: body.subject?.presentations ?? [] });
    const id = randomUUID();
    ctx.audit.target_id = id;
    const input: CaseInput = { case_id: id, tenant_id: principal.tenantId, mode: principal.mode };
    const result = await deps.runtime.create(principal, {
      kind: 'case',
      id,
      input,
      event: async (tx) => {
        const entity = body.subject ? await subjectEntity(tx, principal, body.subject) : null;
        return {
          type: 'case.open',
          ...stamp(ctx, principal),
          title: body.title,
          purpose: body.purpose,
          description: body.description ?? null,
          authorization: body.authorization,
          budget: body.budget ?? DEFAULT_CASE_BUDGET,
          entity_ids: entity ? [entity] : [],
        };
      },
      inTx: (tx) => ctx.auditInTx(tx, 'created'),
    });
    return caseView(result.snapshot.value, result.snapshot.context);
  }

  async function readCase(principal: Principal, caseId: string) {
    const record = await deps.runtime.read(principal, { kind: 'case', id: caseId });
    if (!record) throw notFound();
    return record;
  }

  async function view(principal: Principal, caseId: string): Promise<CaseView> {
    const record = await readCase(principal, caseId);
    return caseView(record.state as CaseStateName, record.context);
  }

  async function timeline(principal: Principal, caseId: string): Promise<EventEnvelope[]> {
    await readCase(principal, caseId);
    const out: EventEnvelope[] = [];
    for (let after = 0; ;) {
      const page = await deps.runtime.readEvents(principal, caseId, after, TIMELINE_PAGE);
      for (const e of page) out.push(envelopeOf(e, 'case') as EventEnvelope);
      if (page.length < TIMELINE_PAGE) return out;
      after = page.at(-1)!.seq;
    }
  }

  const members = async (ctx: CallContext, principal: Principal, caseId: string, body: CaseMemberIn) =>
    outOf(
      await command(ctx, principal, caseId, 'done', () => ({
        type: 'case.member',
        ...stamp(ctx, principal),
        action: body.action,
        member: body.principal,
        role: body.role,
      })),
    );

  const hold = async (ctx: CallContext, principal: Principal, caseId: string, body: CaseHoldIn) =>
    outOf(
      await command(ctx, principal, caseId, 'done', () => ({
        type: 'case.hold',
        ...stamp(ctx, principal),
        reason: body.reason,
        reference: body.reference ?? null,
      })),
    );

  const release = async (ctx: CallContext, principal: Principal, caseId: string, body: CaseHoldIn) =>
    outOf(
      await command(ctx, principal, caseId, 'done', () => ({
        type: 'case.release',
        ...stamp(ctx, principal),
        reason: body.reason,
        reference: body.reference ?? null,
      })),
    );

  async function review(ctx: CallContext, principal: Principal, caseId: string, body: CaseReviewIn): Promise<CaseView> {
    const separate = body.outcome === 'sign_off' && (await deps.policies.current(principal))?.body.separate_sign_off === true;
    return outOf(
      await command(ctx, principal, caseId, 'done', (context, state) => {
        if (separate && (principal.label === context.opened_by || principal.label === context.last_changed_by)) {
          ctx.audit.rule = 'C04';
          throw new ServiceProblem(
            'conflict',
            "The tenant's policy separates duties: the key that signs a case off cannot be the one that opened it or made its latest change (rule C04).",
            {
              rule: 'C04',
              case_state: state,
              legal_hold: context.legal_hold,
            },
          );
        }
        return { type: 'case.review', ...stamp(ctx, principal), outcome: body.outcome, note: body.note ?? null };
      }),
    );
  }

  const close = async (ctx: CallContext, principal: Principal, caseId: string, finding: string | null) =>
    outOf(await command(ctx, principal, caseId, 'done', () => ({ type: 'case.close', ...stamp(ctx, principal), finding })));

  async function assert(ctx: CallContext, principal: Principal, caseId: string, body: CaseAssertionIn): Promise<ObservationOut> {
    const [grants, policy] = await Promise.all([deps.registry.grants(principal), deps.policies.current(principal)]);
    let recorded: ObservationOut | null = null;
    await command(ctx, principal, caseId, 'created', async (context, state, tx) => {
      // Refused before anything is written (a throw would roll it back anyway).
      const probe: CaseEvent = {
        type: 'case.assert',
        ...stamp(ctx, principal),
        observation_id: '',
        disposition: body.disposition,
        entity_id: null,
        material_ids: [],
        finding_ids: [],
      };
      const why = refusalOf(state, context, probe);
      if (why !== null) throw new ServiceProblem('conflict', why, { case_state: state, legal_hold: context.legal_hold });
      ctx.audit.purpose = context.purpose;
      const obs: ObservationIn = {
        subject: body.subject,
        provenance_class: 'analyst_asserted',
        summary: body.statement,
        observed_at: body.observed_at,
        purpose: context.purpose,
        data_class: body.data_class,
        case_id: caseId,
      };
      const refusals = observationRefusals(obs, await loadAdmission(tx, principal, grants, policy), []);
      if (refusals.length > 0) throw new ValidationFailure(refusals, refusals[0]!.type as RuleId);
      recorded = await recordObservation(tx, principal, obs, []);
      return {
        ...probe,
        observation_id: recorded.observation_id,
        entity_id: recorded.entity_id,
        material_ids: body.material_ids ?? [],
        finding_ids: body.finding_ids ?? [],
      };
    });
    return recorded!;
  }

  async function intake(ctx: CallContext, principal: Principal, caseId: string, body: IntakeManifest): Promise<IntakeOut> {
    const grants = await deps.registry.grants(principal);
    const intakeId = randomUUID();
    let items: IntakeOut['items'] = [];
    const result = await command(ctx, principal, caseId, 'created', async (context, state, tx) => {
      const probe: CaseEvent = {
        type: 'case.intake',
        ...stamp(ctx, principal),
        intake_id: intakeId,
        keys: [],
        entity_ids: [],
        accepted: 0,
        duplicate: 0,
        rejected: 0,
      };
      const why = refusalOf(state, context, probe);
      if (why !== null) throw new ServiceProblem('conflict', why, { case_state: state, legal_hold: context.legal_hold });
      const seen = new Set(context.intake_keys);
      const keys: string[] = [];
      const entityIds: string[] = [];
      items = [];
      const answer = (
        ref: string,
        status: 'accepted' | 'duplicate' | 'rejected',
        extra: { rule?: string; reason?: string; target?: string | null } = {},
      ) =>
        items.push({ ref, status, rule: extra.rule ?? null, reason: extra.reason ?? null, target_id: extra.target ?? null, upload: null });
      for (const item of body.items) {
        if (item.kind === 'material') {
          const key = `sha256:${item.sha256}`;
          if (seen.has(key)) answer(item.ref, 'duplicate', { reason: 'The case already holds material with this hash.' });
          else answer(item.ref, 'rejected', { reason: 'Declared material is not taken by intake yet; declare it with POST /v1/material.' });
          continue;
        }
        const p = item.presentation;
        if (!grants.artifactTypes.has(p.type)) {
          answer(item.ref, 'rejected', {
            rule: 'I15',
            reason: withListing('I15', 'Not an artifact type registered to this tenant (rule I15).'),
          });
          continue;
        }
        const np = normalised(p, undefined);
        if (np === null) {
          answer(item.ref, 'rejected', { reason: `Not a valid ${p.type} value.` });
          continue;
        }
        const key = `${np.type}:${np.normalised}`;
        if (seen.has(key)) {
          answer(item.ref, 'duplicate', { reason: 'The case already holds this presentation.' });
          continue;
        }
        seen.add(key);
        keys.push(key);
        const entity = resolvingIdentifiers([np]).length > 0 ? (await resolveEntity(tx, principal, [np])).entityId : null;
        if (entity !== null) entityIds.push(entity);
        answer(item.ref, 'accepted', { target: entity });
      }
      const count = (s: string) => items.filter((i) => i.status === s).length;
      return {
        ...probe,
        keys,
        entity_ids: entityIds,
        accepted: count('accepted'),
        duplicate: count('duplicate'),
        rejected: count('rejected'),
      };
    });
    const count = (s: string) => items.filter((i) => i.status === s).length;
    return {
      intake_id: intakeId,
      case_id: caseId,
      sequence: result.snapshot.context.sequence,
      accepted: count('accepted'),
      duplicate: count('duplicate'),
      rejected: count('rejected'),
      items,
    };
  }

  async function graph(principal: Principal, caseId: string): Promise<CaseGraphOut> {
    const record = await readCase(principal, caseId);
    return withTenant(deps.db, principal, (tx) => caseGraph(tx, caseId, record.context, new Date()));
  }

  /** A hop goes on after its answer (accepted); a refused one is recorded under a context whose audit row is the refusal's. */
  const recordExpansion = async (ctx: CallContext, principal: Principal, caseId: string, step: ExpansionStep) =>
    outOf(await command(ctx, principal, caseId, 'accepted', () => ({ type: 'case.expand', ...stamp(ctx, principal), ...step })));

  async function gate(principal: Principal, caseId: string, gateId: string): Promise<CaseGate | null> {
    const { context } = await readCase(principal, caseId);
    return (context.gates ?? []).find((g) => g.gate_id === gateId) ?? null;
  }

  return { open, view, timeline, graph, members, hold, release, review, close, assert, intake, recordExpansion, gate };
}
