import { randomUUID } from 'node:crypto';
import { sql } from 'slonik';
import { setup } from 'xstate';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blindEffect, type BlindWrite } from '../../actors/actions.js';
import type { ActorRuntime } from '../../actors/runtime.js';
import { byRuntime, startHarness, type Harness } from './support.js';

/**
 * Blind writes (actors/actions.ts, issue 15): an effect made with
 * `blindEffect` defers its write to the command's last statement. What must
 * not change is what the transaction leaves: every write lands, two writes to
 * one table land in the order they were made, a later write with the same
 * key replaces the earlier one, an effect that is not blind sees every write
 * made before it, and a failure rolls all of them back with the command.
 */
type LedgerEvent = { type: 'ledger.write'; fail?: boolean };

const ledgerMachine = setup({
  types: { context: {}, events: {} as LedgerEvent },
  actions: {
    appendEvent: byRuntime<{ type: string; payload: Record<string, unknown> }>(),
    record: byRuntime<{ n: number }>(),
    status: byRuntime<{ s: string }>(),
    peek: () => {},
    explode: () => {},
  },
}).createMachine({
  id: 'ledger',
  initial: 'open',
  context: {},
  states: {
    open: {
      on: {
        'ledger.write': {
          actions: [
            { type: 'record', params: { n: 1 } },
            { type: 'status', params: { s: 'first' } },
            { type: 'record', params: { n: 2 } },
            { type: 'status', params: { s: 'last' } },
            { type: 'peek' },
            { type: 'record', params: { n: 3 } },
            { type: 'appendEvent', params: { type: 'Written', payload: {} } },
            { type: 'explode', params: ({ event }: { event: LedgerEvent }) => ({ fail: event.fail === true }) },
          ],
        },
      },
    },
  },
});

// A machine whose creation makes a row beside the actor (`writes`) and then moves its status twice.
const bornMachine = setup({
  types: { context: {}, events: {} as { type: 'born.settle' } },
  actions: { appendEvent: byRuntime<{ type: string; payload: Record<string, unknown> }>(), settle: byRuntime<{ s: string }>() },
}).createMachine({
  id: 'born',
  initial: 'open',
  context: {},
  states: {
    open: {
      on: {
        'born.settle': {
          actions: [
            { type: 'settle', params: { s: 'reasoning' } },
            { type: 'settle', params: { s: 'concluded' } },
            { type: 'appendEvent', params: { type: 'Settled', payload: {} } },
          ],
        },
      },
    },
  },
});

const bornRow = (id: string, status: string): BlindWrite => ({
  table: 'blind_born',
  replaces: `born:${id}`,
  sql: sql.fragment`INSERT INTO blind_born (actor_id, status) VALUES (${id}, ${status})`,
  absorb: (sets) => bornRow(id, String(sets.status)),
});

let h: Harness;
let runtime: ActorRuntime<{ ledger: typeof ledgerMachine }>;
const peeked: number[] = [];

const rowsOf = (id: string) =>
  h.db.any(sql.type(z.object({ n: z.number() }))`SELECT n FROM blind_probe WHERE actor_id = ${id} ORDER BY seq`);
const statusOf = (id: string) =>
  h.db.any(sql.type(z.object({ status: z.string() }))`SELECT status FROM blind_status WHERE actor_id = ${id}`);

beforeAll(async () => {
  h = await startHarness();
  await h.db.query(sql.unsafe`CREATE TABLE blind_probe (seq bigserial PRIMARY KEY, actor_id text NOT NULL, n int NOT NULL)`);
  await h.db.query(sql.unsafe`CREATE TABLE blind_status (actor_id text PRIMARY KEY, status text NOT NULL)`);
  // Each row keeps the text of the statement that inserted it, so a test can tell which statement that was.
  await h.db.query(
    sql.unsafe`CREATE TABLE blind_born (actor_id text PRIMARY KEY, status text NOT NULL, inserted_by text NOT NULL DEFAULT current_query())`,
  );
  await h.db.query(sql.unsafe`GRANT SELECT, INSERT, UPDATE ON blind_probe, blind_status, blind_born TO tas_service`);
  await h.db.query(sql.unsafe`GRANT USAGE ON SEQUENCE blind_probe_seq_seq TO tas_service`);
  runtime = h.runtime({
    machines: { ledger: { machine: ledgerMachine, version: 1 } },
    effects: {
      record: blindEffect((_tx, p: { n: number }, ctx) =>
        Promise.resolve(
          ctx.defer({ table: 'blind_probe', sql: sql.fragment`INSERT INTO blind_probe (actor_id, n) VALUES (${ctx.actorId}, ${p.n})` }),
        ),
      ),
      status: blindEffect((_tx, p: { s: string }, ctx) => {
        ctx.defer({
          table: 'blind_status',
          replaces: `status:${ctx.actorId}`,
          sql: sql.fragment`INSERT INTO blind_status (actor_id, status) VALUES (${ctx.actorId}, ${p.s}) ON CONFLICT (actor_id) DO UPDATE SET status = excluded.status`,
        });
        return Promise.resolve();
      }),
      peek: async (tx, _p, ctx) => {
        peeked.push(
          await tx.oneFirst(
            sql.type(z.object({ n: z.number() }))`SELECT count(*)::int AS n FROM blind_probe WHERE actor_id = ${ctx.actorId}`,
          ),
        );
      },
      explode: (_tx, p: { fail: boolean }) => (p.fail ? Promise.reject(new Error('effect failed')) : Promise.resolve()),
    },
  });
});
afterAll(async () => {
  await h.close();
});

describe('blind writes', () => {
  it('land in the order they were made, a row written twice ends as written last, and a plain effect sees every write before it', async () => {
    const id = randomUUID();
    peeked.length = 0;
    const created = await runtime.create(h.scope, { kind: 'ledger', id, input: {}, event: { type: 'ledger.write' } });
    expect(created.events.map((e) => e.type)).toEqual(['Written']);
    expect((await rowsOf(id)).map((r) => r.n)).toEqual([1, 2, 3]);
    expect((await statusOf(id)).map((r) => r.status)).toEqual(['last']);
    expect(peeked).toEqual([2]);
    expect(await h.count('actors', 'id', id)).toBe(1);
  });

  it('roll back with the command when a later effect fails: no actor, row, event or outbox row remains', async () => {
    const id = randomUUID();
    await expect(runtime.create(h.scope, { kind: 'ledger', id, input: {}, event: { type: 'ledger.write', fail: true } })).rejects.toThrow(
      'effect failed',
    );
    expect(await rowsOf(id)).toEqual([]);
    expect(await statusOf(id)).toEqual([]);
    expect(await h.count('actors', 'id', id)).toBe(0);
    expect(await h.count('actor_events', 'stream_id', id)).toBe(0);
    expect(await h.count('outbox', 'actor_id', id)).toBe(0);
  });

  it('a row created beside the actor is inserted as the command leaves it, in the statement that inserts the actor', async () => {
    const born = h.runtime({
      machines: { born: { machine: bornMachine, version: 1 } },
      effects: {
        settle: blindEffect((_tx, p: { s: string }, ctx) => {
          ctx.defer({
            table: 'blind_born',
            replaces: `born:${ctx.actorId}`,
            sets: { status: p.s },
            sql: sql.fragment`UPDATE blind_born SET status = ${p.s} WHERE actor_id = ${ctx.actorId}`,
          });
          return Promise.resolve();
        }),
      },
    });
    const id = randomUUID();
    await born.create(h.scope, { kind: 'born', id, input: {}, event: { type: 'born.settle' }, writes: () => [bornRow(id, 'accepted')] });
    const row = await h.db.one(
      sql.type(
        z.object({ status: z.string(), inserted_by: z.string() }),
      )`SELECT status, inserted_by FROM blind_born WHERE actor_id = ${id}`,
    );
    expect(row.status).toBe('concluded');
    expect(row.inserted_by).toMatch(/INSERT INTO actors/);
    expect(row.inserted_by).toMatch(/INSERT INTO actor_events/);
  });

  it('a row created beside the actor and overwritten after a plain effect is inserted first and then updated', async () => {
    const born = h.runtime({
      machines: { born: { machine: bornMachine, version: 1 } },
      effects: {
        // Not blind: everything pending is sent before it, so the later overwrite finds the row inserted.
        settle: async (tx, p: { s: string }, ctx) => {
          await tx.query(sql.unsafe`UPDATE blind_born SET status = ${p.s} WHERE actor_id = ${ctx.actorId}`);
        },
      },
    });
    const id = randomUUID();
    await born.create(h.scope, { kind: 'born', id, input: {}, event: { type: 'born.settle' }, writes: () => [bornRow(id, 'accepted')] });
    expect((await statusOf(id)).length).toBe(0);
    expect(await h.db.oneFirst(sql.type(z.object({ status: z.string() }))`SELECT status FROM blind_born WHERE actor_id = ${id}`)).toBe(
      'concluded',
    );
  });

  it('refuses a deferral from an effect that was not made blind', async () => {
    const strict = h.runtime({
      machines: { ledger: { machine: ledgerMachine, version: 1 } },
      effects: {
        record: (_tx, _p, ctx) => Promise.resolve(ctx.defer({ table: 'blind_probe', sql: sql.fragment`SELECT 1` })),
        status: () => Promise.resolve(),
        peek: () => Promise.resolve(),
        explode: () => Promise.resolve(),
      },
    });
    await expect(strict.create(h.scope, { kind: 'ledger', id: randomUUID(), input: {}, event: { type: 'ledger.write' } })).rejects.toThrow(
      /blindEffect/,
    );
  });
});
