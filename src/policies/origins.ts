import type { GrantScope } from '../registry/index.js';
import type { PolicyCache } from './cache.js';

/**
 * Rule O01: a browser page may call with a tenant's key only from an origin
 * the tenant's current policy lists (allowed_origins; none by default). The
 * edge asks this through the root, and never reads a policy itself.
 */
export async function originAllowed(policies: PolicyCache, scope: GrantScope, origin: string): Promise<boolean> {
  return (await policies.current(scope))?.body.allowed_origins?.includes(origin) ?? false;
}
