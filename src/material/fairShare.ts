import type { RedisClient } from '../platform/redis/client.js';
import type { MaterialJob } from './extraction.js';

/**
 * Extraction slots shared fairly across tenants (issue 40: they were first
 * come, first served, so one tenant's 50 uploads made another's one wait for
 * all 50).
 *
 * Each tenant (and mode) keeps the set of its extractions not yet settled, in
 * the order they were asked (a sorted set in Redis, scored by time). A job
 * goes on the one material queue with its place in its own tenant's set as
 * its BullMQ priority: every tenant's first pending extraction has priority 1,
 * its second 2, and so on, so the workers take one of each tenant's in turn
 * (round robin by rank) and a tenant with one extraction waits for at most one
 * of each other tenant's. Asking again for the same material (a read that
 * finds it still `received`) keeps its place; a settled extraction leaves the
 * set. A set whose settle was lost expires a day after its last addition.
 */
export interface FairExtractionQueue {
  enqueue(job: MaterialJob): Promise<void>;
  /** The extraction finished, or the queue gave up on it: it no longer holds a place. */
  settled(job: MaterialJob): Promise<void>;
}

// BullMQ's largest priority (2^21 - 1); a tenant with more pending extractions than that waits among its own last ones.
const MAX_PRIORITY = 2_097_151;
// A day: far longer than any extraction waits, short enough that a lost settle is forgotten.
const PENDING_TTL_SECONDS = 86_400;

export function createFairExtractionQueue(deps: {
  redis: RedisClient;
  prefix: string;
  add: (job: MaterialJob, opts: { priority: number }) => Promise<void>;
  now?: () => number;
}): FairExtractionQueue {
  const now = deps.now ?? Date.now;
  // One key per tenant and mode, hash-tagged by itself so a cluster needs no cross-slot command.
  const keyOf = (job: MaterialJob) => `${deps.prefix}:material-pending:{${job.tenantId}:${job.mode}}`;
  // Milliseconds, then a counter of this process: two asked in the same millisecond keep the order they were
  // asked in (equal scores would be ranked by their ids, at random). 1.8e15 is still exact in a double.
  let asked = 0;
  const orderedScore = () => now() * 1000 + (asked++ % 1000);
  return {
    async enqueue(job) {
      const key = keyOf(job);
      const replies = await deps.redis
        .multi()
        .zadd(key, 'NX', orderedScore(), job.materialId)
        .zrank(key, job.materialId)
        .expire(key, PENDING_TTL_SECONDS)
        .exec();
      const rank = Number(replies?.[1]?.[1] ?? 0);
      await deps.add(job, { priority: Math.min(rank + 1, MAX_PRIORITY) });
    },
    async settled(job) {
      await deps.redis.zrem(keyOf(job), job.materialId);
    },
  };
}
