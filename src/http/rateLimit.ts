import type { Redis } from 'ioredis';

/**
 * Per-key rate limit in Redis, shared by every edge process: a fixed
 * one-second window counted with one atomic script call. A window allows
 * `perSecond` calls; the answer says how long to wait when over.
 *
 * When Redis cannot answer (down, or slower than LOOKUP_TIMEOUT_MS), the
 * limit falls back to this process's own count of the same window, and Redis
 * is not asked again for FALLBACK_MS. That is the documented, safe failure
 * (docs/design-decisions.md): every key stays limited, but per process, so
 * with N edge processes a key may make up to N times its limit while Redis is
 * away. Refusing every call instead would turn a cache outage into a full one.
 */
const SCRIPT = `
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], 2000) end
return n`;

// A healthy Redis answers in well under a millisecond; waiting longer only delays the caller.
const LOOKUP_TIMEOUT_MS = 100;
// After a failure, Redis is asked again only after this long, so an outage costs no timeouts.
const FALLBACK_MS = 1000;

export interface RateLimiter {
  /** Returns null when allowed, or the seconds to wait. Never throws: without Redis it counts locally. */
  take(keyId: string): Promise<number | null>;
  /** Whether the last decision was taken locally because Redis could not answer. */
  degraded(): boolean;
}

type WithTake = Redis & { tasRateTake(key: string): Promise<number> };

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    work,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('rate limit look-up timed out')), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/** This process's own fixed windows, keyed like Redis's; old windows are dropped as time moves on. */
function createLocalCounter() {
  let window = -1;
  let counts = new Map<string, number>();
  return (keyId: string, currentWindow: number): number => {
    if (currentWindow !== window) {
      window = currentWindow;
      counts = new Map();
    }
    const n = (counts.get(keyId) ?? 0) + 1;
    counts.set(keyId, n);
    return n;
  };
}

export function createRateLimiter(deps: { redis: Redis; prefix: string; perSecond: number; now?: () => number }): RateLimiter {
  const now = deps.now ?? Date.now;
  // A defined command is sent as EVALSHA (the script's body only once per connection).
  if (!('tasRateTake' in deps.redis)) deps.redis.defineCommand('tasRateTake', { numberOfKeys: 1, lua: SCRIPT });
  const redis = deps.redis as WithTake;
  const local = createLocalCounter();
  let localUntil = 0;

  async function count(keyId: string, window: number, t: number): Promise<number> {
    if (t >= localUntil) {
      try {
        return await withTimeout(redis.tasRateTake(`${deps.prefix}:rl:${keyId}:${window}`), LOOKUP_TIMEOUT_MS);
      } catch {
        localUntil = t + FALLBACK_MS;
      }
    }
    return local(keyId, window);
  }

  return {
    async take(keyId) {
      const t = now();
      const window = Math.floor(t / 1000);
      const n = await count(keyId, window, t);
      if (n <= deps.perSecond) return null;
      return Math.max(1, Math.ceil(((window + 1) * 1000 - t) / 1000));
    },
    degraded: () => now() < localUntil,
  };
}
