import { sha256 } from './digest.js';
import { ServiceProblem, ValidationFailure } from './problems.js';

/**
 * The one idempotency rule set (docs/design-decisions.md, "One idempotency
 * mechanism"), used by POST /v1/inquiries's `idempotency_key` (claimed inside
 * the transaction that opens the inquiry, src/inquiries/idempotency.ts) and by
 * the `Idempotency-Key` header of the other creating POSTs (claimed before the
 * handler runs, src/edge/replay.ts). Both hash the request the same way, judge
 * a clash the same way and use the same in-flight window; only where the claim
 * is stored differs, because the inquiry's claim commits with its inquiry.
 *
 * Glossary: a *claim* is the stored key with the hash of the request that
 * took it; it is *answered* once the first call's answer is kept; an
 * unanswered claim older than the window was *abandoned* by a caller that died.
 */

// The longest a first call can still be running: an inquiry's deadline is at
// most 30 s (stake.deadline_ms), a case expansion runs one, and a loaded node
// adds its queueing. A shorter window would let a retry run a call twice while
// the first is merely slow; a longer one keeps a retry after a crash at 409.
export const IN_FLIGHT_WINDOW_MS = 60_000;

/** JSON with object keys sorted, so two equal requests hash alike whatever their key order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * The hash a key is held to: the parts of the request as sent (the body; the
 * path and query too for the header) and the calling key's scopes, so a stored
 * answer replays only to a key that could have asked for it (issue 40).
 */
export function requestHash(parts: Record<string, unknown>, scopes: ReadonlySet<string>): string {
  return sha256(canonicalJson({ ...parts, scopes: [...scopes].sort() }));
}

export interface StoredClaim {
  hash: string;
  answered: boolean;
  ageMs: number;
}

export type ClashVerdict = 'replay' | 'abandoned';

/**
 * What a call that found its key already claimed gets: the kept answer
 * (`replay`), the claim to take over (`abandoned`), 409 while the first call
 * may still be running, or 422 I17 for another request or other scopes.
 * `loc` names where the key came from (the body's field or the header).
 */
export function judgeClash(claim: StoredClaim, hash: string, loc: (string | number)[]): ClashVerdict {
  if (claim.hash !== hash) {
    throw ValidationFailure.rule(
      'I17',
      loc,
      'This idempotency key was used with a different request, or by a key with other scopes (rule I17).',
    );
  }
  if (claim.answered) return 'replay';
  if (claim.ageMs < IN_FLIGHT_WINDOW_MS) {
    throw new ServiceProblem(
      'conflict',
      'A request with this idempotency key is still being answered; retry shortly.',
      {},
      { 'Retry-After': '1' },
    );
  }
  return 'abandoned';
}
