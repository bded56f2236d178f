import { vi } from 'vitest';

type Maybe<T> = T | null | undefined | false;

/**
 * Waits on an observable condition, never on a sleep: polls `check` (a row in
 * PostgreSQL, a key in Redis, a message a fixture received...) until it gives
 * a value other than null, undefined or false, and returns that value; fails
 * after `timeout` ms with `what` in the message.
 */
export async function eventually<T>(
  check: () => Maybe<T> | Promise<Maybe<T>>,
  opts: { timeout?: number; interval?: number; what?: string } = {},
): Promise<T> {
  const timeout = opts.timeout ?? 5000;
  try {
    return await vi.waitUntil(check, { timeout, interval: opts.interval ?? 25 });
  } catch (err) {
    throw new Error(`${opts.what ?? 'condition'} not met within ${timeout} ms`, { cause: err });
  }
}
