import { randomBytes, randomUUID } from 'node:crypto';
import pino from 'pino';
import { sql } from 'slonik';
import { assign, setup } from 'xstate';
import { z } from 'zod';
import { createRelay, type Relay } from '../../actors/relay.js';
import { createActorRuntime, type ActorRuntimeDeps, type ActorRuntime, type MachineKinds } from '../../actors/runtime.js';
import type { OutboxJob, StreamEvent } from '../../actors/types.js';
import { createDb, type Db, type TenantScope } from '../../src/platform/db/pool.js';
import { createQueues, type Queues } from '../../actors/queues.js';
import { cloneDatabase } from '../support/database.js';
import { eventually as waitFor } from '../support/wait.js';

/**
 * What the actor tests share: a cloned database with a tenant or two, a
 * random BullMQ prefix on the real Redis, a relay that records publishes, and
 * a tiny machine that exercises every kind of action.
 */

export const REDIS = { host: '127.0.0.1', port: 6379 };

/**
 * An action the runtime carries out (an effect of the same name): the machine
 * declares it only so its params are typed, and the function does nothing.
 */
export function byRuntime<P>(): (args: unknown, params: P) => void {
  return () => {};
}

export type CounterEvent =
  | { type: 'counter.bumped' }
  | { type: 'counter.queued'; jobId: string; delayMs?: number }
  | { type: 'counter.timed'; timerId: string; delayMs: number }
  | { type: 'counter.misbehaved' }
  | { type: 'counter.stopped' };

/** counting --counter.stopped--> stopped. Every bump appends `Bumped` and runs the `noteCount` effect. */
export const counterMachine = setup({
  types: { context: {} as { count: number; label: string }, events: {} as CounterEvent, input: {} as { label: string } },
  actions: {
    appendEvent: byRuntime<{ type: string; payload: Record<string, unknown> }>(),
    enqueueJob: byRuntime<OutboxJob>(),
    scheduleEvent: byRuntime<{ event: { type: string }; delayMs: number; timerId: string }>(),
    noteCount: byRuntime<{ count: number }>(),
    launchMissiles: () => {},
  },
}).createMachine({
  id: 'counter',
  initial: 'counting',
  context: ({ input }) => ({ count: 0, label: input.label }),
  states: {
    counting: {
      on: {
        'counter.bumped': {
          actions: [
            assign({ count: ({ context }) => context.count + 1 }),
            { type: 'appendEvent', params: ({ context }) => ({ type: 'Bumped', payload: { count: context.count } }) },
            { type: 'noteCount', params: ({ context }) => ({ count: context.count }) },
          ],
        },
        'counter.queued': {
          actions: {
            type: 'enqueueJob',
            params: ({ event }) => ({ queue: 'checks', name: 'check.run', jobId: event.jobId, data: { n: 1 }, delayMs: event.delayMs }),
          },
        },
        'counter.timed': {
          actions: {
            type: 'scheduleEvent',
            params: ({ event }) => ({ event: { type: 'counter.bumped' }, delayMs: event.delayMs, timerId: event.timerId }),
          },
        },
        'counter.misbehaved': { actions: 'launchMissiles' },
        'counter.stopped': 'stopped',
      },
    },
    stopped: { type: 'final' },
  },
});

/** The kinds of the harness's default runtime, and a counter as a command names it. */
export type CounterKinds = { counter: typeof counterMachine };
export const counter = (id: string) => ({ kind: 'counter' as const, id });

export interface Harness {
  db: Db;
  prefix: string;
  queues: Queues;
  relay: Relay;
  published: StreamEvent[];
  scope: TenantScope;
  otherScope: TenantScope;
  noted: { actorId: string; count: number; tenantSetting: string }[];
  /** A runtime of the counter machine, or of the machines given (their map typed by M). */
  runtime<M extends MachineKinds = CounterKinds>(over?: Partial<ActorRuntimeDeps<M>>): ActorRuntime<M>;
  count(table: 'actors' | 'actor_events' | 'outbox', column: 'id' | 'stream_id' | 'actor_id', id: string): Promise<number>;
  close(): Promise<void>;
}

export const silentLog = pino({ level: 'silent' });

export async function startHarness(): Promise<Harness> {
  const database = await cloneDatabase();
  // Smaller than the concurrency tests' fan-out, so commands also queue for connections.
  const db = await createDb(database.url, { maximumPoolSize: 10 });
  const prefix = `tastest:${randomBytes(4).toString('hex')}`;
  const queues = createQueues({ connection: REDIS, prefix });
  const published: StreamEvent[] = [];
  const relay = createRelay({
    db,
    queues: (name) => queues.named(name),
    publish: (_stream, e) => Promise.resolve(void published.push(e)),
    log: silentLog,
  });
  const scope: TenantScope = { tenantId: await insertTenant(db, 'acme'), mode: 'test' };
  const otherScope: TenantScope = { tenantId: await insertTenant(db, 'globex'), mode: 'test' };
  const noted: Harness['noted'] = [];

  const runtime = <M extends MachineKinds = CounterKinds>(over: Partial<ActorRuntimeDeps<M>> = {}) =>
    createActorRuntime<M>({
      db,
      relay,
      // The counter unless the test gives its own machines (then M is their map).
      machines: { counter: { machine: counterMachine, version: 1 } } as unknown as ActorRuntimeDeps<M>['machines'],
      effects: {
        // Proves effects run in the command's transaction, scoped to its tenant.
        noteCount: async (tx, params: { count: number }, ctx) => {
          const tenantSetting = await tx.oneFirst(sql.type(z.object({ t: z.string() }))`SELECT current_setting('tas.tenant_id') AS t`);
          noted.push({ actorId: ctx.actorId, count: params.count, tenantSetting });
        },
      },
      ...over,
    });

  return {
    db,
    prefix,
    queues,
    relay,
    published,
    scope,
    otherScope,
    noted,
    runtime,
    async count(table, column, id) {
      return db.oneFirst(sql.type(z.object({ n: z.number() }))`
        SELECT count(*)::int AS n FROM ${sql.identifier([table])} WHERE ${sql.identifier([column])} = ${id}`);
    },
    async close() {
      await relay.stop();
      for (const name of ['checks', 'timers'] as const) await queues.queue(name).obliterate({ force: true });
      await queues.close();
      await db.end();
      await database.drop();
    },
  };
}

async function insertTenant(db: Db, name: string): Promise<string> {
  const id = randomUUID();
  await db.query(sql.unsafe`INSERT INTO tenants (id, name) VALUES (${id}, ${name})`);
  return id;
}

/** Polls until `check` returns a value, or fails after `timeoutMs` (test/support/wait.ts). */
export function eventually<T>(
  check: () => T | null | undefined | false | Promise<T | null | undefined | false>,
  timeoutMs = 5000,
): Promise<T> {
  return waitFor(check, { timeout: timeoutMs });
}
