import type { CheckEnvironment, NormalisedPresentation, SubjectClaim, Tier } from '../checks/types.js';
import type { CurrentPolicy } from '../policies/index.js';
import type { Stake } from '../scoring/index.js';
import type { InquiryFacts } from './evaluate.js';
import type { MaterialBinding } from './gather.js';
import type { CheckPlan } from './plan.js';

/**
 * The one place an assessment's facts are built, whoever opens it: an
 * inquiry (the long way, the one call, a probe) or a session. What the
 * question asks comes in as `Question`, a domain value that knows no wire
 * (an inquiry's route maps its request to it, a session its opening); what
 * the opening found out (the entity, its graph, the plan) as `Found`. A
 * field that scoring reads is added to `Question` and reaches every opening
 * through this spread, not through a copy per opening.
 */
export interface Question {
  intent: string;
  purpose: string;
  stake: Stake;
  tierCeiling: Tier;
  claim: SubjectClaim | undefined;
  render: InquiryFacts['render'];
  renderLang: string | undefined;
}

export interface Found {
  inquiryId: string;
  entityId: string | null;
  /** The values as presented (type and value), as the findings name them. */
  subject: { type: string; value: string }[];
  presentations: NormalisedPresentation[];
  policy: CurrentPolicy | null;
  plan: Pick<CheckPlan, 'gaps' | 'inline' | 'worker'>;
  graph: CheckEnvironment['graph'];
  /** Wall-clock instant by which the caller must have its first answer (0: no caller waits). */
  deadlineAt: number;
  materialBindings?: MaterialBinding[];
}

export function factsOf(question: Question, found: Found): InquiryFacts {
  const { plan } = found;
  return {
    ...question,
    inquiryId: found.inquiryId,
    entityId: found.entityId,
    subject: found.subject,
    presentations: found.presentations,
    policy: found.policy,
    gaps: plan.gaps,
    checksRun: plan.inline.length + plan.worker.length,
    graph: found.graph,
    deadlineAt: found.deadlineAt,
    pendingIndex: Object.fromEntries(plan.worker.map((p) => [p.key, p.presentation])),
    ...(found.materialBindings ? { materialBindings: found.materialBindings } : {}),
  };
}
