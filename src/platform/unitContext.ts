import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The unit of work the running code belongs to (issue 48), carried through
 * its awaits by AsyncLocalStorage, so that the database layer can let the
 * scheduler's slot go while it waits without any capability passing the unit
 * along. Outside a unit (a worker's loop, a migration, a test) waiting is
 * just waiting.
 */
export interface RunningUnit {
  /** Lets the unit's slot go while `waiting` is pending, and takes one again (its tenant's turn) before going on. */
  yieldDuring<T>(waiting: Promise<T>): Promise<T>;
  /** Whether the unit is still the scheduler's to pace (not settled, not let go at its lease). */
  readonly scheduled: boolean;
  readonly scheduler: object;
}

const current = new AsyncLocalStorage<RunningUnit>();

/** Runs `fn` as `unit`'s code: every await below it knows the unit. */
export function runAsUnit<T>(unit: RunningUnit, fn: () => T): T {
  return current.run(unit, fn);
}

/** The unit the running code belongs to, if it is still scheduled. */
export function currentUnit(): RunningUnit | undefined {
  const unit = current.getStore();
  return unit?.scheduled ? unit : undefined;
}

/**
 * Awaits the database (or the network) on behalf of whatever unit is running:
 * its slot goes to the next turn meanwhile. Outside a unit, `waiting` itself.
 */
export function yieldDuring<T>(waiting: Promise<T>): Promise<T> {
  const unit = currentUnit();
  return unit ? unit.yieldDuring(waiting) : waiting;
}
