import type { Principal } from '../auth/index.js';
import type { Absence, InquiryTestimony, Signal } from '../checks/types.js';
import type { NewObservation } from '../observations/index.js';
import { assessNow, type CheckPlan, type InquiryFacts } from '../assessment/index.js';
import type { InquiryEvent, InquiryInput, PendingCheck } from '../../machines/inquiryMachine.js';
import type { AssessmentRow, NewInquiry } from './store.js';
import type { InquiryAsk } from './ask.js';
import { CHECK_JOB, CHECK_QUEUE, contextTestimony, type Opening, type PreparedInquiry } from './opening.js';

/**
 * The one opening of an inquiry, as a pure function: from the facts it keeps
 * and the evidence gathered for it, the machine's creation with its first
 * event (the runtime takes that transition) and the rows the opening writes
 * beside the actor (its read-model row, its attached testimony). Every way
 * an inquiry opens goes through it: the long way and a probe (engine.ts),
 * a new subject's one call (oneCall.ts); what the machine's actions write is
 * effects.ts. The ids and the wall clock come in as arguments.
 */
export interface Gathered {
  evidence: { signals: Signal[]; absences: Absence[] };
  /** The worker checks still to run: none when the evidence was gathered before (a probe ran them all). */
  worker: CheckPlan['worker'];
  asOf: Date;
}

export interface OpenClock {
  newId: () => string;
  /** Milliseconds since the epoch, for how long the caller's deadline still leaves. */
  wallNow: number;
}

export interface OpenPlan {
  /** What the inquiry keeps of its question (its row's `request`), as it came in. */
  facts: InquiryFacts;
  /** The inquiry actor to create, with the event its first transition takes. */
  create: { kind: 'inquiry'; id: string; input: InquiryInput; event: Extract<InquiryEvent, { type: 'inquiry.evaluated' }> };
  evaluated: Evaluated;
  /** The read model's row, born `accepted` (its machine's first status is taken into it: effects.ts). */
  inquiry: NewInquiry;
  /** The attached testimony as observations of this inquiry, about its entity. */
  observations: NewObservation[];
}

export type Evaluated = ReturnType<typeof assessNow>;

type OpenFrom = Pick<Opening, 'principal' | 'ask' | 'prepared' | 'deadlineAt'>;

// After the caller's deadline, reasoning may go on this long beyond the slowest planned check
// before the inquiry concludes with what it has (the ceiling on a preliminary answer's revisions).
const REASONING_GRACE_MS = 5000;

export function openPlan(opening: OpenFrom, facts: InquiryFacts, gathered: Gathered, clock: OpenClock): OpenPlan {
  const { principal, ask, prepared } = opening;
  const evaluated = assessNow(facts, {
    assessmentId: clock.newId(),
    asOf: gathered.asOf,
    ...gathered.evidence,
    pendingCount: gathered.worker.length,
    preliminary: false,
  });
  return {
    facts,
    create: {
      kind: 'inquiry',
      id: prepared.inquiryId,
      input: { inquiry_id: prepared.inquiryId, preliminaryAllowed: ask.intent === 'pre_transaction' },
      event: evaluatedEvent(opening, gathered, evaluated, clock.wallNow),
    },
    evaluated,
    inquiry: newInquiryRow(principal, ask, facts),
    observations: contextObservations(principal, facts, ask, contextTestimony(ask), clock.newId),
  };
}

/** What the opening issued when its machine concluded at once, as the ledger holds it; null while it reasons. */
export function issuedBy(plan: OpenPlan, state: string): AssessmentRow | null {
  return state === 'concluded' ? ledgerRowOf(plan.evaluated) : null;
}

/**
 * The machine's first event: the evidence scored, the worker checks still
 * to come as jobs, and how long reasoning may wait for them.
 */
function evaluatedEvent(opening: OpenFrom, gathered: Gathered, out: Evaluated, wallNow: number): OpenPlan['create']['event'] {
  const { principal, ask, prepared, deadlineAt } = opening;
  const deadlineMs = Math.max(1, deadlineAt - wallNow);
  const slowest = Math.max(0, ...prepared.plan.worker.map((p) => p.check.timeoutMs));
  return {
    type: 'inquiry.evaluated',
    signals: gathered.evidence.signals,
    absences: gathered.evidence.absences,
    pending: gathered.worker.map((p) => pendingJob(principal, prepared, p, ask)),
    assessment: out.assessment,
    record: out.record,
    narrowEnough: out.narrowEnough,
    deadlineMs,
    maxReasoningMs: deadlineMs + slowest + REASONING_GRACE_MS,
  };
}

/** The inquiry's read-model row as it is born: `accepted`, until its machine's first status says otherwise. */
function newInquiryRow(principal: Principal, ask: InquiryAsk, facts: InquiryFacts): NewInquiry {
  return {
    id: facts.inquiryId,
    tenantId: principal.tenantId,
    mode: principal.mode,
    entityId: facts.entityId,
    status: 'accepted',
    intent: ask.intent,
    purpose: ask.purpose,
    request: facts,
    principal: principal.label,
  };
}

/**
 * Attached testimony is kept as observations of this inquiry, about its
 * entity, so the entity's later assessments see it as history. Written after
 * the history was loaded (in this inquiry it counts once, as context), with
 * the inquiry's other rows.
 */
function contextObservations(
  principal: Principal,
  facts: InquiryFacts,
  ask: InquiryAsk,
  testimony: InquiryTestimony[],
  newId: () => string,
): NewObservation[] {
  return testimony.map((item, i): NewObservation => {
    const given = ask.testimony[i]!;
    return {
      id: newId(),
      tenantId: principal.tenantId,
      mode: principal.mode,
      entityId: facts.entityId,
      kind: 'observation',
      provenanceClass: item.provenance_class,
      observedAt: item.observed_at,
      body: {
        summary: item.summary,
        stance: item.stance,
        purpose: given.purpose,
        data_class: given.data_class ?? 'C1',
        consent_ref: given.consent_ref ?? null,
        case_id: given.case_id ?? null,
        inquiry_id: facts.inquiryId,
      },
    };
  });
}

/** The assessment an opening issued, as its ledger row holds it: the answer, with no need to read it back. */
function ledgerRowOf(out: Evaluated): AssessmentRow {
  const a = out.assessment;
  return {
    id: a.assessment_id,
    inquiry_id: a.inquiry_id,
    entity_id: a.entity_id,
    score: a.score,
    low: a.low,
    high: a.high,
    preliminary: a.preliminary,
    as_of: a.as_of,
    methodology_version: a.methodology_version,
    label: a.label,
    evidence: a.evidence,
    findings: out.record.findings,
  };
}

function pendingJob(principal: Principal, prepared: PreparedInquiry, p: CheckPlan['worker'][number], ask: InquiryAsk): PendingCheck {
  const claim = ask.subject.claim
    ? Object.fromEntries(Object.entries(ask.subject.claim).filter(([, v]) => typeof v === 'string'))
    : undefined;
  return {
    key: p.key,
    job: {
      queue: CHECK_QUEUE,
      name: CHECK_JOB,
      jobId: p.key,
      data: {
        tenantId: principal.tenantId,
        mode: principal.mode,
        actorId: prepared.inquiryId,
        key: p.key,
        checkId: p.check.id,
        presentation: p.presentation,
        subject: prepared.presentations,
        ...(claim ? { claim } : {}),
      },
    },
  };
}
