/**
 * The published retry schedule of webhook deliveries. It follows the example
 * schedule of the Standard Webhooks specification, so receivers built for any
 * Standard Webhooks sender already expect it: the first attempt at once,
 * then after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h, eight attempts over
 * about a day and a quarter. Short early steps ride out a deploy or a blip;
 * long late ones let an operator fix a broken receiver before we give up.
 *
 * Each retry waits up to `jitter` longer, at random, so that when a receiver
 * comes back the deliveries queued for it do not all arrive in the same
 * second. A receiver's `Retry-After` is honoured when it asks for longer than
 * the schedule would wait, up to `maxRetryAfterMs`, so that a receiver cannot
 * park a delivery for ever.
 */
export interface RetrySchedule {
  /** Delay before each attempt, the first included; its length is the number of attempts. */
  delaysMs: readonly number[];
  /** Fraction (0..1) by which a retry may wait longer than its step, at random. */
  jitter: number;
  /** The longest `Retry-After` honoured. */
  maxRetryAfterMs: number;
}

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

export const STANDARD_RETRY_SCHEDULE: RetrySchedule = Object.freeze({
  delaysMs: Object.freeze([0, 5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR]),
  // A tenth spreads a backlog over minutes at the long steps without blurring the published schedule.
  jitter: 0.1,
  // As long as the longest step: asking for more would be asking us to give up.
  maxRetryAfterMs: 10 * HOUR,
});

export function assertSchedule(s: RetrySchedule): RetrySchedule {
  if (s.delaysMs.length < 1 || s.delaysMs.some((d) => !Number.isFinite(d) || d < 0))
    throw new Error('retry schedule needs at least one non-negative delay');
  if (!(s.jitter >= 0 && s.jitter <= 1)) throw new Error('retry schedule jitter must be between 0 and 1');
  if (!(s.maxRetryAfterMs >= 0)) throw new Error('retry schedule maxRetryAfterMs must be non-negative');
  return s;
}

export function attemptsOf(s: RetrySchedule): number {
  return s.delaysMs.length;
}

/**
 * How long to wait after attempt `attemptsMade` (1-based) failed, or null
 * when that was the last attempt of the schedule.
 */
export function nextDelayMs(
  s: RetrySchedule,
  attemptsMade: number,
  retryAfterMs: number | null,
  random: () => number = Math.random,
): number | null {
  const step = s.delaysMs[attemptsMade];
  if (step === undefined) return null;
  const jittered = Math.round(step * (1 + s.jitter * random()));
  const asked = retryAfterMs === null ? 0 : Math.min(retryAfterMs, s.maxRetryAfterMs);
  return Math.max(jittered, asked);
}

/** `Retry-After` as milliseconds from now: delay-seconds or an HTTP date; null when absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined, nowMs: number): number | null {
  if (!value) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number.parseInt(trimmed, 10) * SECOND;
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return null;
  return Math.max(0, at - nowMs);
}
