import type { RedisClient } from './client.js';

/**
 * One Redis prefix, one database (issue 38). Every queue, limit and channel
 * of a deployment lives under TAS_REDIS_PREFIX; two deployments on one
 * prefix take each other's jobs, and each one's monitor reconciliation
 * removes the other's schedules. So the prefix belongs to the database that
 * first used it: `<prefix>:owner` holds that database's identity
 * (src/platform/db/deployment.ts), written once with SET NX at start-up and never
 * expiring. A start on another database finds a different owner: production
 * refuses to start; development starts on `<prefix>:<8 hex of its identity>`
 * beside it, bound the same way, and warns (src/platform/preflight.ts).
 */
export function prefixOwnerKey(prefix: string): string {
  return `${prefix}:owner`;
}

export type PrefixBinding = { kind: 'bound'; owner: string } | { kind: 'ours'; owner: string } | { kind: 'other'; owner: string };

/** Binds the prefix to `identity` unless a database holds it already, and says which. */
export async function bindPrefix(redis: RedisClient, prefix: string, identity: string): Promise<PrefixBinding> {
  const key = prefixOwnerKey(prefix);
  if ((await redis.set(key, identity, 'NX')) === 'OK') return { kind: 'bound', owner: identity };
  const owner = await redis.get(key);
  // Deleted between the two commands: bind again (a second race would be an operator at work).
  if (owner === null) return bindPrefix(redis, prefix, identity);
  return owner === identity ? { kind: 'ours', owner } : { kind: 'other', owner };
}

/** Who holds the prefix, without binding it (`tas doctor`). */
export async function prefixOwner(redis: RedisClient, prefix: string): Promise<string | null> {
  return redis.get(prefixOwnerKey(prefix));
}

/** What to tell an operator whose database finds the prefix held by another. */
export function prefixConflict(prefix: string, owner: string, identity: string): string {
  return (
    `the Redis prefix '${prefix}' belongs to another database (${owner}); this one is ${identity}. ` +
    `Two databases on one prefix take each other's jobs and remove each other's monitor schedules: ` +
    `set TAS_REDIS_PREFIX to a prefix of this deployment's own, or, if this database replaced that one for good ` +
    `(a restore, a new server), delete the key '${prefixOwnerKey(prefix)}' once the old deployment is stopped.`
  );
}
