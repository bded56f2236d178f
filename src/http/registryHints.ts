import type { ValidationItem } from '../platform/problems.js';

/**
 * Where a refused declaration's registered values are listed (issue 38). An
 * admission refusal (I13 purpose, I14 intent, I15 artifact type) names the
 * registry endpoint that lists what the calling key may declare, never the
 * values themselves and never the caller's input: the refusal stays the same
 * bytes every time, whatever was sent and whichever check refused it. Added
 * at the edge because the endpoint is an HTTP path the capabilities do not know.
 */
const LISTED_AT: Readonly<Record<string, string>> = {
  I13: 'The purposes this key may declare are listed by GET /v1/registry/purposes.',
  I14: 'The intents this key may declare are listed by GET /v1/registry/intents.',
  I15: 'The artifact types this key may present are listed by GET /v1/registry/artifact-types.',
};

export function withRegistryHint(item: ValidationItem): ValidationItem {
  const hint = LISTED_AT[item.type];
  return hint === undefined || item.msg.includes(hint) ? item : { ...item, msg: `${item.msg} ${hint}` };
}
