/**
 * Marks dispatched outbox rows done (deletes them, actors/outboxStore.ts) in groups, the way the audit writer groups its
 * rows: the first caller's ids are marked at once, and callers arriving
 * while that statement runs are marked together by the next one. Under load
 * many commands share one small transaction instead of paying one each
 * (issue 15: the per-command marking transaction was four of an inquiry's
 * twenty round trips); alone, a mark waits for nobody.
 *
 * Losing a mark is harmless by design (the relay is at least once: the sweep
 * carries an unmarked row out again and its consumers drop the repeat), which
 * is why the caller may commit marks without waiting for the WAL flush.
 */
export interface MarkBatcher<T = number> {
  /** Resolves when these rows are marked; rejects if the statement that carried them failed. */
  mark(ids: readonly T[]): Promise<void>;
  /** Waits until nothing queued or in flight remains. */
  drain(): Promise<void>;
}

interface Waiter {
  resolve: () => void;
  reject: (err: unknown) => void;
}

// One DELETE ... WHERE id = ANY($1) per group; bounded so a long backlog cannot build one huge statement.
const MAX_GROUP = 5000;

export function createMarkBatcher<T = number>(markAll: (ids: readonly T[]) => Promise<void>): MarkBatcher<T> {
  let queued: T[] = [];
  let waiters: Waiter[] = [];
  let flushing: Promise<void> | null = null;

  async function flushLoop(): Promise<void> {
    while (queued.length > 0) {
      const ids = queued;
      const group = waiters;
      queued = [];
      waiters = [];
      try {
        for (let i = 0; i < ids.length; i += MAX_GROUP) await markAll(ids.slice(i, i + MAX_GROUP));
        for (const w of group) w.resolve();
      } catch (err) {
        for (const w of group) w.reject(err);
      }
    }
  }

  function kick(): void {
    if (flushing) return;
    flushing = flushLoop().finally(() => {
      flushing = null;
      if (queued.length > 0) kick();
    });
  }

  return {
    mark(ids) {
      if (ids.length === 0) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        queued.push(...ids);
        waiters.push({ resolve, reject });
        kick();
      });
    },
    async drain() {
      while (flushing) await flushing;
    },
  };
}
