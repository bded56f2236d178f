import { describe, expect, it, vi } from 'vitest';
import { createMarkBatcher } from '../../actors/markBatcher.js';

/** A marker whose statements finish only when the test says so, recording what each one carried. */
function gatedMarker() {
  const calls: number[][] = [];
  const gates: Array<{ open: () => void; fail: (err: Error) => void }> = [];
  const markAll = (ids: readonly number[]) =>
    new Promise<void>((resolve, reject) => {
      calls.push([...ids]);
      gates.push({ open: resolve, fail: reject });
    });
  return { calls, gates, markAll };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('outbox mark batcher', () => {
  it('marks the first ids at once and groups those that arrive while it runs into the next statement', async () => {
    const m = gatedMarker();
    const batcher = createMarkBatcher(m.markAll);
    const first = batcher.mark([1]);
    const second = batcher.mark([2, 3]);
    const third = batcher.mark([4]);
    await settle();
    expect(m.calls).toEqual([[1]]);
    m.gates[0]!.open();
    await first;
    await settle();
    expect(m.calls).toEqual([[1], [2, 3, 4]]);
    m.gates[1]!.open();
    await Promise.all([second, third]);
    await batcher.drain();
    expect(m.calls).toHaveLength(2);
  });

  it('a failed statement rejects only the callers it carried; the next group still goes', async () => {
    const m = gatedMarker();
    const batcher = createMarkBatcher(m.markAll);
    const first = batcher.mark([1]);
    const second = batcher.mark([2]);
    await settle();
    m.gates[0]!.fail(new Error('connection lost'));
    await expect(first).rejects.toThrow('connection lost');
    await settle();
    expect(m.calls).toEqual([[1], [2]]);
    m.gates[1]!.open();
    await expect(second).resolves.toBeUndefined();
  });

  it('drain waits for the statement in flight; nothing to mark costs no statement', async () => {
    const m = gatedMarker();
    const batcher = createMarkBatcher(m.markAll);
    await batcher.mark([]);
    expect(m.calls).toHaveLength(0);
    const pending = batcher.mark([7]);
    let drained = false;
    const draining = batcher.drain().then(() => {
      drained = true;
    });
    await settle();
    expect(drained).toBe(false);
    m.gates[0]!.open();
    await Promise.all([pending, draining]);
    expect(drained).toBe(true);
  });

  it('with a linger, marks from separate turns of the event loop share one statement, and drain sends it at once', async () => {
    const m = gatedMarker();
    const batcher = createMarkBatcher(m.markAll, { lingerMs: 60_000 });
    const first = batcher.mark([1]);
    await settle();
    const second = batcher.mark([2, 3]);
    await settle();
    expect(m.calls).toEqual([]);
    const draining = batcher.drain();
    await settle();
    expect(m.calls).toEqual([[1, 2, 3]]);
    m.gates[0]!.open();
    await Promise.all([first, second, draining]);
    expect(m.calls).toHaveLength(1);
  });

  it('a lingering group goes by itself once the linger is over, not before', async () => {
    // The linger's timer runs on a fake clock (setImmediate stays real, for settle): no wall time is slept.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const m = gatedMarker();
      const batcher = createMarkBatcher(m.markAll, { lingerMs: 20 });
      const first = batcher.mark([1]);
      await settle();
      vi.advanceTimersByTime(19);
      await settle();
      expect(m.calls).toEqual([]);
      vi.advanceTimersByTime(1);
      await settle();
      expect(m.calls).toEqual([[1]]);
      m.gates[0]!.open();
      await first;
    } finally {
      vi.useRealTimers();
    }
  });

  it('with a linger, ids that arrive while a statement runs still go right after it, without waiting again', async () => {
    const m = gatedMarker();
    const batcher = createMarkBatcher(m.markAll, { lingerMs: 60_000 });
    const first = batcher.mark([1]);
    void batcher.drain();
    await settle();
    const second = batcher.mark([2]);
    await settle();
    expect(m.calls).toEqual([[1]]);
    m.gates[0]!.open();
    await first;
    await settle();
    expect(m.calls).toEqual([[1], [2]]);
    m.gates[1]!.open();
    await second;
  });
});
