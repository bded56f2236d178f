import { randomUUID } from 'node:crypto';
import { sql } from 'slonik';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ActionUnknownError, ActorNotFoundError, MachineVersionUnknownError } from '../../actors/errors.js';
import type { ActorRuntime, MachineKinds } from '../../actors/runtime.js';
import { INQUIRY_MACHINE_VERSION, inquiryMachine, type InquiryEvent } from '../../machines/inquiryMachine.js';
import { toBullJobId } from '../../actors/relay.js';
import { appendEventsAndOutbox } from '../../actors/store.js';
import { claimOutboxByIds, scopeRelay } from '../../actors/outboxStore.js';
import { withSystem, withTenant } from '../../src/platform/db/pool.js';
import { counter, counterMachine, eventually, startHarness, type CounterKinds, type Harness } from './support.js';
import { anAssessment } from '../machines/anAssessment.js';

let h: Harness;
let runtime: ActorRuntime<CounterKinds>;

beforeAll(async () => {
  h = await startHarness();
  runtime = h.runtime();
});
afterAll(async () => {
  await h.close();
});

const createCounter = (id = randomUUID()) => runtime.create(h.scope, { kind: 'counter', id, input: { label: 'c' } }).then(() => id);
const bump = { type: 'counter.bumped' } as const;

describe('create and send', () => {
  it('given a new actor, when created, then its snapshot is saved at version 1 with the machine version', async () => {
    const id = randomUUID();
    const created = await runtime.create(h.scope, { kind: 'counter', id, input: { label: 'first' } });
    expect(created.state).toBe('counting');
    expect(created.events).toEqual([]);
    const stored = await runtime.read(h.scope, counter(id));
    expect(stored).toMatchObject({ id, kind: 'counter', state: 'counting', version: 1, machineVersion: 1 });
    expect(stored?.snapshot).toMatchObject({ value: 'counting', status: 'active', context: { count: 0, label: 'first' } });
  });

  it('given an actor, when events are sent, then each saves a new version and events get seq 1, 2, 3 per stream', async () => {
    const id = await createCounter();
    const other = await createCounter();
    const seqs: number[] = [];
    for (let i = 1; i <= 3; i += 1) {
      const r = await runtime.send(h.scope, counter(id), bump);
      expect(r.changed).toBe(true);
      expect(r.snapshot.context).toMatchObject({ count: i });
      seqs.push(...r.events.map((e) => e.seq));
    }
    expect(seqs).toEqual([1, 2, 3]);
    expect((await runtime.send(h.scope, counter(other), bump)).events.map((e) => e.seq)).toEqual([1]);
    expect((await runtime.read(h.scope, counter(id)))?.version).toBe(4);
    const events = await runtime.readEvents(h.scope, id, 1, 10);
    expect(events.map((e) => [e.seq, e.type, e.payload])).toEqual([
      [2, 'Bumped', { count: 2 }],
      [3, 'Bumped', { count: 3 }],
    ]);
  });

  it('given a first event at creation, when created, then it is taken in the same transaction', async () => {
    const id = randomUUID();
    const created = await runtime.create(h.scope, { kind: 'counter', id, input: { label: 'c' }, event: bump });
    expect(created.snapshot.context).toMatchObject({ count: 1 });
    expect(created.events.map((e) => [e.stream_id, e.seq, e.type])).toEqual([[id, 1, 'Bumped']]);
    expect((await runtime.read(h.scope, counter(id)))?.version).toBe(1);
  });

  it('given one actor, when 20 commands arrive at once, then all apply and the seqs are gapless and unique', async () => {
    const id = await createCounter();
    const results = await Promise.all(Array.from({ length: 20 }, () => runtime.send(h.scope, counter(id), bump)));
    const seqs = results.flatMap((r) => r.events.map((e) => e.seq)).sort((a, b) => a - b);
    expect(seqs).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    const stored = await runtime.read(h.scope, counter(id));
    expect(stored?.version).toBe(21);
    expect(stored?.snapshot).toMatchObject({ context: { count: 20 } });
    expect((await runtime.readEvents(h.scope, id, 0, 100)).map((e) => e.payload.count)).toEqual(seqs);
  });

  it('given an event the state ignores, when sent, then nothing is written and changed is false', async () => {
    const id = await createCounter();
    await runtime.send(h.scope, counter(id), { type: 'counter.stopped' });
    const r = await runtime.send(h.scope, counter(id), bump);
    expect(r).toMatchObject({ changed: false, state: 'stopped', events: [] });
    expect((await runtime.read(h.scope, counter(id)))?.version).toBe(2);
  });

  it('given a builder, when sent, then it sees the restored snapshot under the lock, and null sends nothing', async () => {
    const id = await createCounter();
    await runtime.send(h.scope, counter(id), bump);
    const seen: unknown[] = [];
    const r = await runtime.send(h.scope, counter(id), (snapshot) => {
      seen.push(snapshot.context);
      return (snapshot.context as { count: number }).count < 2 ? bump : null;
    });
    expect(seen).toEqual([{ count: 1, label: 'c' }]);
    expect(r.snapshot.context).toMatchObject({ count: 2 });
    const none = await runtime.send(h.scope, counter(id), () => null);
    expect(none.changed).toBe(false);
    expect((await runtime.read(h.scope, counter(id)))?.version).toBe(3);
  });

  it('given prepare and inTx, when created, then prepare runs before the effects and inTx after them', async () => {
    const order: string[] = [];
    const rt = h.runtime({ effects: { noteCount: () => Promise.resolve(void order.push('effect')) } });
    await rt.create(h.scope, {
      kind: 'counter',
      id: randomUUID(),
      input: { label: 'c' },
      event: bump,
      prepare: () => Promise.resolve(void order.push('prepare')),
      inTx: () => Promise.resolve(void order.push('inTx')),
    });
    expect(order).toEqual(['prepare', 'effect', 'inTx']);
  });

  it('given effects, when they run, then they get the params, the actor and the tenant-scoped transaction', async () => {
    const id = await createCounter();
    await runtime.send(h.scope, counter(id), bump);
    expect(h.noted.filter((n) => n.actorId === id)).toEqual([{ actorId: id, count: 1, tenantSetting: h.scope.tenantId }]);
  });
});

describe('refusals', () => {
  it("given no such actor, or another tenant's, when sent or read, then ERR_ACTOR_NOT_FOUND / null", async () => {
    await expect(runtime.send(h.scope, counter(randomUUID()), bump)).rejects.toMatchObject({ code: 'ERR_ACTOR_NOT_FOUND' });
    const id = await createCounter();
    await expect(runtime.send(h.otherScope, counter(id), bump)).rejects.toBeInstanceOf(ActorNotFoundError);
    expect(await runtime.read(h.otherScope, counter(id))).toBeNull();
    expect(await runtime.read({ tenantId: h.scope.tenantId, mode: 'live' }, counter(id))).toBeNull();
  });

  it('given a snapshot of an unknown machine version, when sent or read, then ERR_MACHINE_VERSION_UNKNOWN', async () => {
    const id = await createCounter();
    await h.db.query(sql.unsafe`UPDATE actors SET machine_version = 99 WHERE id = ${id}`);
    await expect(runtime.send(h.scope, counter(id), bump)).rejects.toBeInstanceOf(MachineVersionUnknownError);
    await expect(runtime.read(h.scope, counter(id))).rejects.toMatchObject({ code: 'ERR_MACHINE_VERSION_UNKNOWN' });
  });

  it('given an older version with a migration step, when sent, then it is migrated and saved at the current version', async () => {
    const id = await createCounter();
    const v2 = h.runtime({
      machines: {
        counter: {
          machine: counterMachine,
          version: 2,
          migrations: { 1: (s) => ({ ...s, context: { ...(s.context as object), label: 'migrated' } }) },
        },
      },
    });
    const r = await v2.send(h.scope, counter(id), bump);
    expect(r.snapshot.context).toEqual({ count: 1, label: 'migrated' });
    expect(await v2.read(h.scope, counter(id))).toMatchObject({ machineVersion: 2, version: 2 });
    // A process that only knows version 1 now refuses it instead of misreading it.
    await expect(runtime.send(h.scope, counter(id), bump)).rejects.toMatchObject({ code: 'ERR_MACHINE_VERSION_UNKNOWN' });
  });

  it('given an older version without a migration step, when sent, then it is refused', async () => {
    const id = await createCounter();
    const v3 = h.runtime({ machines: { counter: { machine: counterMachine, version: 3, migrations: { 2: (s) => s } } } });
    await expect(v3.send(h.scope, counter(id), bump)).rejects.toMatchObject({ code: 'ERR_MACHINE_VERSION_UNKNOWN' });
  });

  describe('a write that bypassed the row lock (simulated by an effect bumping the version)', () => {
    const tampering = (times: number) => {
      let calls = 0;
      const rt = h.runtime({
        effects: {
          noteCount: async (tx, _params, ctx) => {
            calls += 1;
            if (calls <= times) await tx.query(sql.unsafe`UPDATE actors SET version = version + 1 WHERE id = ${ctx.actorId}`);
          },
        },
      });
      return { rt, calls: () => calls };
    };

    it('given one conflict, when sent, then the command is retried and applies once', async () => {
      const id = await createCounter();
      const { rt, calls } = tampering(1);
      const r = await rt.send(h.scope, counter(id), bump);
      expect(calls()).toBe(2);
      expect(r.events.map((e) => e.seq)).toEqual([1]);
      expect(await runtime.read(h.scope, counter(id))).toMatchObject({ version: 2, snapshot: { context: { count: 1 } } });
    });

    it('given conflicts on every attempt, when sent, then ERR_ACTOR_VERSION_CONFLICT after 3 attempts', async () => {
      const id = await createCounter();
      const { rt, calls } = tampering(Number.POSITIVE_INFINITY);
      await expect(rt.send(h.scope, counter(id), bump)).rejects.toMatchObject({ code: 'ERR_ACTOR_VERSION_CONFLICT', retryable: true });
      expect(calls()).toBe(3);
      expect((await runtime.read(h.scope, counter(id)))?.version).toBe(1);
    });
  });

  it('given an action nobody handles, when sent, then ERR_ACTION_UNKNOWN and nothing is saved', async () => {
    const id = await createCounter();
    await expect(runtime.send(h.scope, counter(id), { type: 'counter.misbehaved' })).rejects.toBeInstanceOf(ActionUnknownError);
    expect((await runtime.read(h.scope, counter(id)))?.version).toBe(1);
  });

  it('given an actor of another kind, when sent or read as this kind, then ERR_ACTOR_NOT_FOUND / null: its context is never taken for this kind’s', async () => {
    const both = h.runtime<CounterKinds & { tally: typeof counterMachine }>({
      machines: { counter: { machine: counterMachine, version: 1 }, tally: { machine: counterMachine, version: 1 } },
    });
    const id = await createCounter();
    await expect(both.send(h.scope, { kind: 'tally', id }, bump)).rejects.toBeInstanceOf(ActorNotFoundError);
    expect(await both.read(h.scope, { kind: 'tally', id })).toBeNull();
    expect(await both.read(h.scope, { kind: 'counter', id })).toMatchObject({ kind: 'counter', context: { count: 0, label: 'c' } });
  });

  it('given an unknown kind, when created, then ERR_ACTOR_KIND_UNKNOWN', async () => {
    // The types refuse a kind the map does not name; a runtime over any kinds lets the call reach the check.
    const anyKind = runtime as unknown as ActorRuntime<MachineKinds>;
    await expect(anyKind.create(h.scope, { kind: 'nope', id: randomUUID(), input: {} })).rejects.toMatchObject({
      code: 'ERR_ACTOR_KIND_UNKNOWN',
    });
  });
});

describe('rollback', () => {
  it('given a failing inTx on create, then no actor, event or outbox row remains', async () => {
    const id = randomUUID();
    const failing = runtime.create(h.scope, {
      kind: 'counter',
      id,
      input: { label: 'c' },
      event: bump,
      inTx: () => Promise.reject(new Error('audit write failed')),
    });
    await expect(failing).rejects.toThrow('audit write failed');
    expect([
      await h.count('actors', 'id', id),
      await h.count('actor_events', 'stream_id', id),
      await h.count('outbox', 'actor_id', id),
    ]).toEqual([0, 0, 0]);
  });

  it('given a failing inTx on send, then the snapshot, events and outbox rows are as before', async () => {
    // Never dispatched, so the outbox rows stay to be counted (the relay deletes what it carries out).
    const runtime = h.runtime({ relay: { dispatchWritten: () => Promise.resolve(0) } });
    const id = randomUUID();
    await runtime.create(h.scope, { kind: 'counter', id, input: { label: 'c' } });
    await runtime.send(h.scope, counter(id), bump);
    const before = [await h.count('actor_events', 'stream_id', id), await h.count('outbox', 'actor_id', id)];
    const seenInTx: number[] = [];
    const failing = runtime.send(h.scope, counter(id), bump, {
      inTx: async (tx, result) => {
        const inside = await tx.oneFirst(sql.type(z.object({ n: z.number() }))`
          SELECT count(*)::int AS n FROM actor_events WHERE stream_id = ${id}`);
        seenInTx.push(result.events[0]!.seq, inside);
        throw new Error('boom');
      },
    });
    await expect(failing).rejects.toThrow('boom');
    expect(seenInTx).toEqual([2, 2]); // inside the transaction the new event exists...
    expect([await h.count('actor_events', 'stream_id', id), await h.count('outbox', 'actor_id', id)]).toEqual(before); // ...and after the rollback it never did
    expect(await runtime.read(h.scope, counter(id))).toMatchObject({ version: 2, snapshot: { context: { count: 1 } } });
  });
});

describe('the inquiry machine on the runtime', () => {
  it('given an inquiry waiting on a worker check, when the check reports twice, then it concludes once', async () => {
    const calls: { type: string; params: unknown; tenant: string | null }[] = [];
    const effect = (type: string) => (_tx: unknown, params: unknown, ctx: { scope: { tenantId: string | null } }) =>
      Promise.resolve(void calls.push({ type, params, tenant: ctx.scope.tenantId }));
    const inquiries = h.runtime({
      machines: { inquiry: { machine: inquiryMachine, version: INQUIRY_MACHINE_VERSION } },
      effects: { updateInquiryStatus: effect('updateInquiryStatus'), recordAssessment: effect('recordAssessment') },
    });
    const id = randomUUID();
    const job = { queue: 'checks', name: 'check.run', jobId: `${id}:dns`, data: { key: 'dns' } };
    const evaluated: InquiryEvent = {
      type: 'inquiry.evaluated',
      signals: [],
      absences: [],
      pending: [{ key: 'dns', job }],
      assessment: anAssessment('a-0'),
      narrowEnough: false,
      deadlineMs: 60_000,
      maxReasoningMs: 120_000,
    };
    const created = await inquiries.create(h.scope, {
      kind: 'inquiry',
      id,
      input: { inquiry_id: id, preliminaryAllowed: false },
      event: evaluated,
    });
    expect(created.state).toBe('reasoning');
    // One job and two timers, carried out by the relay (which then deletes their outbox rows).
    await eventually(async () => (await h.count('outbox', 'actor_id', id)) === 0);
    expect(await h.queues.queue('checks').getJob(toBullJobId(job.jobId))).toBeTruthy();
    const timers = await h.queues.queue('timers').getDelayed();
    expect(timers.filter((t) => (t.data as { actorId?: string }).actorId === id)).toHaveLength(2);

    const report: InquiryEvent = {
      type: 'check.reported',
      key: 'dns',
      signals: [],
      absences: [],
      assessment: anAssessment('a-1'),
      narrowEnough: false,
    };
    const done = await inquiries.send(h.scope, { kind: 'inquiry', id }, report);
    expect(done.state).toBe('concluded');
    expect(done.events.map((e) => [e.seq, e.type])).toEqual([
      [1, 'AssessmentIssued'],
      [2, 'InquiryConcluded'],
    ]);
    expect((await inquiries.send(h.scope, { kind: 'inquiry', id }, report)).changed).toBe(false);

    expect(calls.map((c) => c.type)).toEqual(['updateInquiryStatus', 'updateInquiryStatus', 'recordAssessment', 'updateInquiryStatus']);
    expect(calls[2]).toEqual({
      type: 'recordAssessment',
      params: { assessment: anAssessment('a-1', { preliminary: false }), record: null },
      tenant: h.scope.tenantId,
    });
    expect(h.published.filter((e) => e.stream_id === id)).toEqual(done.events);
  });
});

describe('appendEventsAndOutbox', () => {
  it('given events, jobs and timers in one command, when appended, then the rows it hands the relay are the stored rows, in id order', async () => {
    const id = await createCounter();
    const events = [
      { type: 'First', payload: { n: 1, nested: { list: [1, 'two'] } } },
      { type: 'Second', payload: { n: 2 } },
    ];
    const outbox = [
      { kind: 'job' as const, payload: { queue: 'checks', name: 'check.run', jobId: `j1-${id}`, data: { n: 1 } } },
      { kind: 'timer' as const, payload: { event: { type: 'counter.bumped' }, delayMs: 60_000, timerId: `t1-${id}` } },
      { kind: 'job' as const, payload: { queue: 'checks', name: 'check.run', jobId: `j2-${id}`, data: { n: 2 } } },
    ];
    const written = await withTenant(h.db, h.scope, (tx) =>
      appendEventsAndOutbox(tx, { streamId: id, tenantId: h.scope.tenantId!, mode: 'test', events, outbox }),
    );
    const storedEvents = await runtime.readEvents(h.scope, id, 0, 10);
    expect(written.events).toEqual(storedEvents);
    // As the relay's sweep reads them back: a publish row names its event, read from the stream.
    const ids = written.outbox.map((r) => r.id);
    const storedOutbox = await withSystem(h.db, async (tx) => {
      await scopeRelay(tx);
      return (await claimOutboxByIds(tx, ids)).map((r) => ({ id: r.id, kind: r.kind, payload: r.payload }));
    });
    expect(written.outbox).toEqual(storedOutbox);
    const names = await withSystem(h.db, (tx) =>
      tx.any(
        sql.type(z.object({ payload: z.unknown() }))`SELECT payload FROM outbox WHERE actor_id = ${id} AND kind = 'publish' ORDER BY id`,
      ),
    );
    expect(names.map((r) => r.payload)).toEqual([
      { stream_id: id, seq: 1 },
      { stream_id: id, seq: 2 },
    ]);
    expect(written.outbox.map((r) => r.kind)).toEqual(['publish', 'publish', 'job', 'timer', 'job']);
  });
});
