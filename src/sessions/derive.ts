import { createHmac } from 'node:crypto';
import { normalisePresentation, normalisePresented } from '../checks/normalise.js';
import type { NormalisedPresentation, SubjectClaim } from '../checks/types.js';
import type { RetentionMode } from '../../machines/sessionMachine.js';

/**
 * The derivation boundary of a session (rule D35). Everything a frame or the
 * opening subject contributes passes through here before it reaches the
 * actor, the ledger, an event or a job, so what follows only ever holds:
 *
 * - standard retention: the presented value as given (like an inquiry: a
 *   finding's `about` is the caller's own value) and its normalised form;
 * - transient retention: derived values only. Identifying types (EMAIL,
 *   PHONE, DOMAIN, URL, IP, ACCOUNT) keep their normalised form, which is
 *   the derived value the checks and entity resolution work on; anything
 *   else (a NAME, a tenant's own type, an identifying type whose value does
 *   not normalise to an identifier) is replaced by a keyed pseudonym, since
 *   its "normalised" form is the raw text itself. A claim keeps its country
 *   and its normalised email, phone and website; a claimed name or
 *   organisation is dropped. Free text (lines, testimony summaries) never
 *   crosses this boundary at all: only its SHA-256 and what was extracted.
 */
export const IDENTIFYING_TYPES: ReadonlySet<string> = new Set(['EMAIL', 'PHONE', 'DOMAIN', 'URL', 'IP', 'ACCOUNT']);

export interface Deriver {
  retention: RetentionMode;
  /** Presented values, normalised, then derived for the retention mode. */
  presentations(presented: readonly { type: string; value: string }[], country: string | undefined): NormalisedPresentation[];
  claim(claim: SubjectClaim | null | undefined): SubjectClaim | null;
}

/**
 * Whether a normalised value is an identifier a transient session may keep:
 * an identifying type that normalised to one token (an EMAIL with an `@`).
 * EMAIL and ACCOUNT normalisers only trim and lower-case, so without this a
 * sentence sent as an EMAIL would be kept as its own "normalised" form.
 */
function isKeptIdentifier(type: string, normalised: string | null): normalised is string {
  if (normalised === null || !IDENTIFYING_TYPES.has(type) || /\s/u.test(normalised)) return false;
  return type !== 'EMAIL' || /^[^@]+@[^@]+$/u.test(normalised);
}

/**
 * `pepper` keys the pseudonyms (HMAC-SHA256), so a low-entropy value such as a
 * name cannot be recovered from a dump by hashing guesses; `tenantId` makes
 * the same name differ between tenants.
 */
export function createDeriver(retention: RetentionMode, keys: { pepper: string; tenantId: string }): Deriver {
  if (retention === 'standard') {
    return { retention, presentations: normalisePresented, claim: (c) => c ?? null };
  }
  const pseudonym = (type: string, value: string) =>
    `pseudonym:${createHmac('sha256', keys.pepper).update(`tas.session.pseudonym\u0000${keys.tenantId}\u0000${type}\u0000${value.trim()}`).digest('hex').slice(0, 32)}`;
  const normalisedOf = (type: string, value: string | undefined, country: string | undefined): string | null =>
    value === undefined ? null : (normalisePresentation(type, value, country ? { defaultCountry: country } : {})?.normalised ?? null);
  return {
    retention,
    presentations(presented, country) {
      return presented.map((p) => {
        const normalised = normalisedOf(p.type, p.value, country);
        const derived = isKeptIdentifier(p.type, normalised) ? normalised : pseudonym(p.type, p.value);
        return { type: p.type, value: derived, normalised: derived };
      });
    },
    claim(c) {
      if (!c) return null;
      const derived: SubjectClaim = {};
      if (c.country) derived.country = c.country;
      for (const [field, type] of [
        ['email', 'EMAIL'],
        ['phone', 'PHONE'],
        ['website', 'URL'],
      ] as const) {
        const normalised = normalisedOf(type, c[field], c.country);
        if (isKeptIdentifier(type, normalised)) derived[field] = normalised;
      }
      return derived;
    },
  };
}
