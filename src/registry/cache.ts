import { listGrantedIds } from './store.js';
import { withTenant, type Db, type Mode } from '../platform/db/pool.js';

/**
 * In-process caches for the inquiry hot path, which would otherwise pay a
 * database round trip per call for facts that change only when an operator
 * or an admin acts. Nothing cached here is a source of truth: every entry
 * expires, so every edge process converges on the database within its TTL.
 */

export interface TtlCache<V> {
  get(key: string): Promise<V>;
  invalidate(key: string): void;
}

export interface TtlCacheOptions {
  ttlMs: number;
  /** Bounds memory when many tenants call one process; the oldest entry goes first. */
  maxEntries?: number;
  now?: () => number;
}

// Ten thousand tenant-and-mode pairs is far beyond one deployment's tenants.
const DEFAULT_MAX_ENTRIES = 10_000;

/**
 * A loader with a time-to-live and single flight: concurrent misses for one
 * key share one load. The promise is stored when the load starts, so an
 * `invalidate` issued after a write commits always removes a load that may
 * have read the state before it; a failed load is never cached.
 */
export function createTtlCache<V>(load: (key: string) => Promise<V>, opts: TtlCacheOptions): TtlCache<V> {
  const now = opts.now ?? Date.now;
  const maxEntries = opts.maxEntries ?? DEFAULT_MAX_ENTRIES;
  const entries = new Map<string, { value: Promise<V>; until: number }>();

  return {
    get(key) {
      const hit = entries.get(key);
      const t = now();
      if (hit && hit.until > t) return hit.value;
      if (hit) entries.delete(key);
      if (entries.size >= maxEntries) {
        const oldest = entries.keys().next();
        if (!oldest.done) entries.delete(oldest.value);
      }
      const value = load(key);
      const entry = { value, until: t + opts.ttlMs };
      entries.set(key, entry);
      value.catch(() => {
        if (entries.get(key) === entry) entries.delete(key);
      });
      return value;
    },
    invalidate(key) {
      entries.delete(key);
    },
  };
}

/** The caller's tenant and mode: a Principal satisfies it. */
export interface GrantScope {
  tenantId: string;
  mode: Mode;
}

export interface Grants {
  artifactTypes: ReadonlySet<string>;
  intents: ReadonlySet<string>;
  purposes: ReadonlySet<string>;
}

export interface RegistryCache {
  grants(scope: GrantScope): Promise<Grants>;
  invalidate(tenantId: string, mode: Mode): void;
}

export function scopeKey(tenantId: string, mode: Mode): string {
  return `${tenantId}:${mode}`;
}

export function parseScopeKey(key: string): GrantScope {
  const at = key.lastIndexOf(':');
  return { tenantId: key.slice(0, at), mode: key.slice(at + 1) as Mode };
}

/**
 * Grants change only when the operator provisions a tenant, so any short TTL
 * is safe; it bounds how long a change takes to reach every edge process.
 */
export function createRegistryCache(deps: { db: Db; ttlMs: number; now?: () => number }): RegistryCache {
  const cache = createTtlCache(
    async (key) => {
      const rows = await withTenant(deps.db, parseScopeKey(key), (tx) => listGrantedIds(tx));
      const grants = { artifactTypes: new Set<string>(), intents: new Set<string>(), purposes: new Set<string>() };
      for (const row of rows) {
        if (row.kind === 'artifact_type') grants.artifactTypes.add(row.id);
        else if (row.kind === 'intent') grants.intents.add(row.id);
        else grants.purposes.add(row.id);
      }
      return grants;
    },
    { ttlMs: deps.ttlMs, ...(deps.now ? { now: deps.now } : {}) },
  );
  return {
    grants: (scope) => cache.get(scopeKey(scope.tenantId, scope.mode)),
    invalidate: (tenantId, mode) => cache.invalidate(scopeKey(tenantId, mode)),
  };
}
