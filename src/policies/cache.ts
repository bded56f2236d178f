import { currentPolicy } from './store.js';
import { withTenant, type Db, type Mode } from '../platform/db/pool.js';
import { createTtlCache, parseScopeKey, scopeKey, type GrantScope } from '../registry/index.js';
import type { PolicyBody } from './evaluate.js';

/**
 * The current policy per tenant and mode, for the inquiry hot path.
 *
 * Why at most one second: a tenant that publishes a stricter policy (a
 * purpose withdrawn, a label threshold raised) expects it to hold at once.
 * The publishing process calls `invalidate` after commit, so it applies the
 * new version on its next call; every other edge process has no invalidation
 * channel and keeps the old version for at most the TTL. One second saves the
 * database a query on nearly every call at thousands of calls a second while
 * keeping that window shorter than any human notices. Whatever version was
 * applied is named in the label, so a call inside the window stays traceable.
 */
export const MAX_POLICY_TTL_MS = 1000;

export interface CurrentPolicy {
  version: number;
  body: PolicyBody;
}

export interface PolicyCache {
  /** The current policy, or null before the tenant's first publication. */
  current(scope: GrantScope): Promise<CurrentPolicy | null>;
  invalidate(tenantId: string, mode: Mode): void;
}

export function createPolicyCache(deps: { db: Db; ttlMs: number; now?: () => number }): PolicyCache {
  const ttlMs = Math.min(Math.max(deps.ttlMs, 0), MAX_POLICY_TTL_MS);
  const cache = createTtlCache<CurrentPolicy | null>(
    async (key) => {
      const row = await withTenant(deps.db, parseScopeKey(key), (tx) => currentPolicy(tx));
      return row === null ? null : { version: row.version, body: row.body };
    },
    { ttlMs, ...(deps.now ? { now: deps.now } : {}) },
  );
  return {
    current: (scope) => cache.get(scopeKey(scope.tenantId, scope.mode)),
    invalidate: (tenantId, mode) => cache.invalidate(scopeKey(tenantId, mode)),
  };
}
