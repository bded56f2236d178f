import { availableParallelism } from 'node:os';

/**
 * One scheduler per process, fair across tenants (issue 48, DESIGN.md section 3).
 *
 * Glossary:
 * - unit: what the event loop does for one tenant between two waits, run as
 *   `run(tenant, kind, fn)`: an HTTP request's handling, a session frame.
 * - kind: the name a unit's cost is learnt under (`http:createInquiry`, `frame`).
 * - cost: CPU milliseconds. The process's CPU time (`cpu()`) is split evenly
 *   among the units holding a slot while it is spent, and each kind keeps the
 *   moving average of its units' costs.
 * - slot: one of `inFlight` places a unit holds from its start until it
 *   settles, or until its lease ends: a unit that has held its slot
 *   `leaseMs` is waiting (on workers, a slow client, a lock), not computing,
 *   and lets the next unit in while it goes on.
 *
 * Units wait in per-tenant queues served by deficit round robin: at the start
 * of its turn a tenant's deficit grows by one quantum times its weight, and it
 * starts units while their estimated cost fits; a unit's real cost corrects the
 * deficit when it settles. A tenant's share is therefore of the process's time,
 * not of its unit count. A full queue refuses (`SchedulerFull`, with the
 * seconds the tenant's queue needs at its share) or, for callers that pace
 * rather than refuse (a session's frames), parks the unit until the queue has
 * room; parked units are bounded by their callers (one frame per socket).
 */
export interface SchedulerSettings {
  /** Units holding a slot at once, all tenants together. */
  inFlight: number;
  /** Units one tenant may have waiting for a slot; past it, `SchedulerFull`. */
  queuePerTenant: number;
  /** A tenant's weight (default 1): a weight of 3 gets three times the share of a weight of 1. */
  weights?: ReadonlyMap<string, number>;
  /** A unit that held its slot this long lets it go (default 250 ms); Infinity: never. */
  leaseMs?: number;
  /**
   * What a turn adds to a tenant's deficit, times its weight, in CPU ms (default 1). Small, so that a
   * round is short: a unit costlier than it waits a few rounds for its deficit, while other tenants
   * are served in them.
   */
  quantumMs?: number;
  /** What a kind is assumed to cost before its first unit is measured, in CPU ms (default 1). */
  initialCostMs?: number;
  /** Weight of the newest unit in its kind's moving average (default 0.2). */
  smoothing?: number;
}

/** Time, injected: wall milliseconds for leases, CPU milliseconds for costs, and a timer. */
export interface SchedulerClock {
  cpu(): number;
  setTimer(fn: () => void, ms: number): () => void;
}

export interface Scheduler {
  /** Runs `fn` when the tenant's turn comes; rejects with SchedulerFull when the tenant's queue is full and `whenFull` is 'refuse'. */
  run<T>(tenant: string, kind: string, fn: () => Promise<T> | T, opts?: { whenFull?: 'refuse' | 'wait' }): Promise<T>;
  /** What the scheduler holds now and what it has served (for tests, health and the bench). */
  stats(): SchedulerStats;
}

export interface SchedulerStats {
  inFlight: number;
  queued: number;
  parked: number;
  /** Per tenant: units started and CPU ms charged. */
  served: ReadonlyMap<string, { units: number; costMs: number }>;
  /** Per kind: the moving average of its cost, in CPU ms. */
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

interface Unit {
  tenant: string;
  kind: string;
  fn: () => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
  estimate: number;
  charged: number;
  holding: boolean;
  cancelLease: () => void;
}

interface TenantQueue {
  id: string;
  weight: number;
  units: Unit[];
  parked: Unit[];
  deficit: number;
  inTurn: boolean;
  active: boolean;
}

const systemClock: SchedulerClock = {
  cpu: () => {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1000;
  },
  setTimer: (fn, ms) => {
    const t = setTimeout(fn, ms);
    t.unref();
    return () => clearTimeout(t);
  },
};

const DEFAULT_LEASE_MS = 250;

export function createScheduler(settings: SchedulerSettings, clock: SchedulerClock = systemClock): Scheduler {
  const leaseMs = settings.leaseMs ?? DEFAULT_LEASE_MS;
  const quantum = settings.quantumMs ?? 1;
  const initialCost = settings.initialCostMs ?? 1;
  const smoothing = settings.smoothing ?? 0.2;
  const tenants = new Map<string, TenantQueue>();
  // Tenants with units waiting, in turn order.
  const turns: TenantQueue[] = [];
  const running = new Set<Unit>();
  const costs = new Map<string, number>();
  const served = new Map<string, { units: number; costMs: number }>();
  let lastCpu = clock.cpu();
  let queued = 0;
  let parked = 0;
  let pumping = false;

  const estimate = (kind: string) => costs.get(kind) ?? initialCost;

  function tenantOf(id: string): TenantQueue {
    let t = tenants.get(id);
    if (!t) {
      t = { id, weight: settings.weights?.get(id) ?? 1, units: [], parked: [], deficit: 0, inTurn: false, active: false };
      tenants.set(id, t);
    }
    return t;
  }

  /** The CPU spent since the last look, split evenly among the units holding a slot. */
  function charge(): void {
    const now = clock.cpu();
    const spent = now - lastCpu;
    lastCpu = now;
    if (running.size === 0 || spent <= 0) return;
    const each = spent / running.size;
    for (const u of running) u.charged += each;
  }

  function retryAfter(t: TenantQueue): number {
    let waiting = 0;
    for (const u of t.units) waiting += estimate(u.kind);
    let weights = t.active ? 0 : t.weight;
    for (const other of turns) weights += other.weight;
    const share = t.weight / weights;
    // One event loop serves one CPU ms per ms; the tenant gets its share of it.
    return Math.max(1, Math.ceil(waiting / share / 1000));
  }

  function enqueue(t: TenantQueue, u: Unit): void {
    t.units.push(u);
    queued += 1;
    if (!t.active) {
      t.active = true;
      turns.push(t);
    }
  }

  function start(t: TenantQueue, u: Unit): void {
    queued -= 1;
    const next = t.parked.shift();
    if (next) {
      parked -= 1;
      t.units.push(next);
      queued += 1;
    }
    charge();
    u.holding = true;
    running.add(u);
    const tally = served.get(t.id) ?? { units: 0, costMs: 0 };
    tally.units += 1;
    served.set(t.id, tally);
    if (Number.isFinite(leaseMs)) u.cancelLease = clock.setTimer(() => release(u), leaseMs);
    let result: unknown;
    try {
      result = u.fn();
    } catch (error) {
      release(u);
      u.reject(error);
      return;
    }
    Promise.resolve(result).then(
      (value) => {
        release(u);
        u.resolve(value);
      },
      (error: unknown) => {
        release(u);
        u.reject(error);
      },
    );
  }

  /** The unit settled or its lease ended: its cost is learnt and its slot goes to the next turn. */
  function release(u: Unit): void {
    if (!u.holding) return;
    charge();
    u.holding = false;
    u.cancelLease();
    running.delete(u);
    const previous = costs.get(u.kind);
    costs.set(u.kind, previous === undefined ? u.charged : previous + smoothing * (u.charged - previous));
    served.get(u.tenant)!.costMs += u.charged;
    // Deficit round robin charges what the unit really cost, not what it was thought to.
    const t = tenants.get(u.tenant)!;
    if (t.active) t.deficit += u.estimate - u.charged;
    pump();
  }

  function pump(): void {
    // A unit that settles synchronously releases inside start(); the outer loop goes on.
    if (pumping) return;
    pumping = true;
    try {
      while (running.size < settings.inFlight && turns.length > 0) {
        const t = turns[0]!;
        if (!t.inTurn) {
          t.inTurn = true;
          t.deficit += quantum * t.weight;
        }
        const u = t.units[0]!;
        u.estimate = estimate(u.kind);
        if (u.estimate > t.deficit) {
          // Its turn is over: to the back, its deficit kept for the next.
          t.inTurn = false;
          turns.push(turns.shift()!);
          continue;
        }
        t.units.shift();
        t.deficit -= u.estimate;
        if (t.units.length === 0 && t.parked.length === 0) {
          // A tenant with nothing waiting keeps no credit (DRR): it cannot save turns for later.
          t.inTurn = false;
          t.active = false;
          t.deficit = 0;
          turns.shift();
        }
        start(t, u);
      }
    } finally {
      pumping = false;
    }
  }

  return {
    run<T>(tenant: string, kind: string, fn: () => Promise<T> | T, opts?: { whenFull?: 'refuse' | 'wait' }): Promise<T> {
      const t = tenantOf(tenant);
      return new Promise<T>((resolve, reject) => {
        const u: Unit = {
          tenant,
          kind,
          fn,
          resolve: resolve as (value: unknown) => void,
          reject,
          estimate: 0,
          charged: 0,
          holding: false,
          cancelLease: () => undefined,
        };
        if (t.units.length >= settings.queuePerTenant) {
          if (opts?.whenFull !== 'wait') return reject(new SchedulerFull(tenant, retryAfter(t)));
          t.parked.push(u);
          parked += 1;
          return;
        }
        enqueue(t, u);
        pump();
      });
    },
    stats: () => ({ inFlight: running.size, queued, parked, served, costs }),
  };
}

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

/**
 * The default in-flight bound: four units per core. One event loop computes
 * one unit at a time; the others hold their slots while they wait on the
 * database, so a few per core keep the cores busy, and every slot more is
 * ready work a flood can stack in front of another tenant's next unit (on
 * 2 cores, 16 and 32 let a flood back in front, 4 and 8 did not:
 * bench/HISTORY.md "Fair shares through one scheduler").
 */
export const defaultInFlight = (): number => Math.max(4, 4 * availableParallelism());
