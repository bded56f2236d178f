import type { RateLimiter } from './rateLimit.js';

/**
 * The limit before authentication (issue 40): calls that fail to
 * authenticate are counted per client address in a shared bucket (Redis,
 * like the per-key limit), and an address whose bucket is empty is refused
 * with 429 and Retry-After before any key is looked up, for as long as the
 * bucket says. Calls with a good key never touch the bucket, so a busy
 * backend behind one address is not slowed; a flood of missing, malformed
 * or guessed keys costs one Map look-up per call once it is blocked, not a
 * key look-up in the database. Each refused call still writes its one
 * audit row, as SPEC requires.
 */
export interface AddressGuard {
  /** Seconds the address must still wait, or null. */
  blocked(address: string): number | null;
  /** Counts a failed authentication; seconds to wait when the address is now over its limit, else null. */
  failed(address: string): Promise<number | null>;
}

// Bounds the blocked-address map under a spoofed-source flood; expired entries go first.
const MAX_BLOCKED = 100_000;

export function createAddressGuard(deps: { limiter: RateLimiter; now?: () => number }): AddressGuard {
  const now = deps.now ?? Date.now;
  const until = new Map<string, number>();
  return {
    blocked(address) {
      const end = until.get(address);
      if (end === undefined) return null;
      const left = end - now();
      if (left > 0) return Math.ceil(left / 1000);
      until.delete(address);
      return null;
    },
    async failed(address) {
      const decision = await deps.limiter.take(address);
      if (decision.wait === null) return null;
      if (until.size >= MAX_BLOCKED) {
        const t = now();
        for (const [a, end] of until) if (end <= t) until.delete(a);
        if (until.size >= MAX_BLOCKED) until.clear();
      }
      until.set(address, now() + decision.wait * 1000);
      return decision.wait;
    },
  };
}
