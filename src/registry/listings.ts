import type { ValidationItem } from '../platform/problems.js';

/**
 * Where the registered values a tenant's key may declare are listed (issue
 * 38): an admission refusal (I13 purpose, I14 intent, I15 artifact type)
 * names the registry operation that lists them, never the values themselves
 * and never the caller's input, so the refusal stays the same bytes every
 * time, whatever was sent and whichever check refused it. The HTTP edge adds
 * it to 422 bodies (`withRegistryHint`, handed to the edge by the root); a session's refused frame and
 * a case intake's rejected item carry it too.
 */
export const LISTED_AT: Readonly<Record<string, string>> = {
  I13: 'The purposes this key may declare are listed by GET /v1/registry/purposes.',
  I14: 'The intents this key may declare are listed by GET /v1/registry/intents.',
  I15: 'The artifact types this key may present are listed by GET /v1/registry/artifact-types.',
};

/** `message` followed by where the rule's registered values are listed, when the rule has a listing. */
export function withListing(rule: string, message: string): string {
  const hint = LISTED_AT[rule];
  return hint === undefined || message.includes(hint) ? message : `${message} ${hint}`;
}

/**
 * A 422 item of an admission rule (I13, I14, I15) with where the registered
 * values are listed; not a refusal by the tenant's policy, which names the
 * policy instead (the registry lists the value).
 */
export function withRegistryHint(item: ValidationItem): ValidationItem {
  if (item.policy !== undefined) return item;
  const msg = withListing(item.type, item.msg);
  return msg === item.msg ? item : { ...item, msg };
}
