import { describe, expect, it } from 'vitest';
import { attemptsOf, nextDelayMs, parseRetryAfter, STANDARD_RETRY_SCHEDULE, type RetrySchedule } from '../../src/webhooks/schedule.js';

const S = 1000;
const M = 60 * S;
const H = 60 * M;
const noJitter = () => 0;

describe('the published schedule', () => {
  it('given the standard schedule, then eight attempts: now, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h', () => {
    expect(attemptsOf(STANDARD_RETRY_SCHEDULE)).toBe(8);
    const waits = Array.from({ length: 8 }, (_, i) => nextDelayMs(STANDARD_RETRY_SCHEDULE, i + 1, null, noJitter));
    expect(waits).toEqual([5 * S, 5 * M, 30 * M, 2 * H, 5 * H, 10 * H, 10 * H, null]);
  });

  it('given jitter, then a retry waits at least its step and at most a tenth longer', () => {
    expect(nextDelayMs(STANDARD_RETRY_SCHEDULE, 2, null, () => 0)).toBe(5 * M);
    expect(nextDelayMs(STANDARD_RETRY_SCHEDULE, 2, null, () => 0.999_999)).toBe(Math.round(5 * M * 1.099_999_9));
  });
});

describe('Retry-After', () => {
  const ms: RetrySchedule = { delaysMs: [0, 20, 40], jitter: 0, maxRetryAfterMs: 5 * S };
  it.each([
    ['no header', null, 20],
    ['shorter than the step', 0, 20],
    ['longer than the step', 2 * S, 2 * S],
    ['longer than the cap', 60 * S, 5 * S],
  ])('given %s, then the wait is the longer of the two, capped', (_name, retryAfter, expected) => {
    expect(nextDelayMs(ms, 1, retryAfter, noJitter)).toBe(expected);
  });

  it('given the last attempt failed, then there is no next one whatever the receiver asks', () => {
    expect(nextDelayMs(ms, 3, 1000, noJitter)).toBeNull();
  });

  const now = Date.parse('2025-01-01T00:00:00Z');
  it.each([
    ['120', 120 * S],
    [' 3 ', 3 * S],
    ['Wed, 01 Jan 2025 00:00:30 GMT', 30 * S],
    ['Tue, 31 Dec 2024 23:00:00 GMT', 0],
    ['soon', null],
    ['', null],
    [null, null],
  ])('given Retry-After %j, then %j ms', (value, expected) => {
    expect(parseRetryAfter(value, now)).toBe(expected);
  });
});
