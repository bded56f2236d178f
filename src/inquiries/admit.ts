import type { Principal } from '../auth/index.js';
import { admit, INTENT_REFUSAL, PURPOSE_REFUSAL, type AdmissionDeps } from '../policies/index.js';
import { ValidationFailure } from '../platform/problems.js';
import type { CurrentPolicy } from '../policies/index.js';
import type { InquiryAsk } from './ask.js';

/**
 * The rules an inquiry must pass before any work is done: the one admission
 * (src/policies/admission.ts: purpose I13, intent I14, presented types I15).
 * The mode rule (I16) is the wire's, checked by the route (wire.ts).
 */
export { INTENT_REFUSAL, PURPOSE_REFUSAL };

export interface Admitted {
  policy: CurrentPolicy | null;
  /** The artifact types registered to the tenant: what gathered values may be. */
  artifactTypes: ReadonlySet<string>;
}

export async function admitInquiry(
  deps: AdmissionDeps,
  principal: Principal,
  ask: Pick<InquiryAsk, 'purpose' | 'intent' | 'subject'>,
  purposeHeader: string | undefined,
): Promise<Admitted> {
  const { policy, grants } = await admit(deps, principal, {
    purpose: ask.purpose,
    intent: ask.intent,
    presentations: ask.subject.presentations,
    purposeHeader,
  });
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
