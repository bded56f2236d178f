import type { Principal } from '../auth/index.js';
import { ValidationFailure, type ValidationItem } from '../platform/problems.js';
import type { CurrentPolicy, PolicyCache } from './cache.js';
import { allows } from './evaluate.js';
import type { Grants, RegistryCache } from '../registry/index.js';

/**
 * The one admission every declared use of the service passes before any
 * work: inquiries, sessions and monitors (purpose, intent, presented types),
 * material, cases and observations (purpose, presented types). A purpose that
 * is missing, not granted, not allowed by the tenant's current policy, or
 * contradicted by the X-Purpose header gets the same refusal every time
 * (rule I13), so a caller cannot probe which of these it was; likewise an
 * intent (rule I14); an unregistered artifact type is rule I15, named at its
 * place in the body.
 */
export const PURPOSE_REFUSAL = ValidationFailure.rule(
  'I13',
  ['body', 'purpose'],
  'The declared purpose is not permitted for this tenant (rule I13).',
);
export const INTENT_REFUSAL = ValidationFailure.rule(
  'I14',
  ['body', 'intent'],
  'The declared intent is not permitted for this tenant (rule I14).',
);

export interface AdmissionDeps {
  registry: RegistryCache;
  policies: PolicyCache;
}

export interface Declared {
  purpose: string;
  /** Absent where the use declares no intent (material, cases, testimony). */
  intent?: string;
  presentations?: readonly { type: string }[];
  /** Where `presentations` sits in the body, for the I15 `loc` (`['subject']` by default). */
  presentationsAt?: (string | number)[];
  purposeHeader?: string | undefined;
}

export interface Admitted {
  policy: CurrentPolicy | null;
  grants: Grants;
}

export async function admit(deps: AdmissionDeps, principal: Principal, d: Declared): Promise<Admitted> {
  if (d.purposeHeader !== undefined && d.purposeHeader !== d.purpose) throw PURPOSE_REFUSAL;
  const [grants, policy] = await Promise.all([deps.registry.grants(principal), deps.policies.current(principal)]);
  if (!purposePermitted(grants, policy, d.purpose)) throw refusalOf('I13', grants.purposes.has(d.purpose) ? policy : null);
  if (d.intent !== undefined && !intentPermitted(grants, policy, d.intent))
    throw refusalOf('I14', grants.intents.has(d.intent) ? policy : null);
  const unknown = unregisteredTypes(grants, d.presentations ?? [], d.presentationsAt ?? ['subject']);
  if (unknown.length > 0) throw new ValidationFailure(unknown, 'I15');
  return { policy, grants };
}

/**
 * The refusal of a purpose (I13) or intent (I14): the registry's, or, when the
 * value is registered to the tenant and only its current policy leaves it out,
 * the policy's, naming its version and what it allows (issue 51): the caller
 * learns where the answer is, an admin's next policy and not the registry
 * listing, which lists the value. It depends on the policy, never on the
 * value sent, so it is the same every time until the policy changes.
 */
export function refusalOf(rule: 'I13' | 'I14', policy: CurrentPolicy | null): ValidationFailure {
  const item = policyRefusalItem(rule, policy);
  if (item !== null) return new ValidationFailure([item], rule);
  return rule === 'I13' ? PURPOSE_REFUSAL : INTENT_REFUSAL;
}

/** The policy's refusal item of a registered value at `loc`, or null without a policy. */
export function policyRefusalItem(rule: 'I13' | 'I14', policy: CurrentPolicy | null, loc?: (string | number)[]): ValidationItem | null {
  if (policy === null) return null;
  const what = rule === 'I13' ? 'purpose' : 'intent';
  const allowed = rule === 'I13' ? policy.body.allowed_purposes : policy.body.allowed_intents;
  const allows = allowed.length === 0 ? `allows no ${what}` : `allows ${allowed.join(', ')}`;
  return {
    loc: loc ?? ['body', what],
    msg:
      `The declared ${what} is not allowed by the tenant's policy, version ${policy.version}, which ${allows} (rule ${rule}); ` +
      'an admin key lists the policy with GET /v1/admin/policies and publishes another version with POST /v1/admin/policies.',
    type: rule,
    policy: { policy_version: policy.version, allowed: [...allowed] },
  };
}

export function purposePermitted(grants: Grants, policy: CurrentPolicy | null, purpose: string): boolean {
  return grants.purposes.has(purpose) && allows(policy?.body ?? null, { purpose, intent: '' }).purpose;
}

export function intentPermitted(grants: Grants, policy: CurrentPolicy | null, intent: string): boolean {
  return grants.intents.has(intent) && allows(policy?.body ?? null, { purpose: '', intent }).intent;
}

/** I15 for each presented type not registered to the tenant, at `['body', ...at, 'presentations', i, 'type']`. */
export function unregisteredTypes(grants: Grants, presentations: readonly { type: string }[], at: (string | number)[]): ValidationItem[] {
  return presentations.flatMap((p, i) =>
    grants.artifactTypes.has(p.type)
      ? []
      : [
          {
            loc: ['body', ...at, 'presentations', i, 'type'],
            msg: 'Not an artifact type registered to this tenant (rule I15).',
            type: 'I15',
          },
        ],
  );
}
