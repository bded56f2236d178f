import type { NormalisedPresentation } from '../checks/types.js';

/**
 * The values this process has seen presented lately, per tenant and mode: a
 * hint that a subject is known, so that its inquiry does not first try the
 * one call (oneCall.ts), which would score it on an empty history, find it
 * known, write nothing and leave the long way to do it all again. Only a
 * hint: tas_inquiry_open checks the truth either way, and a value another
 * process saw is simply not here. Names are left out, as everywhere a value
 * counts (a shared name makes no subject known). Bounded: the oldest value
 * is forgotten first.
 */
export interface RecentValues {
  /** Whether any of the values was presented to this process before (under the same tenant and mode). */
  anySeen(scope: Scope, presentations: readonly NormalisedPresentation[]): boolean;
  remember(scope: Scope, presentations: readonly NormalisedPresentation[]): void;
}

interface Scope {
  tenantId: string;
  mode: string;
}

// At about 150 bytes a value, 200,000 values hold 30 MB at most.
export const RECENT_VALUES_HELD = 200_000;

export function createRecentValues(limit = RECENT_VALUES_HELD): RecentValues {
  const held = new Set<string>();
  const keysOf = (scope: Scope, presentations: readonly NormalisedPresentation[]) =>
    presentations.filter((p) => p.type !== 'NAME').map((p) => `${scope.tenantId}\u0000${scope.mode}\u0000${p.type}\u0000${p.normalised}`);
  return {
    anySeen: (scope, presentations) => keysOf(scope, presentations).some((key) => held.has(key)),
    remember(scope, presentations) {
      for (const key of keysOf(scope, presentations)) {
        // Seen again: it moves to the young end, so the oldest is the one least recently presented.
        held.delete(key);
        held.add(key);
        if (held.size > limit) held.delete(held.values().next().value!);
      }
    },
  };
}
