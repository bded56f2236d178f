import type { Principal } from '../auth/index.js';
import type { AuditSink } from '../auth/index.js';
import type { InquiryTestimony } from '../checks/types.js';
import { stanceOf } from '../entities/index.js';
import type { MaterialBinding } from '../assessment/index.js';
import { factsOf, type CheckPlan, type InquiryFacts, type Question } from '../assessment/index.js';
import type { CurrentPolicy } from '../policies/index.js';
import type { AssessmentRow } from './store.js';
import type { InquiryAsk } from './ask.js';

/**
 * What every way of opening an inquiry starts from (engine.ts reads the
 * subject's history first; oneCall.ts scores a subject never seen and writes
 * it all in one call; engine.ts's probe writes nothing): the opening itself,
 * its plan, what it charges, its attached testimony and its facts. What it
 * then decides from the evidence is openPlan.ts.
 */
export const CHECK_QUEUE = 'checks';
/** The audit trail's currency for check costs: the operator's own units, not money. */
export const CHECK_COST_UNIT = 'check-units';
export const CHECK_JOB = 'check.run';

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
  ask: InquiryAsk;
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
export function contextTestimony(ask: Pick<InquiryAsk, 'testimony'>): InquiryTestimony[] {
  return ask.testimony.map((item) => ({
    provenance_class: item.provenance_class,
    summary: item.summary,
    observed_at: item.observed_at,
    stance: stanceOf(item.stance, item.summary),
  }));
}

/** What the inquiry asks, as the engine's facts keep it (src/assessment/facts.ts). */
export function questionOf(ask: InquiryAsk): Question {
  return {
    intent: ask.intent,
    purpose: ask.purpose,
    stake: ask.stake,
    tierCeiling: ask.tierCeiling,
    claim: ask.subject.claim,
    render: ask.render,
    renderLang: ask.renderLang,
  };
}

/** The facts an inquiry keeps, once its subject is resolved: the one builder of src/assessment, fed from the opening. */
export function openingFacts(
  opening: Pick<Opening, 'ask' | 'prepared' | 'policy' | 'deadlineAt'>,
  entityId: string | null,
  graph: InquiryFacts['graph'],
): InquiryFacts {
  const { ask, prepared } = opening;
  return factsOf(questionOf(ask), {
    inquiryId: prepared.inquiryId,
    entityId,
    subject: ask.subject.presentations.map((p) => ({ type: p.type, value: p.value })),
    presentations: prepared.presentations,
    policy: opening.policy,
    plan: prepared.plan,
    graph,
    deadlineAt: opening.deadlineAt,
    materialBindings: prepared.bindings,
  });
}
