import type { RedisClient } from '../platform/redis/client.js';

/**
 * Per-key rate limit: a token bucket in Redis, shared by every edge process.
 * A key holds up to `perSecond` tokens (its burst) and gets `perSecond` back
 * each second; a call takes one. Unlike a fixed window, two windows' worth
 * can never pass at a window edge. The bucket lives in one Redis hash,
 * updated by one atomic script on Redis's own clock, so edge processes with
 * skewed clocks agree. One key per bucket and one key per script call, so
 * on a Redis Cluster each call goes to the one master owning the key's slot
 * and the buckets spread over the cluster.
 *
 * Every decision carries what the IETF RateLimit header fields
 * (draft-ietf-httpapi-ratelimit-headers) publish: the policy (quota per
 * window) and the remaining quota with the seconds until it is full again.
 *
 * When Redis cannot answer (down, or slower than LOOKUP_TIMEOUT_MS), the
 * bucket falls back to this process's own, and Redis is not asked again for
 * FALLBACK_MS. That is the documented, safe failure (docs/design-decisions.md):
 * every key stays limited, but per process, so with N edge processes a key
 * may make up to N times its limit while Redis is away.
 */
const SCRIPT = `
local now = redis.call('TIME')
local ms = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
local rate = tonumber(ARGV[1])
local state = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(state[1]) or rate
local at = tonumber(state[2]) or ms
tokens = math.min(rate, tokens + (ms - at) * rate / 1000)
local allowed = 0
if tokens >= 1 then
  tokens = tokens - 1
  allowed = 1
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', ms)
redis.call('PEXPIRE', KEYS[1], 2000)
return {allowed, tostring(tokens)}`;

// A healthy Redis answers in well under a millisecond; waiting longer only delays the caller.
const LOOKUP_TIMEOUT_MS = 100;
// After a failure, Redis is asked again only after this long, so an outage costs no timeouts.
const FALLBACK_MS = 1000;

export interface RateDecision {
  /** Null when allowed, else the whole seconds to wait (Retry-After). */
  wait: number | null;
  /** The quota: calls per one-second window, which is also the burst. */
  limit: number;
  /** Calls left now. */
  remaining: number;
  /** Seconds until the quota is full again (rounded up). */
  resetSeconds: number;
}

export interface RateLimiter {
  /** Never throws: without Redis it decides locally. */
  take(keyId: string): Promise<RateDecision>;
  /** Whether decisions are being taken locally because Redis could not answer. */
  degraded(): boolean;
}

type WithTake = RedisClient & { tasRateTake(key: string, rate: number): Promise<[number, string]> };

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    work,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('rate limit look-up timed out')), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/** This process's own buckets, the same arithmetic as the script; idle ones are dropped. */
function createLocalBuckets(rate: number, now: () => number) {
  const buckets = new Map<string, { tokens: number; at: number }>();
  return (keyId: string): { allowed: boolean; tokens: number } => {
    const t = now();
    if (buckets.size > 100_000) for (const [k, b] of buckets) if (t - b.at > 2000) buckets.delete(k);
    const b = buckets.get(keyId) ?? { tokens: rate, at: t };
    b.tokens = Math.min(rate, b.tokens + ((t - b.at) * rate) / 1000);
    b.at = t;
    const allowed = b.tokens >= 1;
    if (allowed) b.tokens -= 1;
    buckets.set(keyId, b);
    return { allowed, tokens: b.tokens };
  };
}

export function decisionOf(allowed: boolean, tokens: number, rate: number): RateDecision {
  const remaining = Math.max(0, Math.floor(tokens));
  return {
    wait: allowed ? null : Math.max(1, Math.ceil((1 - tokens) / rate)),
    limit: rate,
    remaining,
    resetSeconds: Math.max(0, Math.ceil((rate - tokens) / rate)),
  };
}

export function createRateLimiter(deps: { redis: RedisClient; prefix: string; perSecond: number; now?: () => number }): RateLimiter {
  const now = deps.now ?? Date.now;
  const rate = deps.perSecond;
  // A defined command is sent as EVALSHA (the script's body only once per connection).
  if (!('tasRateTake' in deps.redis)) deps.redis.defineCommand('tasRateTake', { numberOfKeys: 1, lua: SCRIPT });
  const redis = deps.redis as WithTake;
  const local = createLocalBuckets(rate, now);
  let localUntil = 0;

  return {
    async take(keyId) {
      const t = now();
      if (t >= localUntil) {
        try {
          const [allowed, tokens] = await withTimeout(redis.tasRateTake(`${deps.prefix}:rb:${keyId}`, rate), LOOKUP_TIMEOUT_MS);
          return decisionOf(allowed === 1, Number(tokens), rate);
        } catch {
          localUntil = t + FALLBACK_MS;
        }
      }
      const { allowed, tokens } = local(keyId);
      return decisionOf(allowed, tokens, rate);
    },
    degraded: () => now() < localUntil,
  };
}

/** The IETF RateLimit header fields for a decision (one policy: the key's per-second quota). */
export function rateLimitHeaders(d: RateDecision): Record<string, string> {
  return {
    'RateLimit-Policy': `"per-key";q=${d.limit};w=1`,
    RateLimit: `"per-key";r=${d.remaining};t=${d.resetSeconds}`,
  };
}
