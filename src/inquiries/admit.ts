import type { Principal } from '../auth/authenticate.js';
import { ValidationFailure } from '../platform/problems.js';
import type { CurrentPolicy, PolicyCache } from '../policies/cache.js';
import { allows } from '../policies/evaluate.js';
import type { RegistryCache } from '../registry/cache.js';
import type { InquiryRequest } from '../schemas/inquiries.js';

/**
 * The rules an inquiry must pass before any work is done. A purpose that is
 * missing, not granted, not allowed by the current policy, or contradicted by
 * the X-Purpose header gets the same refusal every time (rule I13), so a
 * caller cannot probe which of these it was; likewise an intent (rule I14).
 */
export const PURPOSE_REFUSAL = ValidationFailure.rule('I13', ['body', 'purpose'], 'The declared purpose is not permitted for this tenant (rule I13).');
export const INTENT_REFUSAL = ValidationFailure.rule('I14', ['body', 'intent'], 'The declared intent is not permitted for this tenant (rule I14).');

export interface Admitted {
  policy: CurrentPolicy | null;
  /** The artifact types registered to the tenant: what gathered values may be. */
  artifactTypes: ReadonlySet<string>;
}

export async function admitInquiry(
  deps: { registry: RegistryCache; policies: PolicyCache },
  principal: Principal,
  body: InquiryRequest,
  purposeHeader: string | undefined,
): Promise<Admitted> {
  if (body.mode !== 'sync') {
    throw ValidationFailure.rule('I16', ['body', 'mode'], 'Only sync mode is served; async and stream are refused (rule I16).');
  }
  if (purposeHeader !== undefined && purposeHeader !== body.purpose) throw PURPOSE_REFUSAL;
  const [grants, policy] = await Promise.all([deps.registry.grants(principal), deps.policies.current(principal)]);
  const allowed = allows(policy?.body ?? null, { purpose: body.purpose, intent: body.intent });
  if (!grants.purposes.has(body.purpose) || !allowed.purpose) throw PURPOSE_REFUSAL;
  if (!grants.intents.has(body.intent) || !allowed.intent) throw INTENT_REFUSAL;
  const unknownTypes = (body.subject.presentations ?? [])
    .map((p, i) => ({ p, i }))
    .filter(({ p }) => !grants.artifactTypes.has(p.type))
    .map(({ i }) => ({ loc: ['body', 'subject', 'presentations', i, 'type'], msg: 'Not an artifact type registered to this tenant (rule I15).', type: 'I15' }));
  if (unknownTypes.length > 0) throw new ValidationFailure(unknownTypes, 'I15');
  return { policy, artifactTypes: grants.artifactTypes };
}

/**
 * A missing or malformed purpose fails the schema first; it must still read as
 * the I13 refusal (and an intent as I14). Other problems in the same body
 * (an unknown field, say) are still reported beside it; a body whose only
 * problem is the purpose gets exactly the I13 refusal.
 */
export function mapInquiryValidation(failure: ValidationFailure): ValidationFailure {
  const isAbout = (field: string) => (d: { loc: (string | number)[] }) => d.loc[0] === 'body' && d.loc[1] === field;
  const purpose = failure.detail.some(isAbout('purpose'));
  const intent = failure.detail.some(isAbout('intent'));
  if (!purpose && !intent) return failure;
  const rest = failure.detail.filter((d) => !isAbout('purpose')(d) && !isAbout('intent')(d));
  const rules = [...(purpose ? PURPOSE_REFUSAL.detail : []), ...(intent ? INTENT_REFUSAL.detail : [])];
  return new ValidationFailure([...rules, ...rest], purpose ? 'I13' : 'I14');
}
