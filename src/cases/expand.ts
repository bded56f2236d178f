import { z } from 'zod';
import type { Principal } from '../auth/index.js';
import type { CallContext } from '../auth/index.js';
import { normalisePresentation } from '../checks/normalise.js';
import { latestAssessmentOf } from '../inquiries/index.js';
import { withTenant, type Db } from '../platform/db/pool.js';
import { carriersOf } from '../entities/index.js';
import { askSubjectOf, CHECK_COST_UNIT } from '../inquiries/index.js';
import type { InquiryService } from '../inquiries/index.js';
import type { InquiryAsk, InquiryOutcome } from '../inquiries/index.js';
import { ServiceProblem, ValidationFailure } from '../platform/problems.js';
import type { CaseExpandIn } from './schemas.js';
import { Subject } from '../schemas/common.js';
import type { Tier } from '../checks/types.js';
import { MAX_CANDIDATES, type CaseCandidate, type CaseGate } from '../../machines/caseMachine.js';
import type { CaseService, CaseView } from './service.js';

/**
 * Case expansion (SPEC cases rule 3): one budgeted hop of attribution.
 *
 * - From a seed, the hop is one inquiry within the case's purpose, at most
 *   at the asked tier. Its cost (the sum of its planned checks' costs, the
 *   unit of every audit row's cost_amount) is estimated first; a hop that
 *   would spend more than the case has left, or than its own max_cost, is
 *   refused before any work (409, rule C03, naming the budget) and the
 *   refusal is on the case's timeline.
 * - With `human_gate`, nothing is spent and nothing is fetched: the seed is
 *   looked at with the offline checks only (tier t0, cost 0), and the values
 *   it shares with other entities of the tenant are shown as candidates,
 *   recorded on the case as a gate.
 * - `choose` names the gate (its inquiry id) and the candidates to follow:
 *   the investigator's choice, recorded with who and when; only then is the
 *   seed looked at at the asked tier, budgeted as above, and the chosen
 *   candidates' entities become entities of the case.
 *
 * Every step (expanded, gated, chosen, refused) is one case event, on the
 * timeline and the case's stream, and the call's audit row carries its cost.
 */
export interface CaseExpansionDeps {
  db: Db;
  cases: Pick<CaseService, 'view' | 'recordExpansion' | 'gate'>;
  inquiries: Pick<InquiryService, 'inquire' | 'estimate'>;
}

export type CaseExpansion = ReturnType<typeof createCaseExpansion>;

/** What a hop answers: the inquiry it ran (gated, expanded or chosen alike); revisions follow on the case stream. */
export interface ExpansionAnswer {
  inquiry: InquiryOutcome;
}

export function createCaseExpansion(deps: CaseExpansionDeps) {
  async function expand(ctx: CallContext, principal: Principal, caseId: string, body: CaseExpandIn): Promise<ExpansionAnswer> {
    const current = await deps.cases.view(principal, caseId);
    ctx.audit.purpose = current.purpose;
    if (current.state === 'closed' || current.state === 'signed_off') {
      throw new ServiceProblem(
        'conflict',
        current.state === 'closed'
          ? 'A closed case takes no more evidence.'
          : 'A signed-off case takes no more evidence; a reviewer must request changes first.',
        {
          case_state: current.state,
          legal_hold: current.legal_hold,
        },
      );
    }
    if (body.choose) return choose(ctx, principal, current, body, body.choose);
    const ask = hopAsk(current, body.seed!, body.intent!, body.human_gate ? 't0' : body.tier_ceiling);
    if (body.human_gate) return gated(ctx, principal, current, body.seed!, ask);
    await withinBudget(ctx, principal, current, ask, body.max_cost);
    const answer = await runHop(ctx, principal, ask);
    await deps.cases.recordExpansion(ctx, principal, caseId, {
      outcome: 'expanded',
      inquiry_id: answer.inquiryId,
      gate: null,
      chosen: [],
      cost: cost(ctx),
      entity_ids: answer.entityIds,
      reason: null,
    });
    return { inquiry: answer.inquiry };
  }

  async function gated(
    ctx: CallContext,
    principal: Principal,
    current: CaseView,
    seed: Subject,
    ask: InquiryAsk,
  ): Promise<ExpansionAnswer> {
    const answer = await runHop(ctx, principal, ask);
    const gate: CaseGate = {
      gate_id: answer.inquiryId,
      seed,
      intent: ask.intent,
      candidates: await candidatesOf(principal, answer.inquiryId, answer.entityIds),
      open: true,
      opened_at: ctx.occurredAt,
    };
    await deps.cases.recordExpansion(ctx, principal, current.case_id, {
      outcome: 'gated',
      inquiry_id: answer.inquiryId,
      gate,
      chosen: [],
      cost: cost(ctx),
      entity_ids: [],
      reason: null,
    });
    return { inquiry: answer.inquiry };
  }

  async function choose(
    ctx: CallContext,
    principal: Principal,
    current: CaseView,
    body: CaseExpandIn,
    chosen: NonNullable<CaseExpandIn['choose']>,
  ): Promise<ExpansionAnswer> {
    const gate = await deps.cases.gate(principal, current.case_id, chosen.inquiry_id);
    if (!gate)
      throw new ValidationFailure([
        { loc: ['body', 'choose', 'inquiry_id'], msg: 'No gated expansion of this case has that inquiry id.', type: 'not_found' },
      ]);
    const offered = new Map(gate.candidates.map((c) => [c.connection_id, c]));
    const unknown = chosen.connection_ids.map((id, i) => [id, i] as const).filter(([id]) => !offered.has(id));
    if (unknown.length > 0) {
      throw new ValidationFailure(
        unknown.map(([, i]) => ({
          loc: ['body', 'choose', 'connection_ids', i],
          msg: 'Not a candidate that expansion showed.',
          type: 'not_a_candidate',
        })),
      );
    }
    if (!gate.open)
      throw new ServiceProblem('conflict', 'The candidates of that expansion were already chosen.', {
        case_state: current.state,
        legal_hold: current.legal_hold,
      });
    // The seed as the gate stored it (a Subject when it was recorded), parsed, not cast.
    const ask = hopAsk(current, Subject.parse(gate.seed), gate.intent, body.tier_ceiling);
    await withinBudget(ctx, principal, current, ask, body.max_cost);
    const answer = await runHop(ctx, principal, ask);
    const attributed = chosen.connection_ids.flatMap((id) => offered.get(id)!.entity_ids);
    await deps.cases.recordExpansion(ctx, principal, current.case_id, {
      outcome: 'chosen',
      inquiry_id: answer.inquiryId,
      gate,
      chosen: chosen.connection_ids,
      cost: cost(ctx),
      entity_ids: [...new Set([...answer.entityIds, ...attributed])],
      reason: null,
    });
    return { inquiry: answer.inquiry };
  }

  /** Refuses, before any work, a hop that would spend more than the case has left or than its own cap; the refusal is recorded. */
  async function withinBudget(ctx: CallContext, principal: Principal, current: CaseView, ask: InquiryAsk, maxCost: number | undefined) {
    const estimated = await deps.inquiries.estimate(principal, ask);
    const cap = Math.min(current.budget.remaining, maxCost ?? Number.POSITIVE_INFINITY);
    if (estimated <= cap) return;
    const reason = `The hop would cost ${estimated} ${CHECK_COST_UNIT}; ${maxCost !== undefined && maxCost < current.budget.remaining ? `max_cost is ${maxCost}` : `the case has ${current.budget.remaining} of its budget of ${current.budget.limit} left`} (rule C03).`;
    // The refusal is on the timeline; the call's audit row is the pipeline's, written with the 409.
    await deps.cases.recordExpansion(withoutAudit(ctx), principal, current.case_id, {
      outcome: 'refused',
      inquiry_id: null,
      gate: null,
      chosen: [],
      cost: 0,
      entity_ids: [],
      reason,
    });
    ctx.audit.target_kind = 'case';
    ctx.audit.target_id = current.case_id;
    ctx.audit.cost_amount = 0;
    ctx.audit.cost_currency = CHECK_COST_UNIT;
    ctx.audit.rule = 'C03';
    throw new ServiceProblem('conflict', reason, {
      rule: 'C03',
      budget: current.budget,
      estimated_cost: estimated,
      ...(maxCost !== undefined ? { max_cost: maxCost } : {}),
    });
  }

  /**
   * Runs the hop's inquiry as part of this call: its cost lands on the call's
   * audit facts, and the audit row itself is written once, with the case
   * event that records the hop.
   */
  async function runHop(ctx: CallContext, principal: Principal, ask: InquiryAsk) {
    const answer = await deps.inquiries.inquire(withoutAudit(ctx), principal, ask);
    const entityId = answer.assessment.entity_id;
    return { inquiryId: answer.inquiry.inquiry_id, entityIds: entityId ? [entityId] : [], inquiry: answer.inquiry };
  }

  /** The values the seed shares with other entities, each with those entities: what a gate offers. */
  async function candidatesOf(principal: Principal, inquiryId: string, own: string[]): Promise<CaseCandidate[]> {
    return withTenant(deps.db, principal, async (tx) => {
      const row = await latestAssessmentOf(tx, inquiryId);
      const connections = (StoredConnections.parse(row?.findings ?? {}).connections ?? []).slice(0, MAX_CANDIDATES);
      const out: CaseCandidate[] = [];
      for (const c of connections) {
        const normalised = normalisePresentation(c.from_type, c.from_label)?.normalised ?? c.from_label.trim().toLowerCase();
        out.push({
          connection_id: c.connection_id,
          type: c.from_type,
          value: c.from_label,
          entity_ids: await carriersOf(tx, { type: c.from_type, normalised }, own, MAX_CANDIDATES),
        });
      }
      return out;
    });
  }

  return { expand };
}

/**
 * The hop's inquiry, as inquiries' commands take it: the seed, the case's
 * purpose, the hop's intent and tier; no money at stake in an investigation's
 * own lookup, no report, no testimony, and no idempotency key (the hop is the
 * case's command, recorded on the case).
 */
function hopAsk(current: CaseView, seed: Subject, intent: string, tier: Tier): InquiryAsk {
  return {
    subject: askSubjectOf(seed),
    intent,
    purpose: current.purpose,
    stake: { kind: 'other' },
    tierCeiling: tier,
    render: 'none',
    testimony: [],
    materialIds: [],
    idempotency: null,
  };
}

const cost = (ctx: CallContext) => ctx.audit.cost_amount ?? 0;

/** The part of a stored assessment's findings (jsonb) a gate reads: the connections of the seed, parsed, not cast. */
const StoredConnections = z.looseObject({
  connections: z.array(z.looseObject({ connection_id: z.string(), from_type: z.string(), from_label: z.string() })).optional(),
});

/** The same call, its audit row left to the step that records the hop (one row per call). */
function withoutAudit(ctx: CallContext): CallContext {
  return { ...ctx, audit: ctx.audit, auditInTx: () => Promise.resolve(), auditRow: () => null, auditRecord: () => null };
}
