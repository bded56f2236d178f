import type { PolicyCondition, PolicyIn } from './schemas.js';

/**
 * Applying a tenant's published policy: pure functions, no I/O.
 *
 * A policy never touches a score (SPEC "What the service does" 5): it only
 * names what an inquiry may declare (`allows`) and which label an assessment
 * carries (`labelFor`). The label names the policy version that applied.
 */
// Policies published before allowed_origins, separate_sign_off and default_region existed are stored without them.
export type PolicyBody = Omit<PolicyIn, 'allowed_origins' | 'separate_sign_off' | 'default_region'> & {
  allowed_origins?: string[];
  separate_sign_off?: boolean;
  default_region?: string | null;
};

/** What a label rule may look at: the assessment and the question it answered. */
export interface LabelFacts {
  score: number;
  low: number;
  high: number;
  intent: string;
  purpose: string;
  stake_kind: string;
  amount?: number | undefined;
  preliminary: boolean;
}

export interface PolicyLabel {
  value: string;
  policy_version: number;
}

/**
 * The first rule, in order, whose every given condition holds gives the
 * label; null when no rule matches or the tenant has published no policy.
 */
export function labelFor(policy: PolicyBody | null, version: number | null, facts: LabelFacts): PolicyLabel | null {
  if (policy === null || version === null) return null;
  for (const rule of policy.rules) {
    if (conditionHolds(rule.when, facts)) return { value: rule.label, policy_version: version };
  }
  return null;
}

/**
 * Every given bound and list must hold; an absent one says nothing, so an
 * empty condition matches every assessment (a catch-all last rule).
 *
 * Two literal readings, chosen so a rule never matches by accident:
 * - a list names the values it accepts, so an empty list accepts none;
 * - an amount bound cannot hold for a stake that declared no amount.
 */
export function conditionHolds(when: PolicyCondition, facts: LabelFacts): boolean {
  const width = facts.high - facts.low;
  return (
    within(facts.score, when.score_gte, when.score_lte) &&
    within(facts.low, when.low_gte, when.low_lte) &&
    within(facts.high, when.high_gte, when.high_lte) &&
    within(width, when.width_gte, when.width_lte) &&
    listed(facts.intent, when.intents) &&
    listed(facts.purpose, when.purposes) &&
    listed(facts.stake_kind, when.stake_kinds) &&
    amountWithin(facts.amount, when.amount_gte, when.amount_lte) &&
    (when.preliminary === undefined || when.preliminary === facts.preliminary)
  );
}

function within(value: number, gte: number | undefined, lte: number | undefined): boolean {
  return (gte === undefined || value >= gte) && (lte === undefined || value <= lte);
}

function listed(value: string, list: readonly string[] | undefined): boolean {
  return list === undefined || list.includes(value);
}

function amountWithin(amount: number | undefined, gte: number | undefined, lte: number | undefined): boolean {
  if (gte === undefined && lte === undefined) return true;
  return amount !== undefined && within(amount, gte, lte);
}

export interface Allowance {
  purpose: boolean;
  intent: boolean;
}

/**
 * Whether the tenant's current policy lets an inquiry declare this purpose
 * and use this intent. The caller refuses a false `purpose` with rule I13 and
 * a false `intent` with rule I14.
 *
 * Before the tenant publishes its first policy, every purpose and intent it
 * has been granted in the registry is allowed: provisioning is the tenant's
 * first statement of what it may do, and refusing every inquiry until an
 * admin writes a policy would make a new tenant unusable. Whether the value is
 * granted at all is the registry's question, asked separately by the caller.
 */
export function allows(policy: PolicyBody | null, asked: { purpose: string; intent: string }): Allowance {
  if (policy === null) return { purpose: true, intent: true };
  return {
    purpose: policy.allowed_purposes.includes(asked.purpose),
    intent: policy.allowed_intents.includes(asked.intent),
  };
}
