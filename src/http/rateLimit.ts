import type { Redis } from 'ioredis';

/**
 * Per-key rate limit in Redis, shared by every edge process: a fixed
 * one-second window counted with one atomic script call. A window allows
 * `perSecond` calls; the answer says how long to wait when over.
 */
const SCRIPT = `
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], 2000) end
return n`;

export interface RateLimiter {
  /** Returns null when allowed, or the seconds to wait. Throws when Redis cannot answer. */
  take(keyId: string): Promise<number | null>;
}

export function createRateLimiter(deps: { redis: Redis; prefix: string; perSecond: number; now?: () => number }): RateLimiter {
  const now = deps.now ?? Date.now;
  return {
    async take(keyId) {
      const t = now();
      const window = Math.floor(t / 1000);
      const count = (await deps.redis.eval(SCRIPT, 1, `${deps.prefix}:rl:${keyId}:${window}`)) as number;
      if (count <= deps.perSecond) return null;
      return Math.max(1, Math.ceil(((window + 1) * 1000 - t) / 1000));
    },
  };
}
