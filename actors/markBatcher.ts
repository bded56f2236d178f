/**
 * Marks dispatched outbox rows done (deletes them, actors/outboxStore.ts) in groups, the way the audit writer groups its
 * rows: callers arriving while a statement runs are marked together by the
 * next one. Under load many commands share one small transaction instead of
 * paying one each (issue 15: the per-command marking transaction was four of
 * an inquiry's twenty round trips).
 *
 * With `lingerMs`, a group that finds nothing in flight waits that long for
 * company before its statement goes. At a moderate rate (100 inquiries a
 * second, each alone on the event loop) no statement is ever in flight when
 * the next command marks, so without it every command paid a statement of its
 * own, with its wake-ups, in the service and in PostgreSQL (issue 37). Nobody
 * waits for a mark to answer a caller, and the sweep leaves rows younger than
 * seconds alone, so the delay costs nothing but the rows' few milliseconds
 * more in the outbox. `drain` sends a lingering group at once.
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

export interface MarkBatcherOptions {
  /** How long a group that finds no statement in flight waits for others before it goes; 0 sends it at once. */
  lingerMs?: number;
}

export function createMarkBatcher<T = number>(
  markAll: (ids: readonly T[]) => Promise<void>,
  options: MarkBatcherOptions = {},
): MarkBatcher<T> {
  const lingerMs = options.lingerMs ?? 0;
  let queued: T[] = [];
  let waiters: Waiter[] = [];
  let flushing: Promise<void> | null = null;
  let lingering: NodeJS.Timeout | null = null;

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
    if (lingering) clearTimeout(lingering);
    lingering = null;
    if (flushing) return;
    flushing = flushLoop().finally(() => {
      flushing = null;
      if (queued.length > 0) kick();
    });
  }

  /** A statement in flight already gathers the next group; otherwise the group waits `lingerMs` (or a full group goes). */
  function schedule(): void {
    if (flushing) return;
    if (lingerMs <= 0 || queued.length >= MAX_GROUP) return kick();
    lingering ??= setTimeout(kick, lingerMs);
  }

  return {
    mark(ids) {
      if (ids.length === 0) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        queued.push(...ids);
        waiters.push({ resolve, reject });
        schedule();
      });
    },
    async drain() {
      if (lingering) kick();
      while (flushing) await flushing;
    },
  };
}
