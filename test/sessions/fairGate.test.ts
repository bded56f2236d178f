import { describe, expect, it } from 'vitest';
import { createScheduler } from '../../src/platform/scheduler.js';
import { createFairGate, schedulerGate } from '../../src/sessions/fairGate.js';
import { yieldDuring } from '../../src/platform/unitContext.js';

/** The frame slots' turn order across tenants (issue 40), as a pure function of acquires and releases. */
describe('createFairGate', () => {
  it('gives a slot at once while one is free', async () => {
    const gate = createFairGate(2);
    const a = await gate.acquire('a');
    const b = await gate.acquire('a');
    expect(gate.waiting()).toBe(0);
    a();
    b();
  });

  it("serves a tenant's one frame after one of the flooding tenant's, not after all of them", async () => {
    const gate = createFairGate(1);
    const got: string[] = [];
    const releases = new Map<string, () => void>();
    const track = (tenant: string, name: string) =>
      gate.acquire(tenant).then((release) => {
        got.push(name);
        releases.set(name, release);
      });
    const first = await gate.acquire('flood');
    const flood = Array.from({ length: 50 }, (_, i) => track('flood', `flood${i}`));
    const quiet = track('quiet', 'quiet');
    expect(gate.waiting()).toBe(51);
    first();
    await flood[0];
    releases.get('flood0')!();
    await quiet;
    expect(got).toEqual(['flood0', 'quiet']);
    expect(gate.waiting()).toBe(49);
  });

  it("keeps each tenant's own frames in their order and never grants more slots than it has", async () => {
    const gate = createFairGate(2);
    const got: string[] = [];
    const held = await Promise.all([gate.acquire('a'), gate.acquire('b')]);
    const pending = ['a1', 'a2', 'b1', 'a3'].map((name) => gate.acquire(name[0]!).then((r) => (got.push(name), r)));
    expect(gate.waiting()).toBe(4);
    held[0]();
    const r1 = await pending[0]!;
    expect(got).toEqual(['a1']);
    held[1]();
    const r2 = await pending[2]!;
    expect(got).toEqual(['a1', 'b1']);
    // A release called twice frees one slot only.
    r1();
    r1();
    await pending[1]!;
    expect(got).toEqual(['a1', 'b1', 'a2']);
    expect(gate.waiting()).toBe(1);
    r2();
    await pending[3]!;
    expect(got).toEqual(['a1', 'b1', 'a2', 'a3']);
  });
});

/** The same gate over the process's one scheduler (issue 48): turns across tenants, and a full queue paces, never refuses. */
describe('schedulerGate', () => {
  it("serves a tenant's one frame after one turn of the flooding tenant's, and parks the flood past its queue", async () => {
    // Each frame costs one CPU ms, the quantum, on an injected clock: a turn is one frame, whatever the machine's speed.
    let cpu = 0;
    const clock = { cpu: () => cpu, setTimer: () => () => undefined };
    const scheduler = createScheduler({ inFlight: 1, queuePerTenant: 4, leaseMs: Infinity }, clock);
    const gate = schedulerGate(scheduler);
    const got: string[] = [];
    const track = (tenant: string, name: string) =>
      gate.acquire(tenant).then((release) => {
        got.push(name);
        cpu += 1;
        release();
      });
    const first = await gate.acquire('flood');
    const flood = Array.from({ length: 20 }, (_, i) => track('flood', `flood${i}`));
    const quiet = track('quiet', 'quiet');
    // Four queued, sixteen parked: none refused.
    expect(scheduler.stats()).toMatchObject({ queued: 5, parked: 16 });
    cpu += 1;
    first();
    await Promise.all([...flood, quiet]);
    expect(got.indexOf('quiet')).toBeLessThanOrEqual(2);
    expect(got.filter((n) => n.startsWith('flood'))).toEqual(Array.from({ length: 20 }, (_, i) => `flood${i}`));
    expect(gate.waiting()).toBe(0);
  });

  it("runs a frame's own code as the unit, so its database waits let another tenant's frame in", async () => {
    const scheduler = createScheduler({ inFlight: 1, queuePerTenant: 4, leaseMs: Infinity });
    const gate = schedulerGate(scheduler);
    let answer: () => void = () => undefined;
    const steps: string[] = [];
    const waiting = gate.run('a', async () => {
      steps.push('a:asks the database');
      await yieldDuring(new Promise<void>((r) => (answer = r)));
      steps.push('a:applied');
    });
    const other = gate.run('b', () => Promise.resolve(void steps.push('b:applied')));
    await other;
    expect(steps).toEqual(['a:asks the database', 'b:applied']);
    answer();
    await waiting;
    expect(steps).toEqual(['a:asks the database', 'b:applied', 'a:applied']);
    expect(gate.waiting()).toBe(0);
  });
});
