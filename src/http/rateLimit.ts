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

type WithTake = Redis & { tasRateTake(key: string): Promise<number> };

export function createRateLimiter(deps: { redis: Redis; prefix: string; perSecond: number; now?: () => number }): RateLimiter {
  const now = deps.now ?? Date.now;
  // A defined command is sent as EVALSHA (the script's body only once per connection).
  if (!('tasRateTake' in deps.redis)) deps.redis.defineCommand('tasRateTake', { numberOfKeys: 1, lua: SCRIPT });
  const redis = deps.redis as WithTake;
  return {
    async take(keyId) {
      const t = now();
      const window = Math.floor(t / 1000);
      const count = await redis.tasRateTake(`${deps.prefix}:rl:${keyId}:${window}`);
      if (count <= deps.perSecond) return null;
      return Math.max(1, Math.ceil(((window + 1) * 1000 - t) / 1000));
    },
  };
}
