import { newRowId } from '../platform/ids.js';
import type { Principal } from '../auth/index.js';
import type { AuditSink } from '../auth/index.js';
import type { Absence, InquiryTestimony, Signal } from '../checks/types.js';
import type { NewObservation } from '../observations/index.js';
import { stanceOf } from '../entities/index.js';
import type { MaterialBinding } from '../assessment/index.js';
import { assessNow, type CheckPlan, type InquiryFacts } from '../assessment/index.js';
import type { CurrentPolicy } from '../policies/index.js';
import type { InquiryEvent, PendingCheck } from '../../machines/inquiryMachine.js';
import type { AssessmentRow } from './store.js';
import type { InquiryRequest } from './schemas.js';

/**
 * What both ways of opening an inquiry share (engine.ts reads the subject's
 * history first; oneCall.ts scores a subject never seen and writes it all in
 * one call): the facts kept with the inquiry, its attached testimony, the
 * first event of its machine, the jobs of its worker checks, and the ledger
 * row of what it issued.
 */
export const CHECK_QUEUE = 'checks';
/** The audit trail's currency for check costs: the operator's own units, not money. */
export const CHECK_COST_UNIT = 'check-units';
export const CHECK_JOB = 'check.run';
// After the caller's deadline, reasoning may go on this long beyond the slowest planned check
// before the inquiry concludes with what it has (the ceiling on a preliminary answer's revisions).
const REASONING_GRACE_MS = 5000;

export interface OpenedInquiry {
  inquiryId: string;
  state: string;
  facts: InquiryFacts;
  /** The assessment the opening issued, as written to the ledger (null while reasoning). */
  issued: AssessmentRow | null;
}

/** One inquiry about to open, whichever way it opens: the call, the caller, the request as gathered, its plan and policy, and when the answer is due. */
export interface Opening {
  ctx: AuditSink;
  principal: Principal;
  body: InquiryRequest;
  prepared: PreparedInquiry;
  policy: CurrentPolicy | null;
  deadlineAt: number;
}

export interface PreparedInquiry {
  inquiryId: string;
  presentations: InquiryFacts['presentations'];
  plan: CheckPlan;
  /** Values taken from the material the inquiry named, with where they sit in it. */
  bindings: MaterialBinding[];
}

/**
 * What the call spends, on its audit row: the cost of every check it runs,
 * in the operator's check cost units (a provider's `cost`); free offline
 * checks cost 0, and 0 is still a cost on the record.
 */
export function chargeChecks(ctx: AuditSink, inquiryId: string, plan: CheckPlan): void {
  ctx.audit.target_kind = 'inquiry';
  ctx.audit.target_id = inquiryId;
  ctx.audit.cost_amount = [...plan.inline, ...plan.worker].reduce((sum, p) => sum + p.check.cost, 0);
  ctx.audit.cost_currency = CHECK_COST_UNIT;
}

/** The inquiry's attached testimony, each item with the stance it was given or that its words imply. */
export function contextTestimony(body: InquiryRequest): InquiryTestimony[] {
  return (body.context ?? []).map((item) => ({
    provenance_class: item.provenance_class,
    summary: item.summary,
    observed_at: item.observed_at,
    stance: stanceOf(item.stance, item.summary),
  }));
}

/**
 * Attached testimony is kept as observations of this inquiry, about its
 * entity, so the entity's later assessments see it as history. Written after
 * the history was loaded (in this inquiry it counts once, as context), with
 * the inquiry's other rows.
 */
export function contextObservations(
  principal: Principal,
  inquiryId: string,
  entityId: string | null,
  body: InquiryRequest,
  testimony: InquiryTestimony[],
): NewObservation[] {
  return testimony.map((item, i): NewObservation => {
    const given = body.context![i]!;
    return {
      id: newRowId(),
      tenantId: principal.tenantId,
      mode: principal.mode,
      entityId,
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
        inquiry_id: inquiryId,
      },
    };
  });
}

export type Evaluated = ReturnType<typeof assessNow>;

/**
 * The machine's first event: the evidence scored, the worker checks still
 * to come as jobs, and how long reasoning may wait for them.
 */
export function evaluatedEvent(
  principal: Principal,
  body: InquiryRequest,
  prepared: PreparedInquiry,
  evidence: { signals: Signal[]; absences: Absence[] },
  worker: CheckPlan['worker'],
  out: Evaluated,
  deadlineAt: number,
): InquiryEvent {
  const deadlineMs = Math.max(1, deadlineAt - Date.now());
  const slowest = Math.max(0, ...prepared.plan.worker.map((p) => p.check.timeoutMs));
  return {
    type: 'inquiry.evaluated',
    signals: evidence.signals,
    absences: evidence.absences,
    pending: worker.map((p) => pendingJob(principal, prepared.inquiryId, p, prepared.presentations, body)),
    assessment: out.assessment,
    record: out.record,
    narrowEnough: out.narrowEnough,
    deadlineMs,
    maxReasoningMs: deadlineMs + slowest + REASONING_GRACE_MS,
  };
}

/** The assessment an opening issued, as its ledger row holds it: the answer, with no need to read it back. */
export function ledgerRowOf(out: Evaluated): AssessmentRow {
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

export function factsOf(
  inquiryId: string,
  body: InquiryRequest,
  presentations: InquiryFacts['presentations'],
  policy: CurrentPolicy | null,
  plan: CheckPlan,
  entityId: string | null,
  graph: InquiryFacts['graph'],
  deadlineAt: number,
): InquiryFacts {
  return {
    inquiryId,
    entityId,
    intent: body.intent,
    purpose: body.purpose,
    stake: body.stake,
    tierCeiling: body.tier_ceiling,
    subject: (body.subject.presentations ?? []).map((p) => ({ type: p.type, value: p.value })),
    presentations,
    claim: body.subject.claim,
    policy,
    render: body.render,
    renderLang: body.render_lang,
    gaps: plan.gaps,
    checksRun: plan.inline.length + plan.worker.length,
    graph,
    deadlineAt,
    pendingIndex: Object.fromEntries(plan.worker.map((p) => [p.key, p.presentation])),
  };
}

function pendingJob(
  principal: Principal,
  inquiryId: string,
  p: CheckPlan['worker'][number],
  subject: InquiryFacts['presentations'],
  body: InquiryRequest,
): PendingCheck {
  const claim = body.subject.claim
    ? Object.fromEntries(Object.entries(body.subject.claim).filter(([, v]) => typeof v === 'string'))
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
        actorId: inquiryId,
        key: p.key,
        checkId: p.check.id,
        presentation: p.presentation,
        subject,
        ...(claim ? { claim } : {}),
      },
    },
  };
}
