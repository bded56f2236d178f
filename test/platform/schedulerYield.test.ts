import { describe, expect, it } from 'vitest';
import { createDrr } from '../../src/platform/drr.js';
import { createScheduler, type SchedulerClock } from '../../src/platform/scheduler.js';
import { awaitClient, yieldDuring } from '../../src/platform/unitContext.js';
import { scheduledJob } from '../../src/platform/scheduledJob.js';

/**
 * Issue 48: a unit lets its slot go at each database wait and takes one again,
 * in its tenant's turn and ahead of the units not yet started, when the answer
 * is in. The deficit round robin core is a pure function of its lanes; the
 * scheduler is driven by an injected CPU clock and by waits the test settles.
 */
function clock(): SchedulerClock & { spend(ms: number): void; endTurn(): void } {
  let cpu = 0;
  const turns: (() => void)[] = [];
  return {
    cpu: () => cpu,
    setTimer: () => () => undefined,
    // The event loop comes round only when the test says so.
    nextTurn: (fn) => void turns.push(fn),
    spend: (ms) => (cpu += ms),
    endTurn: () => {
      for (const fn of turns.splice(0)) fn();
    },
  };
}

/** A wait the test settles: what a database round trip is to the scheduler. */
function deferred() {
  let settle: () => void = () => undefined;
  const promise = new Promise<void>((r) => (settle = r));
  return { promise, settle };
}

const settle = () => new Promise((r) => setTimeout(r, 0));

describe('createDrr: lanes and turns, as a pure function', () => {
  const drr = () => createDrr<string>({ weightOf: (t) => (t === 'heavy' ? 3 : 1), estimate: () => 1, quantum: 1 });

  it("given a tenant's resuming and fresh items, then its resuming ones are served first", () => {
    const d = drr();
    d.add('a', 'a-new', 'fresh');
    d.add('a', 'a-back', 'resuming');
    expect([d.next(true)?.item, d.next(true)?.item, d.next(true)]).toEqual(['a-back', 'a-new', null]);
  });

  it('given fresh items may not start (the open bound), then resuming ones still are served and fresh ones wait', () => {
    const d = drr();
    d.add('a', 'a-new', 'fresh');
    d.add('b', 'b-back', 'resuming');
    expect(d.next(false)?.item).toBe('b-back');
    expect(d.next(false)).toBeNull();
    expect(d.waiting('a', 'fresh')).toBe(1);
    expect(d.next(true)?.item).toBe('a-new');
  });

  it('given equal costs and weights 3:1, then each round serves three of the heavier for one of the other', () => {
    const d = drr();
    for (let i = 0; i < 8; i++) d.add('heavy', `h${i}`, 'fresh');
    for (let i = 0; i < 8; i++) d.add('light', `l${i}`, 'fresh');
    const order = Array.from({ length: 8 }, () => d.next(true)!.tenant);
    expect(order).toEqual(['heavy', 'heavy', 'heavy', 'light', 'heavy', 'heavy', 'heavy', 'light']);
  });

  it('given a segment that cost more than its estimate, then its tenant pays it back in later turns', () => {
    const d = drr();
    for (const t of ['a', 'b']) for (let i = 0; i < 6; i++) d.add(t, `${t}${i}`, 'fresh');
    expect(d.next(true)!.tenant).toBe('a');
    // The item estimated at 1 cost 4: a's deficit is 3 below, so b is served 4 times before a again.
    d.correct('a', 1 - 4);
    const order = Array.from({ length: 5 }, () => d.next(true)!.tenant);
    expect(order).toEqual(['b', 'b', 'b', 'b', 'a']);
  });
});

describe('createScheduler: a database wait lets the slot go', () => {
  it("given one slot and a unit waiting on the database, then another tenant's unit runs meanwhile, and the first goes on after it", async () => {
    const c = clock();
    const s = createScheduler({ inFlight: 1, queuePerTenant: 10, leaseMs: Infinity }, c);
    const db = deferred();
    const steps: string[] = [];
    let unblockB: () => void = () => undefined;
    const a = s.run('a', 'k', async () => {
      steps.push('a:before');
      await yieldDuring(db.promise);
      steps.push('a:after');
    });
    const b = s.run('b', 'k', async () => {
      steps.push('b:start');
      // b computes on (a wait the scheduler cannot see): it keeps its slot.
      await new Promise<void>((r) => (unblockB = r));
      steps.push('b:end');
    });
    await settle();
    expect(steps).toEqual(['a:before', 'b:start']);
    db.settle();
    await settle();
    // a's answer is in, but b holds the one slot: a waits for its turn.
    expect(steps).toEqual(['a:before', 'b:start']);
    expect(s.stats()).toMatchObject({ inFlight: 1, open: 2, resuming: 1 });
    unblockB();
    await Promise.all([a, b]);
    expect(steps).toEqual(['a:before', 'b:start', 'b:end', 'a:after']);
    expect(s.stats()).toMatchObject({ inFlight: 0, open: 0, queued: 0, resuming: 0 });
  });

  it('given a unit back from its wait and new units of its tenant, then the half-done unit goes on first', async () => {
    const c = clock();
    const s = createScheduler({ inFlight: 1, queuePerTenant: 10, leaseMs: Infinity }, c);
    const db = deferred();
    const steps: string[] = [];
    let unblock: () => void = () => undefined;
    const first = s.run('a', 'k', async () => {
      await yieldDuring(db.promise);
      steps.push('first:after');
    });
    const holder = s.run('b', 'k', () => new Promise<void>((r) => (unblock = r)));
    const fresh = Array.from({ length: 3 }, (_, i) => s.run('a', 'k', () => void steps.push(`new${i}`)));
    await settle();
    db.settle();
    await settle();
    unblock();
    await Promise.all([first, holder, ...fresh]);
    expect(steps[0]).toBe('first:after');
  });

  it('given the open bound reached by units waiting on the database, then no further unit starts until one settles', async () => {
    const c = clock();
    const s = createScheduler({ inFlight: 4, maxOpen: 2, queuePerTenant: 10, leaseMs: Infinity }, c);
    const waits = [deferred(), deferred(), deferred()];
    const started: number[] = [];
    const units = waits.map((w, i) =>
      s.run('a', 'k', async () => {
        started.push(i);
        await yieldDuring(w.promise);
      }),
    );
    await settle();
    expect(started).toEqual([0, 1]);
    expect(s.stats()).toMatchObject({ inFlight: 0, open: 2, queued: 1 });
    waits[0]!.settle();
    await units[0];
    await settle();
    expect(started).toEqual([0, 1, 2]);
    for (const w of waits) w.settle();
    await Promise.all(units);
    expect(s.stats()).toMatchObject({ open: 0, queued: 0 });
  });

  it("charges each segment's CPU to its tenant: a unit's cost is the sum of its segments", async () => {
    const c = clock();
    const s = createScheduler({ inFlight: 1, queuePerTenant: 10, leaseMs: Infinity }, c);
    await s.run('a', 'k', async () => {
      c.spend(3);
      await yieldDuring(Promise.resolve());
      c.spend(2);
    });
    expect(s.stats().served.get('a')).toEqual({ units: 1, costMs: 5 });
    expect(s.stats().costs.get('k')).toBe(5);
  });

  it('a failed wait takes the slot back before its error goes on', async () => {
    const c = clock();
    const s = createScheduler({ inFlight: 1, queuePerTenant: 10, leaseMs: Infinity }, c);
    const outcome = await s.run('a', 'k', async () => {
      try {
        await yieldDuring(Promise.reject(new Error('refused by the database')));
      } catch (error) {
        return { message: (error as Error).message, holding: s.stats().inFlight };
      }
    });
    expect(outcome).toEqual({ message: 'refused by the database', holding: 1 });
  });

  it('work a unit starts for its own tenant is part of it, and waiting outside any unit is just waiting', async () => {
    const c = clock();
    const s = createScheduler({ inFlight: 1, maxOpen: 1, queuePerTenant: 1, leaseMs: Infinity }, c);
    // With one slot held by the outer unit, a nested unit scheduled anew would never start.
    const nested = await s.run('a', 'outer', () => s.run('a', 'inner', () => 'inner ran'));
    expect(nested).toBe('inner ran');
    expect(await yieldDuring(Promise.resolve('plain'))).toBe('plain');
  });

  it('given a unit waiting on its client (an upload), then it gives its open place back and its next chunk still takes a turn', async () => {
    const c = clock();
    const s = createScheduler({ inFlight: 1, maxOpen: 1, queuePerTenant: 10, leaseMs: Infinity }, c);
    const chunk = deferred();
    const steps: string[] = [];
    let unblock: () => void = () => undefined;
    const upload = s.run('a', 'upload', async () => {
      await awaitClient(chunk.promise);
      steps.push('upload:chunk');
    });
    // With the only open place given back, another tenant's unit starts and holds the one slot.
    const other = s.run('b', 'k', () => (steps.push('b:start'), new Promise<void>((r) => (unblock = r))));
    await settle();
    expect(steps).toEqual(['b:start']);
    expect(s.stats()).toMatchObject({ open: 1, inFlight: 1 });
    chunk.settle();
    await settle();
    // The chunk has arrived but waits for its turn: not handled while b holds the slot.
    expect(steps).toEqual(['b:start']);
    unblock();
    await Promise.all([upload, other]);
    expect(steps).toEqual(['b:start', 'upload:chunk']);
    expect(s.stats()).toMatchObject({ open: 0, inFlight: 0, resuming: 0 });
  });
});

describe('scheduledJob: a worker shares its time across tenants', () => {
  it("given 30 of one tenant's jobs taken before another's one, then the one runs after at most one turn of the busy tenant's", async () => {
    const c = clock();
    const s = createScheduler({ inFlight: 1, queuePerTenant: 8, leaseMs: Infinity }, c);
    const ran: string[] = [];
    const job = scheduledJob(
      s,
      'extraction',
      (j: { tenant: string | null; id: string }) => j.tenant,
      (j) => {
        c.spend(1);
        ran.push(j.id);
        return Promise.resolve();
      },
    );
    // A worker with 31 jobs in hand (concurrency 31): 30 of the busy tenant's, then the quiet one's; past 8, paced.
    const busy = Array.from({ length: 30 }, (_, i) => job({ tenant: 'busy', id: `busy${i}` }));
    const quiet = job({ tenant: 'quiet', id: 'quiet' });
    const system = job({ tenant: null, id: 'sweep' });
    await Promise.all([...busy, quiet, system]);
    // The tenant-less sweep ran at once (after the busy tenant's first, started as it came); the quiet
    // tenant's job came after at most the first two of the busy one's.
    expect(ran.slice(0, 2)).toEqual(['busy0', 'sweep']);
    expect(ran.indexOf('quiet')).toBeLessThanOrEqual(3);
    expect(ran.filter((id) => id.startsWith('busy'))).toHaveLength(30);
  });
});

describe('createScheduler: a slot held across a turn of the event loop', () => {
  it("given every slot held by units waiting on a batch that another unit's segment writes, then the batch's next segment runs once the loop comes round", async () => {
    const c = clock();
    const s = createScheduler({ inFlight: 1, queuePerTenant: 10, leaseMs: Infinity }, c);
    // A shared batch (as the audit writer's): written by whichever unit started it, awaited by others unseen.
    const db = deferred();
    let batchWritten: () => void = () => undefined;
    const batch = new Promise<void>((r) => (batchWritten = r));
    const steps: string[] = [];
    const writer = s.run('a', 'k', async () => {
      await yieldDuring(db.promise);
      steps.push('batch written');
      batchWritten();
    });
    const waiter = s.run('b', 'k', async () => {
      await batch;
      steps.push('waiter on');
    });
    await settle();
    db.settle();
    await settle();
    // The writer's answer is in, but the waiter holds the one slot waiting for the batch: nothing moves.
    expect(steps).toEqual([]);
    c.endTurn();
    await Promise.all([writer, waiter]);
    expect(steps).toEqual(['batch written', 'waiter on']);
  });
});

describe('createScheduler: the fast path (a free slot taken at once) never passes work that waits', () => {
  it("given the flood's segments back from their waits before the quiet tenant's, then the quiet one goes on within one turn of the flood's", async () => {
    const c = clock();
    const s = createScheduler({ inFlight: 1, maxOpen: 100, queuePerTenant: 100, leaseMs: Infinity }, c);
    const steps: string[] = [];
    const segment = (tenant: string, name: string, db: Promise<void>) =>
      s.run(tenant, 'k', async () => {
        await yieldDuring(db);
        c.spend(1);
        steps.push(name);
      });
    const floodDbs = Array.from({ length: 10 }, () => deferred());
    const quietDb = deferred();
    const flood = floodDbs.map((db, i) => segment('flood', `flood${i}`, db.promise));
    const quiet = segment('quiet', 'quiet', quietDb.promise);
    let unblock: () => void = () => undefined;
    const holder = s.run('flood', 'k', () => new Promise<void>((r) => (unblock = r)));
    await settle();
    // Every answer comes in while the holder computes; the quiet tenant's last.
    for (const db of floodDbs) db.settle();
    quietDb.settle();
    await settle();
    expect(s.stats()).toMatchObject({ inFlight: 1, resuming: 11 });
    unblock();
    // Late arrivals of the flood find a free slot only when nothing waits for one.
    const late = Array.from({ length: 5 }, (_, i) => s.run('flood', 'k', () => void steps.push(`late${i}`)));
    await Promise.all([holder, quiet, ...flood, ...late]);
    expect(steps.indexOf('quiet')).toBeLessThanOrEqual(1);
    expect(steps.slice(-5)).toEqual(['late0', 'late1', 'late2', 'late3', 'late4']);
  });

  it('given random waits of three tenants, then no bound is passed, and a slot is never free while a segment waits for one or a unit may start', async () => {
    const c = clock();
    const inFlight = 2;
    const maxOpen = 4;
    const s = createScheduler({ inFlight, maxOpen, queuePerTenant: 1000, leaseMs: Infinity }, c);
    const pending: (() => void)[] = [];
    let seed = 11;
    const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    const violations: string[] = [];
    const check = (when: string) => {
      const st = s.stats();
      const idleWhileWaiting = st.inFlight < inFlight && (st.resuming > 0 || (st.queued > 0 && st.open < maxOpen));
      if (idleWhileWaiting || st.inFlight > inFlight || st.open > maxOpen) violations.push(`${when}: ${JSON.stringify(st)}`);
    };
    const units = Array.from({ length: 60 }, (_, i) =>
      s.run(`t${i % 3}`, `k${i % 3}`, async () => {
        for (let w = Math.floor(random() * 4); w > 0; w--) {
          c.spend(1);
          check(`unit ${i} computing`);
          await yieldDuring(new Promise<void>((r) => pending.push(r)));
          check(`unit ${i} back`);
        }
      }),
    );
    for (let round = 0; round < 200 && pending.length > 0; round++) {
      // Answers come in a few at a time, in any order.
      for (let n = 1 + Math.floor(random() * 3); n > 0 && pending.length > 0; n--)
        pending.splice(Math.floor(random() * pending.length), 1)[0]!();
      await settle();
      check(`round ${round}`);
    }
    await Promise.all(units);
    expect(violations).toEqual([]);
    expect(s.stats()).toMatchObject({ inFlight: 0, open: 0, queued: 0, resuming: 0 });
  });
});

describe('createDrr: a tenant passed over while units may not start', () => {
  it('given the head tenant in its turn passed over between every two starts, then it gains no new quantum by it and the other tenant is served in turn', () => {
    const d = createDrr<string>({ weightOf: () => 1, estimate: () => 0.5, quantum: 1 });
    for (let i = 0; i < 10; i++) d.add('flood', `flood${i}`, 'fresh');
    const served = [d.next(true)!.tenant];
    d.add('quiet', 'quiet0', 'fresh');
    for (let i = 0; i < 5; i++) {
      // Every open place taken: nothing may start, and nobody's turn moves on for it.
      expect(d.next(false)).toBeNull();
      served.push(d.next(true)!.tenant);
    }
    // The flood's turn (one quantum, two of its units) ends, then the quiet tenant's comes.
    expect(served.slice(0, 3)).toEqual(['flood', 'flood', 'quiet']);
  });
});
