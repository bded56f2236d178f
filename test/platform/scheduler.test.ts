import { describe, expect, it } from 'vitest';
import {
  createScheduler,
  parseTenantWeights,
  SchedulerFull,
  type SchedulerClock,
  type SchedulerSettings,
} from '../../src/platform/scheduler.js';

/**
 * The scheduler (issue 48) as a pure function of its units: each unit advances
 * an injected CPU clock by its cost, so shares, weights, bounds and turns are
 * exact. Given a backlog, when it is served, then the served cost is shared as
 * the weights say.
 */
function fakeClock() {
  let cpu = 0;
  const timers: { fn: () => void; live: boolean }[] = [];
  const turns: (() => void)[] = [];
  const clock: SchedulerClock = {
    cpu: () => cpu,
    setTimer: (fn) => {
      const t = { fn, live: true };
      timers.push(t);
      return () => (t.live = false);
    },
    // The event loop comes round only when the test says so.
    nextTurn: (fn) => void turns.push(fn),
  };
  return {
    clock,
    spend: (ms: number) => (cpu += ms),
    endTurn: () => {
      for (const fn of turns.splice(0)) fn();
    },
    /** One timer's time passes: the lease sweep's tick. */
    tick: () => {
      for (const t of timers.splice(0)) if (t.live) t.fn();
    },
    /** A lease's time passes: the sweep ticks until nothing holds a lease (it stops re-arming then). */
    fireTimers: () => {
      for (let i = 0; i < 100 && timers.some((t) => t.live); i++) for (const t of timers.splice(0)) if (t.live) t.fn();
    },
  };
}

const settle = () => new Promise((r) => setTimeout(r, 0));

/** Given backlogs per tenant (units of a kind and cost), the order units started in. */
async function serve(settings: Partial<SchedulerSettings>, backlogs: { tenant: string; kind: string; cost: number; units: number }[]) {
  const { clock, spend } = fakeClock();
  const s = createScheduler({ inFlight: 1, queuePerTenant: 10_000, leaseMs: Infinity, ...settings }, clock);
  const order: { tenant: string; cost: number }[] = [];
  const all: Promise<unknown>[] = [];
  // Interleaved submission, as concurrent clients would.
  const longest = Math.max(...backlogs.map((b) => b.units));
  for (let i = 0; i < longest; i++)
    for (const b of backlogs)
      if (i < b.units)
        all.push(
          s.run(b.tenant, b.kind, () => {
            spend(b.cost);
            order.push({ tenant: b.tenant, cost: b.cost });
          }),
        );
  await Promise.all(all);
  return { order, stats: s.stats() };
}

/** Cost served per tenant until `upTo` ms of cost in all had been served (the backlogs all still waiting). */
function sharesUpTo(order: { tenant: string; cost: number }[], upTo: number): Record<string, number> {
  const shares: Record<string, number> = {};
  let total = 0;
  for (const o of order) {
    if (total >= upTo) break;
    shares[o.tenant] = (shares[o.tenant] ?? 0) + o.cost;
    total += o.cost;
  }
  return shares;
}

describe('createScheduler: shares of served cost under saturation', () => {
  const cases = [
    {
      given: 'two tenants, equal weights, equal costs',
      weights: '',
      backlogs: [
        { tenant: 'a', kind: 'k', cost: 1, units: 200 },
        { tenant: 'b', kind: 'k', cost: 1, units: 200 },
      ],
      upTo: 200,
      expected: { a: 100, b: 100 },
    },
    {
      given: 'two tenants, equal weights, one cheap and one four times as expensive',
      weights: '',
      backlogs: [
        { tenant: 'a', kind: 'cheap', cost: 1, units: 400 },
        { tenant: 'b', kind: 'heavy', cost: 4, units: 100 },
      ],
      upTo: 200,
      expected: { a: 100, b: 100 },
    },
    {
      given: 'weights 3:1, equal costs',
      weights: 'a=3,b=1',
      backlogs: [
        { tenant: 'a', kind: 'k', cost: 1, units: 400 },
        { tenant: 'b', kind: 'k', cost: 1, units: 400 },
      ],
      upTo: 200,
      expected: { a: 150, b: 50 },
    },
    {
      given: 'weights 3:1, the lighter tenant four times as expensive',
      weights: 'a=3,b=1',
      backlogs: [
        { tenant: 'a', kind: 'cheap', cost: 1, units: 400 },
        { tenant: 'b', kind: 'heavy', cost: 4, units: 100 },
      ],
      upTo: 200,
      expected: { a: 150, b: 50 },
    },
  ];
  for (const c of cases)
    it(`${c.given}: served cost splits ${JSON.stringify(c.expected)}`, async () => {
      const { order } = await serve({ weights: parseTenantWeights(c.weights) }, c.backlogs);
      const shares = sharesUpTo(order, c.upTo);
      // Within one unit of the heaviest kind, the deficit a tenant may carry between turns (plus the first, unlearnt estimate).
      for (const [tenant, want] of Object.entries(c.expected)) expect(Math.abs(shares[tenant]! - want)).toBeLessThanOrEqual(8);
    });
});

describe("createScheduler: a flood does not delay another tenant's next unit beyond one round", () => {
  for (const inFlight of [1, 2, 4])
    it(`with ${inFlight} in flight, the quiet tenant's unit starts after at most one turn of the flood's`, async () => {
      const { clock, spend } = fakeClock();
      const s = createScheduler({ inFlight, queuePerTenant: 10_000, leaseMs: Infinity }, clock);
      const started: string[] = [];
      const quiet: Promise<unknown>[] = [];
      const flood = Array.from({ length: 200 }, (_, i) =>
        s.run('flood', 'k', () => {
          spend(1);
          started.push(`flood${i}`);
          if (i === 20) quiet.push(s.run('quiet', 'k', () => (spend(1), started.push('quiet'))));
        }),
      );
      await Promise.all(flood);
      await Promise.all(quiet);
      const asked = started.indexOf('flood20');
      const served = started.indexOf('quiet');
      // Between asking and starting: the units already holding slots, and one turn (a quantum, one unit here) of the flood.
      expect(served - asked - 1).toBeLessThanOrEqual(inFlight);
    });
});

describe('createScheduler: a full queue', () => {
  const cases = [
    { given: 'one tenant alone, 4 waiting of 1 s each', others: 0, cost: 1000, expected: 4 },
    { given: 'one other tenant waiting too (half the process)', others: 1, cost: 1000, expected: 8 },
    { given: 'cheap units: at least one second', others: 3, cost: 1, expected: 1 },
  ];
  for (const c of cases)
    it(`${c.given}: refuses with Retry-After ${c.expected} s`, async () => {
      const { clock, spend } = fakeClock();
      const s = createScheduler({ inFlight: 1, queuePerTenant: 4, leaseMs: Infinity }, clock);
      // Teach the kind its cost.
      await s.run('t', 'k', () => spend(c.cost));
      let unblock: () => void = () => undefined;
      const blocking = s.run('x', 'block', () => new Promise<void>((r) => (unblock = r)));
      const waiting = Array.from({ length: 4 }, () => s.run('t', 'k', () => spend(c.cost)));
      const others = Array.from({ length: c.others }, (_, i) => s.run(`o${i}`, 'k', () => spend(c.cost)));
      const refused = await s.run('t', 'k', () => spend(c.cost)).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(SchedulerFull);
      expect((refused as SchedulerFull).retryAfterSeconds).toBe(c.expected);
      unblock();
      await Promise.all([blocking, ...waiting, ...others]);
    });

  it('parks a paced unit instead of refusing it, and runs it once the queue has room', async () => {
    const { clock } = fakeClock();
    const s = createScheduler({ inFlight: 1, queuePerTenant: 2, leaseMs: Infinity }, clock);
    let unblock: () => void = () => undefined;
    const ran: number[] = [];
    const blocking = s.run('t', 'k', () => new Promise<void>((r) => (unblock = r)));
    const units = Array.from({ length: 6 }, (_, i) => s.run('t', 'k', () => ran.push(i), { whenFull: 'wait' }));
    expect(s.stats()).toMatchObject({ queued: 2, parked: 4 });
    unblock();
    await Promise.all([blocking, ...units]);
    expect(ran).toEqual([0, 1, 2, 3, 4, 5]);
    expect(s.stats()).toMatchObject({ queued: 0, parked: 0, inFlight: 0 });
  });
});

describe('createScheduler: a unit waiting on what the scheduler cannot see', () => {
  it('given one slot held by a unit waiting unseen, then the next starts when the event loop comes round, and the lease lets the first go for good', async () => {
    const { clock, fireTimers, endTurn, tick } = fakeClock();
    const s = createScheduler({ inFlight: 1, queuePerTenant: 10, leaseMs: 250 }, clock);
    let answer: () => void = () => undefined;
    const started: string[] = [];
    const waiting = s.run('a', 'upload', () => (started.push('upload'), new Promise<void>((r) => (answer = r))));
    const next = s.run('b', 'k', () => started.push('next'));
    await settle();
    expect(started).toEqual(['upload']);
    // The thread is free, so the holder is waiting, not computing: its slot goes to the next unit.
    endTurn();
    await next;
    expect(started).toEqual(['upload', 'next']);
    expect(s.stats()).toMatchObject({ inFlight: 0, open: 1 });
    // One tick of the lease sweep is a part of the lease: it still counts.
    tick();
    expect(s.stats().open).toBe(1);
    // Its lease ends: it no longer counts among the open units either.
    fireTimers();
    expect(s.stats().open).toBe(0);
    answer();
    await waiting;
  });
});

describe('createScheduler: no unit is lost or run twice', () => {
  it('settles every unit exactly once, through failures, waits and ended leases', async () => {
    const { clock, spend, fireTimers } = fakeClock();
    const s = createScheduler({ inFlight: 3, queuePerTenant: 5, leaseMs: 100 }, clock);
    const runs = new Map<number, number>();
    const waits: (() => void)[] = [];
    const outcomes: Promise<string>[] = [];
    let seed = 7;
    const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    for (let i = 0; i < 300; i++) {
      const tenant = `t${Math.floor(random() * 4)}`;
      const shape = Math.floor(random() * 4);
      const fn = (): unknown => {
        runs.set(i, (runs.get(i) ?? 0) + 1);
        spend(1 + shape);
        if (shape === 1) throw new Error(`unit ${i} failed`);
        if (shape === 2) return new Promise<void>((r) => waits.push(r));
        return i;
      };
      outcomes.push(
        s.run(tenant, `k${shape}`, fn, { whenFull: random() < 0.5 ? 'wait' : 'refuse' }).then(
          () => 'done',
          (e: unknown) => (e instanceof SchedulerFull ? 'refused' : 'failed'),
        ),
      );
      if (i % 25 === 24) {
        fireTimers();
        for (const w of waits.splice(0)) w();
        await settle();
      }
    }
    for (let round = 0; round < 50 && s.stats().queued + s.stats().parked + s.stats().open > 0; round++) {
      fireTimers();
      for (const w of waits.splice(0)) w();
      await settle();
    }
    const results = await Promise.all(outcomes);
    const refused = results.filter((r) => r === 'refused').length;
    // Every unit not refused ran exactly once; a refused one never ran.
    expect(runs.size).toBe(300 - refused);
    expect([...runs.values()].every((n) => n === 1)).toBe(true);
    expect(refused).toBeGreaterThan(0);
    expect(s.stats()).toMatchObject({ queued: 0, parked: 0, inFlight: 0, open: 0 });
  });
});

describe('parseTenantWeights', () => {
  it('reads tenantId=weight pairs and refuses anything else', () => {
    expect([...parseTenantWeights(' a=3, b=0.5 ,')]).toEqual([
      ['a', 3],
      ['b', 0.5],
    ]);
    expect(parseTenantWeights('').size).toBe(0);
    expect(() => parseTenantWeights('a=0')).toThrow();
    expect(() => parseTenantWeights('a')).toThrow();
  });
});
