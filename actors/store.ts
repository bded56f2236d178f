import { sql, type FragmentSqlToken, type ListSqlToken } from 'slonik';
import { z } from 'zod';
import type { Mode, Tx } from '../src/platform/db/pool.js';
import { jsonb } from '../src/platform/db/jsonb.js';
import { StreamEventSchema, type StreamEvent } from './types.js';

/**
 * The actor runtime's queries, one function per statement, connection first.
 * All of them run inside a tenant transaction (scopeTransaction was called),
 * so row-level security confines them to the caller's tenant and mode.
 */

const json = jsonb;

const ActorRow = z.object({
  id: z.string(),
  kind: z.string(),
  machine_version: z.number().int(),
  snapshot: z.record(z.string(), z.unknown()),
  version: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type ActorRow = z.infer<typeof ActorRow>;

const StreamEventRow = StreamEventSchema;

export interface NewActor {
  id: string;
  tenantId: string;
  mode: Mode;
  kind: string;
  machineVersion: number;
  snapshot: unknown;
}

/** Version 1 is the creating command; every later command bumps it by one. A blind write (actors/actions.ts). */
export function actorInsert(a: NewActor): FragmentSqlToken {
  return sql.fragment`
    INSERT INTO actors (id, tenant_id, mode, kind, machine_version, snapshot, version)
    VALUES (${a.id}, ${a.tenantId}, ${a.mode}, ${a.kind}, ${a.machineVersion}, ${json(a.snapshot)}, 1)`;
}

/** Takes the actor's row lock for the rest of the transaction: commands on one actor run one at a time. */
export async function lockActor(tx: Tx, id: string): Promise<ActorRow | null> {
  return tx.maybeOne(sql.type(ActorRow)`
    SELECT id, kind, machine_version, snapshot, version, created_at, updated_at
    FROM actors WHERE id = ${id} FOR UPDATE`);
}

export async function selectActor(tx: Tx, id: string): Promise<ActorRow | null> {
  return tx.maybeOne(sql.type(ActorRow)`
    SELECT id, kind, machine_version, snapshot, version, created_at, updated_at
    FROM actors WHERE id = ${id}`);
}

/** Saves only over the version that was read; false means someone else saved first. */
export async function updateActor(
  tx: Tx,
  u: { id: string; expectedVersion: number; machineVersion: number; snapshot: unknown },
): Promise<boolean> {
  const result = await tx.query(sql.unsafe`
    UPDATE actors
    SET snapshot = ${json(u.snapshot)}, machine_version = ${u.machineVersion},
        version = version + 1, updated_at = now()
    WHERE id = ${u.id} AND version = ${u.expectedVersion}`);
  return result.rowCount === 1;
}

/** A stream's events after a cursor, in order: what SSE replay and read models page through. */
export async function selectEventsAfter(tx: Tx, streamId: string, afterSeq: number, limit: number): Promise<readonly StreamEvent[]> {
  return tx.any(sql.type(StreamEventRow)`
    SELECT stream_id, seq, type, payload, occurred_at
    FROM actor_events WHERE stream_id = ${streamId} AND seq > ${afterSeq}
    ORDER BY seq LIMIT ${limit}`);
}

export type OutboxKind = 'job' | 'timer' | 'publish';

// Only what the database adds comes back (sequence numbers, times, outbox ids): the payloads are
// the command's own, so sending them back would double the bytes of every command for nothing.
export const AppendedRow = z.object({
  events: z.array(z.tuple([z.number().int(), z.string()])),
  published: z.array(z.number().int()),
  others: z.array(z.number().int()),
});
export type AppendedRow = z.infer<typeof AppendedRow>;

/** Data-modifying statements as the CTEs `w0 AS (...), w1 AS (...)` of one statement (none may be empty). */
export function writesAsCtes(writes: readonly FragmentSqlToken[]): ListSqlToken {
  return sql.join(
    writes.map((w, i) => sql.fragment`${sql.identifier([`w${i}`])} AS (${w})`),
    sql.fragment`, `,
  );
}

/** An outbox row as the command wrote it: the relay carries it out from memory right after commit. */
export interface WrittenOutboxRow {
  id: number;
  kind: string;
  payload: unknown;
}

/**
 * A command's stream events and outbox rows in ONE statement: the events get
 * the next sequence numbers of the stream (read under the actor's row lock),
 * each event gets its `publish` outbox row, then the jobs and timers follow in
 * the order the machine emitted them. A publish row names its event (stream
 * and seq) rather than holding a second copy of it: the relay carries it out
 * from memory right after the commit, and its sweep reads the event back
 * (actors/outboxStore.ts). One round trip instead of three per event.
 * The command's blind writes (`writes`, actors/actions.ts) ride along as
 * leading CTEs: they write other rows than these, so sharing the statement
 * changes nothing but the number of round trips.
 */
export async function appendEventsAndOutbox(
  tx: Tx,
  a: {
    streamId: string;
    tenantId: string;
    mode: Mode;
    events: { type: string; payload: Record<string, unknown> }[];
    outbox: { kind: OutboxKind; payload: unknown }[];
    writes?: readonly FragmentSqlToken[];
  },
): Promise<{ events: StreamEvent[]; outbox: WrittenOutboxRow[] }> {
  const writes = a.writes ?? [];
  const leading = writes.length === 0 ? sql.fragment`` : sql.fragment`${writesAsCtes(writes)}, `;
  const row = await tx.one(sql.type(AppendedRow)`
    WITH ${leading} base AS (
      SELECT coalesce(max(seq), 0)::int AS s FROM actor_events WHERE stream_id = ${a.streamId}
    ), ev AS (
      INSERT INTO actor_events (stream_id, seq, tenant_id, mode, type, payload)
      SELECT ${a.streamId}, base.s + r.ord::int, ${a.tenantId}, ${a.mode}, r.elem->>'type', r.elem->'payload'
      FROM base, jsonb_array_elements(${json(a.events)}) WITH ORDINALITY AS r(elem, ord)
      RETURNING stream_id, seq, type, payload,
        to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS occurred_at
    ), published AS (
      INSERT INTO outbox (tenant_id, mode, actor_id, kind, payload)
      SELECT ${a.tenantId}, ${a.mode}, ${a.streamId}, 'publish', jsonb_build_object('stream_id', stream_id, 'seq', seq)
      FROM (SELECT * FROM ev ORDER BY seq) e
      RETURNING id, kind, payload
    ), others AS (
      INSERT INTO outbox (tenant_id, mode, actor_id, kind, payload)
      SELECT ${a.tenantId}, ${a.mode}, ${a.streamId}, r.elem->>'kind', r.elem->'payload'
      FROM jsonb_array_elements(${json(a.outbox)}) WITH ORDINALITY AS r(elem, ord)
      ORDER BY r.ord
      RETURNING id, kind, payload
    )
    SELECT coalesce((SELECT jsonb_agg(jsonb_build_array(seq, occurred_at) ORDER BY seq) FROM ev), '[]'::jsonb) AS events,
           coalesce((SELECT jsonb_agg(id ORDER BY id) FROM published), '[]'::jsonb) AS published,
           coalesce((SELECT jsonb_agg(id ORDER BY id) FROM others), '[]'::jsonb) AS others`);
  return written(a, row);
}

/**
 * The events and outbox rows as stored, from the command's own payloads and
 * what the statement returned. Each INSERT takes its rows in order (events
 * by sequence, jobs and timers as emitted) and the outbox ids grow in that
 * order, so the i-th id of a kind is the i-th row of it; the rows are then
 * put in id order, the order the relay carries them out.
 */
/** The stream events and outbox rows a command wrote, as stored (see appendEventsAndOutbox). */
export function written(
  a: { streamId: string; events: { type: string; payload: Record<string, unknown> }[]; outbox: { kind: OutboxKind; payload: unknown }[] },
  row: AppendedRow,
): { events: StreamEvent[]; outbox: WrittenOutboxRow[] } {
  if (row.events.length !== a.events.length || row.published.length !== a.events.length || row.others.length !== a.outbox.length) {
    throw new Error('The append wrote another number of rows than the command gave it.');
  }
  const events = a.events.map((e, i): StreamEvent => {
    const [seq, occurredAt] = row.events[i]!;
    return { stream_id: a.streamId, seq, type: e.type, payload: e.payload, occurred_at: occurredAt };
  });
  const outbox: WrittenOutboxRow[] = [
    ...events.map((e, i) => ({ id: row.published[i]!, kind: 'publish', payload: e })),
    ...a.outbox.map((o, i) => ({ id: row.others[i]!, kind: o.kind, payload: o.payload })),
  ];
  return { events, outbox: outbox.sort((x, y) => x.id - y.id) };
}
