import type { Db } from '../../src/platform/db/pool.js';

export interface CountingDb {
  /** The real pool, with `method` counted and, while held, its answers kept back. */
  db: Db;
  /** Calls of the method so far (counted as they start). */
  calls(): number;
  /** Calls that have had their answer from PostgreSQL (counted before any hold). */
  answered(): number;
  /** Keeps the answers of calls made from now on until the returned function is called. */
  hold(): () => void;
}

/**
 * Wraps one method of a real pool, for tests of caches in front of it: how
 * often they reach PostgreSQL, and what they keep when an answer arrives late.
 */
export function countingDb(pool: Db, method: 'transaction' | 'maybeOne'): CountingDb {
  let calls = 0;
  let answered = 0;
  let gate: Promise<void> | null = null;
  const counted = new Proxy(pool, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (property !== method || typeof value !== 'function') return value;
      return async (...args: unknown[]) => {
        calls += 1;
        const held = gate;
        const answer = await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        answered += 1;
        if (held) await held;
        return answer;
      };
    },
  });
  return {
    db: counted,
    calls: () => calls,
    answered: () => answered,
    hold() {
      let open!: () => void;
      gate = new Promise<void>((resolve) => (open = resolve));
      return () => {
        gate = null;
        open();
      };
    },
  };
}
