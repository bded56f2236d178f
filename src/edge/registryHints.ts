import type { ValidationItem } from '../platform/problems.js';
import { withListing } from '../registry/index.js';

/**
 * A 422 item of an admission rule (I13, I14, I15) with where the registered
 * values are listed (src/registry/listings.ts); not a refusal by the tenant's
 * policy, which names the policy instead (the registry lists the value).
 */
export function withRegistryHint(item: ValidationItem): ValidationItem {
  if (item.policy !== undefined) return item;
  const msg = withListing(item.type, item.msg);
  return msg === item.msg ? item : { ...item, msg };
}
