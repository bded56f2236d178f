import { insertPolicy, listPolicies, type PolicyRow } from './store.js';
import { withTenant, type Db } from '../platform/db/pool.js';
import type { AuditSink } from '../platform/outcomes.js';
import { ValidationFailure, type ValidationItem } from '../platform/problems.js';
import type { PolicyCache } from './cache.js';
import type { Grants, GrantScope, RegistryCache } from '../registry/index.js';
import type { RuleId } from '../platform/rules.js';
import type { PolicyIn, PolicyOut } from './schemas.js';

/** The caller as a policy command needs it: its tenant and mode, and the label a version records as its author. */
export type PolicyCaller = GrantScope & { label: string };

/**
 * The policy control plane's commands (admin scope). Versions are
 * append-only; the highest is current. Publishing changes labels from the
 * next inquiry on and never a score or a published assessment (SPEC
 * "Control plane").
 */
export async function publishPolicy(
  deps: { db: Db; cache: PolicyCache; registry: RegistryCache },
  call: AuditSink,
  principal: PolicyCaller,
  input: PolicyIn,
): Promise<PolicyOut> {
  call.audit.target_kind = 'policy';
  // The same grants the inquiry path checks against, so a policy can only
  // allow what an inquiry could actually declare.
  const refused = ungranted(input, await deps.registry.grants(principal));
  if (refused.length > 0) throw new ValidationFailure(refused, refused[0]!.type as RuleId);
  const row = await withTenant(deps.db, principal, async (tx) => {
    const inserted = await insertPolicy(tx, principal, input, principal.label);
    call.audit.target_id = String(inserted.version);
    await call.auditInTx(tx, 'created');
    return inserted;
  });
  // After commit: this process applies the new version on its very next call.
  deps.cache.invalidate(principal.tenantId, principal.mode);
  return toPolicyOut(row, true);
}

/** Every version, current first. */
export async function listPolicyVersions(deps: { db: Db }, principal: GrantScope): Promise<PolicyOut[]> {
  const rows = await withTenant(deps.db, principal, (tx) => listPolicies(tx));
  return rows.map((row, i) => toPolicyOut(row, i === 0));
}

function toPolicyOut(row: PolicyRow, current: boolean): PolicyOut {
  return { ...row.body, policy_version: row.version, created_at: row.created_at, current };
}

/**
 * Every purpose (rule I13) and intent (rule I14) the policy names, in its
 * allow lists and in its label rules, must be granted to the tenant. Each
 * refusal names its field; the value itself is never echoed.
 */
function ungranted(body: PolicyIn, grants: Grants): ValidationItem[] {
  const items: ValidationItem[] = [];
  const check = (values: readonly string[] | undefined, granted: ReadonlySet<string>, loc: (string | number)[], rule: 'I13' | 'I14') => {
    values?.forEach((value, i) => {
      if (!granted.has(value)) items.push({ loc: [...loc, i], msg: MESSAGES[rule], type: rule });
    });
  };
  check(body.allowed_purposes, grants.purposes, ['body', 'allowed_purposes'], 'I13');
  check(body.allowed_intents, grants.intents, ['body', 'allowed_intents'], 'I14');
  body.rules.forEach((rule, r) => {
    check(rule.when.purposes, grants.purposes, ['body', 'rules', r, 'when', 'purposes'], 'I13');
    check(rule.when.intents, grants.intents, ['body', 'rules', r, 'when', 'intents'], 'I14');
  });
  return items;
}

const MESSAGES: Record<'I13' | 'I14', string> = {
  I13: 'This purpose is not registered to the tenant.',
  I14: 'This intent is not registered to the tenant.',
};
