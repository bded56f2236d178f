import type { DatabasePool, DriverFactory } from 'slonik';
import { yieldDuring } from '../unitContext.js';

/**
 * Every wait on PostgreSQL lets the running unit's scheduler slot go (issue
 * 48, src/platform/scheduler.ts): a unit is what the event loop does for one
 * tenant between two waits, and a slot held across a query's round trip is a
 * slot no other tenant can compute in. Two places cover every wait of the
 * slonik pool: the driver's `query` (each statement, in a transaction or not)
 * and the pool's own methods (which also wait for a free connection, in
 * slonik's first-come queue). Nested waits are fine: the outer lets the slot
 * go, the inner takes it back when its answer is in, so the code between
 * statements of a transaction runs in its tenant's turn. Outside a unit both
 * are plain awaits.
 */
export function yieldingDriverFactory(inner: DriverFactory): DriverFactory {
  return async (setup) => {
    const driver = await inner(setup);
    return {
      ...driver,
      createClient: async () => {
        const client = await driver.createClient();
        const query = client.query;
        return Object.assign(client, { query: (text: string, values?: unknown[]) => yieldDuring(query(text, values)) });
      },
    };
  };
}

// The pool's methods that wait for a connection and a statement; `stream` hands rows to a callback and is left alone.
const WAITING_METHODS = new Set([
  'any',
  'anyFirst',
  'connect',
  'exists',
  'many',
  'manyFirst',
  'maybeOne',
  'maybeOneFirst',
  'one',
  'oneFirst',
  'query',
  'transaction',
]);

export function yieldingPool(pool: DatabasePool): DatabasePool {
  return new Proxy(pool, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof property !== 'string' || !WAITING_METHODS.has(property) || typeof value !== 'function') return value;
      return (...args: unknown[]) => yieldDuring(Promise.resolve((value as (...a: unknown[]) => unknown).apply(target, args)));
    },
  });
}
