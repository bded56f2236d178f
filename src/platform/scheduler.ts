import { createDrr } from './drr.js';
import { SchedulerFull, systemClock, type Scheduler, type SchedulerClock, type SchedulerSettings } from './schedulerSettings.js';
import { currentUnit, runAsUnit, type RunningUnit } from './unitContext.js';

export * from './schedulerSettings.js';

/**
 * One scheduler per process, fair across tenants (issue 48, DESIGN.md section 3).
 *
 * Glossary:
 * - unit: one piece of a tenant's work, run as `run(tenant, kind, fn)`: an
 *   HTTP request's handling, a session frame, a job's step.
 * - segment: what the event loop does for a unit between two waits. A unit
 *   that awaits the database through `yieldDuring` (src/platform/unitContext.ts;
 *   the db layer does it for every query) lets its slot go while it waits and
 *   queues for one again when the answer is in: its next segment takes its
 *   tenant's turn like any other, ahead of the tenant's units not yet started.
 * - kind: the name costs are learnt under (`http:createInquiry`, `frame`).
 * - cost: CPU milliseconds, the event loop's busy time (`cpu()`), split evenly
 *   among the segments holding a slot while it is spent; each kind keeps the
 *   moving average of its segments' and of its units' costs.
 * - slot: one of `inFlight` places a segment holds while it computes. One
 *   thread computes one segment at a time, so a segment still holding its
 *   slot when the event loop comes round (its check phase) is not computing
 *   but waiting on something the scheduler cannot see (Redis, a worker's
 *   answer, a batch another unit writes): its slot is given back then, with
 *   work waiting, or a unit waiting on such a batch could hold every slot the
 *   batch's own next segment needs. A unit whose segment began `leaseMs` ago
 *   (checked by one periodic sweep) and has neither waited visibly nor settled
 *   is let go for good: it runs on unscheduled and leaves the open count.
 * - a slot free with nothing waiting for one is taken at once, without the
 *   rotations: they would pick the one asking anyway (the hot path's fast path).
 * - open: units started and not yet settled, at most `maxOpen`: the bound on
 *   what the process has begun, so that a flood cannot start all its queued
 *   units at once and stack their queries in the database pool's first-come
 *   queue in front of another tenant's. A unit that waits on its client
 *   (`awaitClient`: an upload's next chunk, a download's drain) leaves the
 *   count: it may last minutes, and its chunks still take their turns.
 *
 * Two rotations of deficit round robin (src/platform/drr.ts) across tenants,
 * so a tenant's share is of the process's time, not of its unit count:
 * segments back from a wait, by a segment's cost and served first, and units
 * starting, by a whole unit's cost, whenever an open place is free. A full queue refuses (`SchedulerFull`, with the seconds the tenant's
 * queue needs at its share) or, for callers that pace rather than refuse (a
 * session's frames), parks the unit until the queue has room; parked units
 * are bounded by their callers (one frame per socket).
 */

interface Unit extends RunningUnit {
  tenant: string;
  kind: string;
  fn: () => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
  /** The running segment's estimate and the unit's charge when it began; the whole unit's estimate when it started. */
  estimate: number;
  unitEstimate: number;
  segmentStart: number;
  charged: number;
  holding: boolean;
  /** Whether the running segment came from the resuming rotation (its cost corrects that rotation's deficit). */
  resumed: boolean;
  open: boolean;
  settled: boolean;
  detached: boolean;
  resumeQueued: boolean;
  /** Continuations waiting for the unit's next slot. */
  waiters: (() => void)[];
  /** The lease sweep's tick its running segment began in (see `sweepLeases`). */
  leaseTick: number;
}

const DEFAULT_LEASE_MS = 250;
/**
 * The lease is checked by one sweep every `leaseMs / LEASE_TICKS` while a segment runs, not by a timer per
 * segment (a timer set and cleared at every database wait was measurable on the hot path, issue 48): a
 * segment is let go after between `leaseMs` and `leaseMs` plus one tick.
 */
const LEASE_TICKS = 4;

export function createScheduler(settings: SchedulerSettings, clock: SchedulerClock = systemClock): Scheduler {
  const leaseMs = settings.leaseMs ?? DEFAULT_LEASE_MS;
  const maxOpen = settings.maxOpen ?? 4 * settings.inFlight;
  const initialCost = settings.initialCostMs ?? 1;
  const smoothing = settings.smoothing ?? 0.2;
  const segmentCosts = new Map<string, number>();
  const costs = new Map<string, number>();
  const served = new Map<string, { units: number; costMs: number }>();
  const estimate = (kind: string) => segmentCosts.get(kind) ?? initialCost;
  const unitEstimate = (kind: string) => costs.get(kind) ?? estimate(kind);
  const weightOf = (tenant: string) => settings.weights?.get(tenant) ?? 1;
  const quantum = settings.quantumMs ?? 1;
  // Two rotations, each fair by cost: units not yet started, and segments of started units back from a wait,
  // served first. Apart, so that a tenant whose turn to start a unit came while every open place was taken
  // has lost nothing when a place frees: one rotation, shared with the resumes, handed each freed place to
  // whichever tenant's turn it was then, which under a flood was the flood's (test/http/fairFlood.test.ts).
  // A unit starts by the cost of a whole unit of its kind (starting takes an open place for all its segments);
  // a segment resumes by the cost of a segment.
  const drr = createDrr<Unit>({ weightOf, quantum, estimate: (u) => unitEstimate(u.kind) });
  const resumes = createDrr<Unit>({ weightOf, quantum, estimate: (u) => estimate(u.kind) });
  const parked = new Map<string, Unit[]>();
  const running = new Set<Unit>();
  // Segments whose lease runs: begun and not yet ended visibly (a wait, the unit settled). A segment let go at
  // the loop's turn check stays here: its unit may be computing nothing for good.
  const leased = new Set<Unit>();
  const self = {};
  let lastCpu = clock.cpu();
  let open = 0;
  let queued = 0;
  let parkedCount = 0;
  let resuming = 0;
  let pumping = false;
  let turnCheckArmed = false;
  let leaseTick = 0;
  let sweepArmed = false;
  const nextTurn = clock.nextTurn ?? ((fn: () => void) => void setImmediate(fn));

  const learn = (table: Map<string, number>, kind: string, cost: number) => {
    const previous = table.get(kind);
    table.set(kind, previous === undefined ? cost : previous + smoothing * (cost - previous));
  };

  /** The CPU spent since the last look, split evenly among the segments holding a slot. */
  function charge(): void {
    const now = clock.cpu();
    const spent = now - lastCpu;
    lastCpu = now;
    if (running.size === 0 || spent <= 0) return;
    const each = spent / running.size;
    for (const u of running) u.charged += each;
  }

  function hold(u: Unit): void {
    charge();
    u.holding = true;
    u.estimate = estimate(u.kind);
    u.segmentStart = u.charged;
    running.add(u);
    u.leaseTick = leaseTick;
    leased.add(u);
    armSweep();
  }

  function armSweep(): void {
    if (sweepArmed || !Number.isFinite(leaseMs)) return;
    sweepArmed = true;
    clock.setTimer(sweepLeases, leaseMs / LEASE_TICKS);
  }

  /** One tick: lets go for good every segment that began more than LEASE_TICKS ticks ago and has not ended visibly. */
  function sweepLeases(): void {
    sweepArmed = false;
    leaseTick += 1;
    for (const u of leased) if (leaseTick - u.leaseTick > LEASE_TICKS) leaseEnded(u);
    if (leased.size > 0) armSweep();
  }

  /**
   * The segment ended (a wait, the unit settled, the lease, or the event loop came round while it
   * waited unseen): its cost is learnt and charged to its tenant. Only a visible end stops the lease.
   */
  function letGo(u: Unit, visibly = true): void {
    if (visibly) leased.delete(u);
    if (!u.holding) return;
    charge();
    u.holding = false;
    running.delete(u);
    const spent = u.charged - u.segmentStart;
    learn(segmentCosts, u.kind, spent);
    served.get(u.tenant)!.costMs += spent;
    // Deficit round robin charges what the segment really cost, not what it was thought to.
    // A unit's first segment is charged with the whole unit when it settles (to the rotation that started it).
    if (u.resumed) resumes.correct(u.tenant, u.estimate - spent);
  }

  function close(u: Unit): void {
    if (u.open) {
      u.open = false;
      open -= 1;
    }
    for (const w of u.waiters.splice(0)) w();
  }

  function leaseEnded(u: Unit): void {
    letGo(u);
    u.detached = true;
    close(u);
    pump();
  }

  function settle(u: Unit): void {
    letGo(u);
    if (!u.settled) {
      u.settled = true;
      drr.correct(u.tenant, u.unitEstimate - u.charged);
      learn(costs, u.kind, u.charged);
      close(u);
    }
    pump();
  }

  function start(u: Unit): void {
    queued -= 1;
    const next = parked.get(u.tenant)?.shift();
    if (next) {
      parkedCount -= 1;
      drr.add(u.tenant, next, 'fresh');
      queued += 1;
    }
    open += 1;
    u.open = true;
    u.unitEstimate = unitEstimate(u.kind);
    const tally = served.get(u.tenant) ?? { units: 0, costMs: 0 };
    tally.units += 1;
    served.set(u.tenant, tally);
    hold(u);
    let result: unknown;
    try {
      result = runAsUnit(u, u.fn);
    } catch (error) {
      settle(u);
      u.reject(error);
      return;
    }
    Promise.resolve(result).then(
      (value) => (settle(u), u.resolve(value)),
      (error: unknown) => (settle(u), u.reject(error)),
    );
  }

  function resume(u: Unit): void {
    resuming -= 1;
    u.resumeQueued = false;
    // Settled or let go while it waited for its turn: its continuations were already released.
    if (!u.scheduled) return;
    hold(u);
    for (const w of u.waiters.splice(0)) w();
  }

  /**
   * Whether a slot is free with nothing waiting for one: then the rotation would pick the one asking at
   * once (segments back from a wait go before units starting, so units waiting to start do not count), and
   * the deficit it would charge is dropped as its tenant leaves the rotation empty. Taking the slot
   * directly decides the same, without queueing, a promise and a pump (issue 48, the hot path).
   */
  const slotFreeForResume = () => resuming === 0 && running.size < settings.inFlight;
  const slotFreeForStart = () => queued === 0 && slotFreeForResume() && open < maxOpen;

  function pump(): void {
    // A unit that settles synchronously settles inside start(); the outer loop goes on.
    if (pumping) return;
    pumping = true;
    try {
      while (running.size < settings.inFlight) {
        // With every open place taken no unit may start: the rotation of starts is not even looked at.
        const picked = resumes.next(true) ?? (open < maxOpen ? drr.next(true) : null);
        if (!picked) break;
        picked.item.resumed = picked.lane === 'resuming';
        if (picked.lane === 'fresh') start(picked.item);
        else resume(picked.item);
      }
    } finally {
      pumping = false;
    }
    armTurnCheckIfFull();
  }

  function armTurnCheckIfFull(): void {
    if (running.size >= settings.inFlight && queued + resuming > 0) armTurnCheck();
  }

  /** With every slot held and work waiting: when the event loop comes round, the holders are waiting, not computing. */
  function armTurnCheck(): void {
    if (turnCheckArmed) return;
    turnCheckArmed = true;
    nextTurn(() => {
      turnCheckArmed = false;
      for (const u of [...running]) letGo(u, false);
      pump();
    });
  }

  /** Takes a slot back at once when it may (see `slotFreeForResume`); whether the unit may go on now. */
  function tookBack(u: Unit): boolean {
    if (u.holding || !u.scheduled) return true;
    if (!slotFreeForResume()) return false;
    u.resumed = false;
    hold(u);
    armTurnCheckIfFull();
    return true;
  }

  /** The continuation after a wait goes on once the unit holds a slot again. */
  function reacquire(u: Unit): Promise<void> {
    return new Promise((resolve) => {
      u.waiters.push(resolve);
      if (u.resumeQueued) return;
      u.resumeQueued = true;
      resuming += 1;
      resumes.add(u.tenant, u, 'resuming');
      pump();
    });
  }

  function yieldDuring<T>(u: Unit, waiting: Promise<T>, onClient: boolean): Promise<T> {
    if (!u.scheduled) return waiting;
    // A nested wait (the pool's method around the driver's query) finds the slot already let go: nothing to hand on.
    const freed = u.holding || (onClient && u.open);
    letGo(u);
    // A unit paced by its client (an upload, a download) may stay for minutes: it gives its open place back for good.
    if (onClient && u.open) {
      u.open = false;
      open -= 1;
    }
    if (freed) pump();
    return waiting.then(
      (value) => (tookBack(u) ? value : reacquire(u).then(() => value)),
      (error: unknown) => {
        if (tookBack(u)) throw error;
        return reacquire(u).then(() => {
          throw error;
        });
      },
    );
  }

  function retryAfter(tenant: string, kind: string): number {
    const waiting = drr.waiting(tenant, 'fresh') * (costs.get(kind) ?? estimate(kind));
    const weight = settings.weights?.get(tenant) ?? 1;
    const active = drr.activeWeight(tenant);
    const share = weight / (active.includes ? active.total : active.total + weight);
    // One event loop serves one CPU ms per ms; the tenant gets its share of it.
    return Math.max(1, Math.ceil(waiting / share / 1000));
  }

  function newUnit(tenant: string, kind: string, fn: () => unknown, resolve: (v: unknown) => void, reject: (e: unknown) => void): Unit {
    const u: Unit = {
      tenant,
      kind,
      fn,
      resolve,
      reject,
      estimate: 0,
      unitEstimate: 0,
      segmentStart: 0,
      charged: 0,
      holding: false,
      resumed: false,
      open: false,
      settled: false,
      detached: false,
      resumeQueued: false,
      waiters: [],
      leaseTick: 0,
      scheduler: self,
      get scheduled() {
        return !u.settled && !u.detached;
      },
      yieldDuring: (waiting, onClient) => yieldDuring(u, waiting, onClient === true),
    };
    return u;
  }

  return {
    run<T>(tenant: string, kind: string, fn: () => Promise<T> | T, opts?: { whenFull?: 'refuse' | 'wait' }): Promise<T> {
      // Work a unit starts for its own tenant is part of that unit: it already holds its turn.
      const within = currentUnit() as Unit | undefined;
      if (within?.scheduler === self && within.tenant === tenant) return new Promise<T>((resolve) => resolve(fn()));
      return new Promise<T>((resolve, reject) => {
        const u = newUnit(tenant, kind, fn, resolve as (v: unknown) => void, reject);
        if (drr.waiting(tenant, 'fresh') >= settings.queuePerTenant) {
          if (opts?.whenFull !== 'wait') return reject(new SchedulerFull(tenant, retryAfter(tenant, kind)));
          const list = parked.get(tenant) ?? [];
          list.push(u);
          parked.set(tenant, list);
          parkedCount += 1;
          return;
        }
        if (slotFreeForStart()) {
          queued += 1;
          u.resumed = false;
          return start(u);
        }
        drr.add(tenant, u, 'fresh');
        queued += 1;
        pump();
      });
    },
    stats: () => ({ inFlight: running.size, open, queued, parked: parkedCount, resuming, served, costs }),
  };
}
