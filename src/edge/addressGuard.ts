import type { RateLimiter } from './rateLimit.js';

/**
 * The limit before authentication (issues 40 and 48): calls that fail to
 * authenticate are counted in shared buckets (Redis, like the per-key limit)
 * per client address and key prefix, and per address alone at a looser rate.
 * A call whose (address, prefix) bucket or whose address's bucket is empty is
 * refused with 429 and Retry-After before any key is looked up, for as long
 * as the bucket says.
 *
 * Why two buckets: behind one address (a proxy not named as trusted, a
 * carrier's NAT) a careless client retrying a revoked key spends only its own
 * prefix's bucket, so another client's key, even one this edge never saw, is
 * still looked up; a guesser who varies the prefix on every call spends the
 * address's bucket instead, which then holds every unknown key at that
 * address (a key this edge verified lately still passes: src/auth
 * authenticate's knownGood). Calls with a good key never touch either bucket.
 * A blocked flood costs two Map look-ups per call, not a database look-up.
 * Each refused call still writes its one audit row, as SPEC requires.
 */
export interface AddressGuard {
  /** Seconds the call from this address, presenting this key prefix, must still wait, or null. */
  blocked(address: string, prefix: string): number | null;
  /** Counts a failed authentication; seconds to wait when the address or its prefix is now over its limit, else null. */
  failed(address: string, prefix: string): Promise<number | null>;
}

/** The address-wide bucket's rate, as a multiple of the rate per (address, prefix). */
export const ADDRESS_WIDE_FACTOR = 4;

/** Everything presented that is not shaped like a key (no header, another scheme, garbage) shares one prefix. */
export const NO_KEY_PREFIX = '-';

// `tas_live_` or `tas_test_` and four characters of the key id: the public prefix keys are listed by (src/auth/apiKey.ts).
const KEY_PREFIX = /^Bearer[ ]+(tas_(?:live|test)_[0-9A-Za-z]{4})/i;

/** The key prefix a call presents, from its Authorization header: public, never the secret. */
export function presentedPrefix(authorization: string | undefined): string {
  return (authorization && KEY_PREFIX.exec(authorization)?.[1]) || NO_KEY_PREFIX;
}

// Bounds each blocked map under a spoofed-source flood; expired entries go first.
const MAX_BLOCKED = 100_000;

export function createAddressGuard(deps: { perPrefix: RateLimiter; perAddress: RateLimiter; now?: () => number }): AddressGuard {
  const now = deps.now ?? Date.now;
  const byPrefix = blockList(now);
  const byAddress = blockList(now);
  const pair = (address: string, prefix: string) => `${address}|${prefix}`;
  return {
    blocked(address, prefix) {
      return byAddress.left(address) ?? byPrefix.left(pair(address, prefix));
    },
    async failed(address, prefix) {
      const [own, wide] = await Promise.all([deps.perPrefix.take(pair(address, prefix)), deps.perAddress.take(address)]);
      if (own.wait !== null) byPrefix.block(pair(address, prefix), own.wait);
      if (wide.wait !== null) byAddress.block(address, wide.wait);
      if (own.wait === null && wide.wait === null) return null;
      return Math.max(own.wait ?? 0, wide.wait ?? 0);
    },
  };
}

/** Who waits until when, in this process: a Map bounded by MAX_BLOCKED. */
function blockList(now: () => number) {
  const until = new Map<string, number>();
  return {
    left(who: string): number | null {
      const end = until.get(who);
      if (end === undefined) return null;
      const left = end - now();
      if (left > 0) return Math.ceil(left / 1000);
      until.delete(who);
      return null;
    },
    block(who: string, seconds: number): void {
      if (until.size >= MAX_BLOCKED) {
        const t = now();
        for (const [w, end] of until) if (end <= t) until.delete(w);
        if (until.size >= MAX_BLOCKED) until.clear();
      }
      until.set(who, now() + seconds * 1000);
    },
  };
}
