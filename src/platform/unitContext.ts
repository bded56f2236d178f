import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The unit of work the running code belongs to (issue 48), carried through
 * its awaits by AsyncLocalStorage, so that the database layer can let the
 * scheduler's slot go while it waits without any capability passing the unit
 * along. Outside a unit (a worker's loop, a migration, a test) waiting is
 * just waiting.
 */
export interface RunningUnit {
  /**
   * Lets the unit's slot go while `waiting` is pending, and takes one again (its tenant's turn) before going on.
   * `onClient`: the wait is paced by the client (an upload's next chunk, a download's drain), so it may last
   * minutes: the unit also stops counting among the units the process has open.
   */
  yieldDuring<T>(waiting: Promise<T>, onClient?: boolean): Promise<T>;
  /** Whether the unit is still the scheduler's to pace (not settled, not let go at its lease). */
  readonly scheduled: boolean;
  readonly scheduler: object;
}

/** Where a call whose tenant is not known yet finds the scheduler (see `withSchedulerScope`). */
class SchedulerScope {
  constructor(readonly scheduler: TenantScheduling) {}
}

/**
 * One storage for both, the running unit or the scheduler's scope: every promise the process creates copies
 * each enabled storage's value (Node 20's AsyncLocalStorage propagates through promise hooks), so a second
 * storage doubled that work on the hot path (issue 48). A unit's code needs no scope: `asTenantUnit` is for
 * calls that learn their tenant late, which are not yet a unit.
 */
const current = new AsyncLocalStorage<RunningUnit | SchedulerScope>();

/** Runs `fn` as `unit`'s code: every await below it knows the unit. */
export function runAsUnit<T>(unit: RunningUnit, fn: () => T): T {
  return current.run(unit, fn);
}

/** The unit the running code belongs to, if it is still scheduled. */
export function currentUnit(): RunningUnit | undefined {
  const store = current.getStore();
  return store === undefined || store instanceof SchedulerScope || !store.scheduled ? undefined : store;
}

/**
 * Awaits the database (or the network) on behalf of whatever unit is running:
 * its slot goes to the next turn meanwhile. Outside a unit, `waiting` itself.
 */
export function yieldDuring<T>(waiting: Promise<T>): Promise<T> {
  const unit = currentUnit();
  return unit ? unit.yieldDuring(waiting) : waiting;
}

/**
 * Awaits the client (an upload body's next chunk, a download's socket
 * draining) on behalf of the running unit: its slot goes to the next turn
 * meanwhile, and its next chunk is handled in its tenant's turn. A chunk
 * waiting for that turn is not read, so the body's own bound pauses the
 * client (backpressure) instead of anything buffering more.
 */
export function awaitClient<T>(waiting: Promise<T>): Promise<T> {
  const unit = currentUnit();
  return unit ? unit.yieldDuring(waiting, true) : waiting;
}

/** The process's scheduler, as far as code that learns its tenant late needs it (see `asTenantUnit`). */
export interface TenantScheduling {
  run<T>(tenant: string, kind: string, fn: () => Promise<T> | T, opts?: { whenFull?: 'refuse' | 'wait' }): Promise<T>;
}

/** Runs a call whose tenant is not known yet (an upload URL's PUT) where `asTenantUnit` can find the scheduler. */
export function withSchedulerScope<T>(scheduler: TenantScheduling, fn: () => T): T {
  return current.run(new SchedulerScope(scheduler), fn);
}

/**
 * Runs `fn` as a unit of `tenant` once the code has learnt it (an upload
 * URL's token names its tenant only when checked), paced rather than refused
 * when the tenant's queue is full. Without a scheduler in scope, `fn` at once.
 */
export function asTenantUnit<T>(tenant: string, kind: string, fn: () => Promise<T>): Promise<T> {
  const store = current.getStore();
  return store instanceof SchedulerScope ? store.scheduler.run(tenant, kind, fn, { whenFull: 'wait' }) : fn();
}
