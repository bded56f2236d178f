/**
 * Where the registered values a tenant's key may declare are listed (issue
 * 38): an admission refusal (I13 purpose, I14 intent, I15 artifact type)
 * names the registry operation that lists them, never the values themselves
 * and never the caller's input, so the refusal stays the same bytes every
 * time, whatever was sent and whichever check refused it. The HTTP edge adds
 * it to 422 bodies (src/edge/registryHints.ts); a session's refused frame and
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
