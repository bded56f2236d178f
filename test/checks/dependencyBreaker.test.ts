import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createDependencyBreaker, SKIPPED } from '../../src/checks/dependencyBreaker.js';

const BREAK_MS = 200;
const live = new AbortController().signal;
const isFailure = (result: string) => result === 'down';
const answers = (result: string) => () => Promise.resolve(result);

describe('createDependencyBreaker', () => {
  // The break is the subject: a fake clock passes it, so no test waits for it.
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('opens after two failures, skips without asking while open, then lets one call try again and closes on its success', async () => {
    const breaker = createDependencyBreaker({ breakMs: BREAK_MS });
    let asked = 0;
    const answer = (result: string) => () => {
      asked += 1;
      return Promise.resolve(result);
    };
    expect(await breaker.call(answer('down'), isFailure, live)).toBe('down');
    expect(breaker.open()).toBe(false);
    expect(await breaker.call(answer('down'), isFailure, live)).toBe('down');
    expect(breaker.open()).toBe(true);

    expect(await breaker.call(answer('up'), isFailure, live)).toBe(SKIPPED);
    expect(asked).toBe(2);

    await vi.advanceTimersByTimeAsync(BREAK_MS - 1);
    expect(breaker.open()).toBe(true);
    await vi.advanceTimersByTimeAsync(1);
    expect(breaker.open()).toBe(false);
    expect(await breaker.call(answer('up'), isFailure, live)).toBe('up');
    expect(asked).toBe(3);
    expect(await breaker.call(answer('up'), isFailure, live)).toBe('up');
  });

  it('tells its listener when it opens and when the dependency answers again', async () => {
    const told: string[] = [];
    const breaker = createDependencyBreaker({ breakMs: BREAK_MS, onChange: (state) => told.push(state) });
    await breaker.call(answers('down'), isFailure, live);
    expect(told).toEqual([]);
    await breaker.call(answers('down'), isFailure, live);
    expect(told).toEqual(['open']);
    await vi.advanceTimersByTimeAsync(BREAK_MS);
    await breaker.call(answers('up'), isFailure, live);
    expect(told).toEqual(['open', 'closed']);
  });

  it('a failed try after the break opens it again at once', async () => {
    const breaker = createDependencyBreaker({ breakMs: BREAK_MS });
    await breaker.call(answers('down'), isFailure, live);
    await breaker.call(answers('down'), isFailure, live);
    await vi.advanceTimersByTimeAsync(BREAK_MS);
    expect(await breaker.call(answers('down'), isFailure, live)).toBe('down');
    expect(breaker.open()).toBe(true);
  });

  it('does not count a failure the caller caused by giving up (its deadline passed)', async () => {
    const breaker = createDependencyBreaker({ breakMs: BREAK_MS });
    const gaveUp = new AbortController();
    gaveUp.abort();
    for (let i = 0; i < 3; i += 1) expect(await breaker.call(answers('down'), isFailure, gaveUp.signal)).toBe('down');
    expect(breaker.open()).toBe(false);
  });

  it('answers are not failures: successes keep it closed', async () => {
    const breaker = createDependencyBreaker({ breakMs: BREAK_MS });
    for (let i = 0; i < 5; i += 1) await breaker.call(answers('no such domain'), isFailure, live);
    expect(breaker.open()).toBe(false);
  });
});
