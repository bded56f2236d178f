import { availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';

/** The scheduler's settings, clock, stats and refusal (src/platform/scheduler.ts), and the settings' defaults and parsing. */
export interface SchedulerSettings {
  /** Segments holding a slot at once, all tenants together. */
  inFlight: number;
  /** Units started and not settled, all tenants together (default four times `inFlight`). */
  maxOpen?: number;
  /** Units one tenant may have waiting to start; past it, `SchedulerFull`. */
  queuePerTenant: number;
  /** A tenant's weight (default 1): a weight of 3 gets three times the share of a weight of 1. */
  weights?: ReadonlyMap<string, number>;
  /** A segment that held its slot this long lets its unit go (default 250 ms, checked by a sweep every quarter of it); Infinity: never. */
  leaseMs?: number;
  /**
   * What a turn adds to a tenant's deficit, times its weight, in CPU ms (default 1). Small, so that a
   * round is short: a segment costlier than it waits a few rounds for its deficit, while other tenants
   * are served in them.
   */
  quantumMs?: number;
  /** What a kind's segment is assumed to cost before its first is measured, in CPU ms (default 1). */
  initialCostMs?: number;
  /** Weight of the newest measurement in its kind's moving average (default 0.2). */
  smoothing?: number;
}

/** Time, injected: CPU milliseconds for costs, a wall-clock timer for leases, and the event loop's next turn. */
export interface SchedulerClock {
  /** Milliseconds the process's thread has computed so far (the system's: the event loop's busy time). */
  cpu(): number;
  setTimer(fn: () => void, ms: number): () => void;
  /** Runs `fn` once the event loop has run what is ready now (setImmediate); none: the system's. */
  nextTurn?: (fn: () => void) => void;
}

export interface Scheduler {
  /** Runs `fn` when the tenant's turn comes; rejects with SchedulerFull when the tenant's queue is full and `whenFull` is 'refuse'. */
  run<T>(tenant: string, kind: string, fn: () => Promise<T> | T, opts?: { whenFull?: 'refuse' | 'wait' }): Promise<T>;
  /** What the scheduler holds now and what it has served (for tests, health and the bench). */
  stats(): SchedulerStats;
}

export interface SchedulerStats {
  /** Segments holding a slot. */
  inFlight: number;
  /** Units started and not settled (computing or waiting). */
  open: number;
  /** Units waiting to start. */
  queued: number;
  /** Units waiting for room in their tenant's queue. */
  parked: number;
  /** Segments of started units waiting for a slot after a wait. */
  resuming: number;
  /** Per tenant: units started and CPU ms charged. */
  served: ReadonlyMap<string, { units: number; costMs: number }>;
  /** Per kind: the moving average of its units' cost, in CPU ms. */
  costs: ReadonlyMap<string, number>;
}

/** A tenant's queue is full: the typed refusal, with when to come back. */
export class SchedulerFull extends Error {
  override name = 'SchedulerFull';
  constructor(
    readonly tenant: string,
    readonly retryAfterSeconds: number,
  ) {
    super('the tenant has too many units waiting');
  }
}

/**
 * The event loop's busy time and real timers. Busy time (wall time less the time the loop slept waiting
 * for I/O, as `performance.eventLoopUtilization` counts it) is the thread's time the tenants share, and
 * reading it costs two clock reads, where `process.cpuUsage()` is a system call summing every thread's
 * usage: read twice per segment it was 4 % of the service's time on the inquiry hot path (issue 48,
 * bench/HISTORY.md "Session of 2026-11-29 (eighteenth)").
 */
export const systemClock: SchedulerClock = {
  cpu: () => performance.now() - performance.nodeTiming.idleTime,
  setTimer: (fn, ms) => {
    const t = setTimeout(fn, ms);
    t.unref();
    return () => clearTimeout(t);
  },
  nextTurn: (fn) => void setImmediate(fn),
};

/**
 * The default in-flight bound: one segment per core (at least 2), so four
 * open units per core (maxOpen's default, four times it). One event loop
 * computes one segment at a time, and a slot held unseen goes back when the
 * loop comes round, so slots beyond one per core buy nothing. The open bound
 * is the lever: it bounds how many of a flood's units query PostgreSQL at
 * once. Measured on 2 cores (bench/HISTORY.md "The slot let go at each
 * database wait"): 32 open let the flood back in front of another tenant
 * (inquiry p99 6-10x idle), 8 open did not (2.3x), and the inquiry hot path
 * ran as fast at 8 as at 32.
 */
export const defaultInFlight = (): number => Math.max(2, availableParallelism());

/** `TAS_TENANT_WEIGHTS`: `tenantId=weight,...`; a malformed entry stops the start rather than being ignored. */
export function parseTenantWeights(text: string): Map<string, number> {
  const weights = new Map<string, number>();
  for (const entry of text.split(',').map((e) => e.trim())) {
    if (entry === '') continue;
    const match = /^([^=\s]+)=(\d+(?:\.\d+)?)$/.exec(entry);
    const weight = match ? Number(match[2]) : NaN;
    if (!match || !(weight > 0) || weight > 1000)
      throw new Error(`TAS_TENANT_WEIGHTS: '${entry}' is not tenantId=weight (0 < weight <= 1000)`);
    weights.set(match[1]!, weight);
  }
  return weights;
}
