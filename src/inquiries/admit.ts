import type { Principal } from '../auth/authenticate.js';
import { ValidationFailure } from '../http/problems.js';
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
  return { policy };
}

/** A missing purpose fails the schema first; it must still read as the I13 refusal (and a missing intent as I14). */
export function mapInquiryValidation(failure: ValidationFailure): ValidationFailure {
  const about = (field: string) => failure.detail.some((d) => d.loc.length === 2 && d.loc[0] === 'body' && d.loc[1] === field);
  if (about('purpose')) return PURPOSE_REFUSAL;
  if (about('intent')) return INTENT_REFUSAL;
  return failure;
}
