import { ScoringInputError } from './scoringInputError.js';

/**
 * ISO 8601 instants, parsed without Date.parse. Date.parse is lenient in
 * engine-specific ways (V8 turns 2025-02-30 into 2 March, and treats a
 * date-time without offset as local time), which would make an age, and so a
 * score, depend on the machine. We accept only:
 *
 *   YYYY-MM-DD                                  midnight UTC
 *   YYYY-MM-DDTHH:MM[:SS[.fraction]](Z|±HH:MM)  an explicit offset is required
 *
 * Fractions beyond milliseconds are truncated (ages are measured in days).
 */
const INSTANT = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|([+-])(\d{2}):(\d{2})))?$/;

const MS_PER_MINUTE = 60_000;

function daysInMonth(year: number, month: number): number {
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] ?? 0;
}

// The last instant read and its value: one assessment reads the same few instants (its as_of, the
// inquiry's own time on every computed item) dozens of times, and the answer depends on the text alone.
let lastText: string | undefined;
let lastMillis: number | undefined;

/** Epoch milliseconds of `text`, or undefined when it is not an instant we accept. */
export function instantMillis(text: unknown): number | undefined {
  if (typeof text !== 'string') return undefined;
  if (text === lastText) return lastMillis;
  const millis = readInstant(text);
  lastText = text;
  lastMillis = millis;
  return millis;
}

function readInstant(text: string): number | undefined {
  const m = INSTANT.exec(text);
  if (!m) return undefined;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const [hour, minute, second] = [Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0)];
  const millis = Number((m[7] ?? '').padEnd(3, '0').slice(0, 3));
  const offsetSign = m[9] === '-' ? -1 : 1;
  const [offsetHours, offsetMinutes] = [Number(m[10] ?? 0), Number(m[11] ?? 0)];
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  if (hour > 23 || minute > 59 || second > 59 || offsetHours > 23 || offsetMinutes > 59) {
    return undefined;
  }
  // setUTCFullYear, unlike Date.UTC, does not map years 0..99 to 1900..1999.
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, millis);
  return date.getTime() - offsetSign * (offsetHours * 60 + offsetMinutes) * MS_PER_MINUTE;
}

export function isInstant(text: unknown): text is string {
  return instantMillis(text) !== undefined;
}

/** Epoch milliseconds of `text`; throws ScoringInputError naming `field` otherwise. */
export function parseInstant(text: unknown, field: string): number {
  const ms = instantMillis(text);
  if (ms === undefined) {
    throw new ScoringInputError(
      field,
      `must be an ISO 8601 date (YYYY-MM-DD) or date-time with Z or ±HH:MM offset, got ${JSON.stringify(text)}`,
    );
  }
  return ms;
}
