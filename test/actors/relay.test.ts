import { randomUUID } from 'node:crypto';
import { UnrecoverableError, type Job, type Worker } from 'bullmq';
import { sql } from 'slonik';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRelay, toBullJobId } from '../../actors/relay.js';
import type { ActorRuntime } from '../../actors/runtime.js';
import { createQueues, type ActorTimerJob } from '../../actors/queues.js';
import { timerProcessor, timerRoutes } from '../../src/root/timerJobs.js';
import { startWorker } from '../../src/root/workerFactory.js';
import { counter, eventually, REDIS, silentLog, startHarness, type CounterKinds, type Harness } from './support.js';

let h: Harness;
let runtime: ActorRuntime<CounterKinds>;
let worker: Worker;
const fired: ActorTimerJob[] = [];
const failures: { job: Job | undefined; err: Error }[] = [];

beforeAll(async () => {
  h = await startHarness();
  runtime = h.runtime();
  const bumped = async (job: ActorTimerJob) => {
    fired.push(job);
    await runtime.send({ tenantId: job.tenantId, mode: job.mode }, counter(job.actorId), job.event as { type: 'counter.bumped' });
  };
  ({ worker } = startWorker(timerProcessor(timerRoutes({ 'counter.bumped': bumped }), silentLog), {
    connection: REDIS,
    prefix: h.prefix,
    log: silentLog,
  }));
  worker.on('failed', (job, err) => failures.push({ job, err }));
  await worker.waitUntilReady();
});
afterAll(async () => {
  await worker.close();
  await h.close();
});

const createCounter = async () => {
  const id = randomUUID();
  await runtime.create(h.scope, { kind: 'counter', id, input: { label: 'r' } });
  return id;
};
const outboxIds = (actorId: string) =>
  h.db.anyFirst(sql.type(z.object({ id: z.number() }))`SELECT id FROM outbox WHERE actor_id = ${actorId} ORDER BY id`);
const undispatched = (actorId: string) =>
  h.db.oneFirst(sql.type(z.object({ n: z.number() }))`
    SELECT count(*)::int AS n FROM outbox WHERE actor_id = ${actorId} AND dispatched_at IS NULL`);

describe('toBullJobId', () => {
  it.each([
    ['abc-def', 'abc-def'],
    ['inq:deadline', 'inq%3Adeadline'],
    ['a:b:c', 'a%3Ab%3Ac'],
    ['100%', '100%25'],
    ['42', '#42'],
    ['#42', '%2342'],
  ])('given %s, then %s', (id, expected) => {
    expect(toBullJobId(id)).toBe(expected);
  });
});

describe('the relay', () => {
  it('given a job action, when dispatched twice, then BullMQ holds exactly one job under the deterministic id', async () => {
    const id = await createCounter();
    const jobId = `${id}:dns`;
    await runtime.send(h.scope, counter(id), { type: 'counter.queued', jobId });
    // The command does not wait for its dispatch; it follows at once.
    await eventually(async () => (await undispatched(id)) === 0);
    const checks = h.queues.queue('checks');
    const job = await checks.getJob(toBullJobId(jobId));
    expect(job?.name).toBe('check.run');
    expect(job?.data).toEqual({ n: 1 });
    expect(job?.opts).toMatchObject({ removeOnComplete: { age: 3600 }, removeOnFail: { age: 86_400 } });
    expect(await undispatched(id)).toBe(0);

    expect(await outboxIds(id)).toEqual([]); // carried out, so deleted
  });

  it('given a crash after the add and before the delete, when the row is carried out again, then BullMQ still holds one job', async () => {
    // A runtime whose dispatch never happens, so the row can be read before the relay carries it out.
    const crashed = h.runtime({ relay: { dispatchWritten: () => Promise.resolve(0) } });
    const id = randomUUID();
    await crashed.create(h.scope, { kind: 'counter', id, input: { label: 'c' } });
    const jobId = `${id}:dns`;
    await crashed.send(h.scope, counter(id), { type: 'counter.queued', jobId });
    const copy = await h.db.any(
      sql.unsafe`SELECT id, tenant_id, mode, actor_id, kind, payload, created_at FROM outbox WHERE actor_id = ${id}`,
    );
    const ids = await outboxIds(id);
    expect(ids).toHaveLength(1);
    expect(await h.relay.dispatch(ids)).toBe(1);
    expect(await outboxIds(id)).toEqual([]);

    // The crash: the delete never committed, so the row is back as it was and is carried out again.
    const row = copy[0] as Record<string, unknown>;
    await h.db.query(sql.unsafe`
      INSERT INTO outbox (id, tenant_id, mode, actor_id, kind, payload, created_at) OVERRIDING SYSTEM VALUE
      VALUES (${row.id as number}, ${row.tenant_id as string}, ${row.mode as string}, ${row.actor_id as string}, ${row.kind as string},
              ${sql.jsonb(row.payload as never)}, ${row.created_at as string})`);
    expect(await h.relay.dispatch(ids)).toBe(1);
    expect(await h.relay.dispatch(ids)).toBe(0); // gone
    const all = await h.queues.queue('checks').getJobs(['waiting', 'delayed', 'active', 'completed', 'failed']);
    expect(all.filter((j) => j.id === toBullJobId(jobId))).toHaveLength(1);
  });

  it('given a delayed job, when dispatched, then it waits in BullMQ with the remaining delay', async () => {
    const id = await createCounter();
    await runtime.send(h.scope, counter(id), { type: 'counter.queued', jobId: `${id}.later`, delayMs: 60_000 });
    await eventually(async () => (await undispatched(id)) === 0);
    const job = await h.queues.queue('checks').getJob(`${id}.later`);
    expect(await job?.getState()).toBe('delayed');
    expect(job?.opts.delay).toBeGreaterThan(55_000);
    expect(job?.opts.delay).toBeLessThanOrEqual(60_000);
  });

  it('given an appended event, when dispatched, then publish gets the StreamEvent', async () => {
    const id = await createCounter();
    const r = await runtime.send(h.scope, counter(id), { type: 'counter.bumped' });
    await eventually(async () => (await undispatched(id)) === 0);
    expect(h.published.filter((e) => e.stream_id === id)).toEqual(r.events);
    expect(r.events[0]).toMatchObject({ stream_id: id, seq: 1, type: 'Bumped', payload: { count: 1 } });
    expect(typeof r.events[0]?.occurred_at).toBe('string');
  });

  it('given rows a crash left undispatched, when swept, then they are carried out once', async () => {
    // A runtime whose dispatch never happens: the process died right after commit.
    const crashed = h.runtime({ relay: { dispatchWritten: () => Promise.resolve(0) } });
    const id = randomUUID();
    await crashed.create(h.scope, { kind: 'counter', id, input: { label: 'x' }, event: { type: 'counter.bumped' } });
    await crashed.send(h.scope, counter(id), { type: 'counter.queued', jobId: `${id}.swept` });
    expect(await undispatched(id)).toBe(2);
    expect(h.published.some((e) => e.stream_id === id)).toBe(false);

    expect(await h.relay.sweep(60_000)).toBe(0); // too young for a sweep that spares fresh rows
    const [a, b] = await Promise.all([h.relay.sweep(0), h.relay.sweep(0)]); // SKIP LOCKED: no double work
    expect(a + b).toBeGreaterThanOrEqual(2);
    expect(await undispatched(id)).toBe(0);
    expect(h.published.filter((e) => e.stream_id === id).map((e) => e.seq)).toEqual([1]);
    // The publish row named its event; the sweep read the event back from the stream, whole.
    expect(h.published.filter((e) => e.stream_id === id)).toEqual(await runtime.readEvents(h.scope, id, 0, 10));
    expect(await h.queues.queue('checks').getJob(`${id}.swept`)).toBeTruthy();
  });

  it('given a publish row holding the whole event (written before 000112) and one naming no event, when swept, then the first is published as it is and the second dropped, without holding up the rest', async () => {
    const crashed = h.runtime({ relay: { dispatchWritten: () => Promise.resolve(0) } });
    const id = randomUUID();
    await crashed.create(h.scope, { kind: 'counter', id, input: { label: 'x' }, event: { type: 'counter.bumped' } });
    const [event] = await runtime.readEvents(h.scope, id, 0, 10);
    await h.db.query(sql.unsafe`UPDATE outbox SET payload = ${sql.jsonb(event as never)} WHERE actor_id = ${id} AND kind = 'publish'`);
    const tenantId = h.scope.tenantId!;
    await h.db.query(sql.unsafe`
      INSERT INTO outbox (tenant_id, mode, actor_id, kind, payload)
      VALUES (${tenantId}, ${h.scope.mode}, ${id}, 'publish', ${sql.jsonb({ stream_id: id, seq: 99 })}),
             (${tenantId}, ${h.scope.mode}, ${id}, 'publish', ${sql.jsonb({ stream_id: 'not-a-stream', seq: 1 })})`);
    expect(await undispatched(id)).toBe(3);
    await h.relay.sweep(0);
    expect(await undispatched(id)).toBe(0);
    expect(h.published.filter((e) => e.stream_id === id)).toEqual([event]);
  });

  it('given start, then it sweeps at once and stop waits for it', async () => {
    const crashed = h.runtime({ relay: { dispatchWritten: () => Promise.resolve(0) } });
    const id = randomUUID();
    await crashed.create(h.scope, { kind: 'counter', id, input: { label: 'x' }, event: { type: 'counter.bumped' } });
    const relay = createRelay({ db: h.db, queues: (n) => h.queues.named(n), publish: async () => {}, log: silentLog });
    await h.db.query(sql.unsafe`UPDATE outbox SET created_at = now() - interval '1 minute' WHERE actor_id = ${id}`);
    relay.start(60_000);
    await eventually(async () => (await undispatched(id)) === 0);
    await relay.stop();
  });

  it('given Redis refusing the add, when dispatched, then the row stays for the sweep and the call still succeeds', async () => {
    const broken = createRelay({
      db: h.db,
      queues: () => {
        throw new Error('redis down');
      },
      publish: async () => {},
      log: silentLog,
    });
    const id = randomUUID();
    const viaBroken = h.runtime({ relay: broken });
    await viaBroken.create(h.scope, { kind: 'counter', id, input: { label: 'x' } });
    await expect(viaBroken.send(h.scope, counter(id), { type: 'counter.queued', jobId: `${id}.retry` })).resolves.toMatchObject({
      changed: true,
    });
    expect(await undispatched(id)).toBe(1);
    await h.relay.sweep(0);
    expect(await undispatched(id)).toBe(0);
  });
});

describe('timers', () => {
  it('given a scheduled event, when it comes due, then its timer handler gets it and the actor takes it', async () => {
    const id = await createCounter();
    await runtime.send(h.scope, counter(id), { type: 'counter.timed', timerId: `${id}:tick`, delayMs: 100 });
    await eventually(async () => (await undispatched(id)) === 0);
    const job = await h.queues.queue('timers').getJob(toBullJobId(`${id}:tick`));
    expect(job?.name).toBe('actor.timer');
    await eventually(() => fired.find((f) => f.actorId === id));
    expect(fired.filter((f) => f.actorId === id)).toEqual([
      { tenantId: h.scope.tenantId, mode: 'test', actorId: id, event: { type: 'counter.bumped' } },
    ]);
    await eventually(async () => (await runtime.read(h.scope, counter(id)))?.version === 3);
    expect((await runtime.read(h.scope, counter(id)))?.snapshot).toMatchObject({ context: { count: 1 } });
  });

  it('given a timer job with a malformed payload, when processed, then it fails once without retries', async () => {
    // Added by name, past the catalog's types, as a producer that never heard of them would.
    const timers = h.queues.named('timers');
    const bad = await timers.add('actor.timer', { actorId: 'not-a-uuid' }, { attempts: 5, jobId: `bad-${randomUUID()}` });
    const failure = await eventually(() => failures.find((f) => f.job?.id === bad.id));
    expect(failure.err).toBeInstanceOf(UnrecoverableError);
    const after = await timers.getJob(bad.id!);
    expect(await after?.getState()).toBe('failed');
    expect(after?.attemptsMade).toBe(1);
  });
});

describe('queues', () => {
  it('refuses a queue that is not in the catalog', () => {
    const queues = createQueues({ connection: REDIS, prefix: h.prefix });
    expect(() => queues.named('nope')).toThrow(/unknown queue/);
  });
});
