import { sql, type SerializableValue } from 'slonik';
import { z } from 'zod';
import type { Mode, Tx } from '../src/db/pool.js';
import type { StreamEvent } from './types.js';

/**
 * The actor runtime's queries, one function per statement, connection first.
 * All of them run inside a tenant transaction (scopeTransaction was called),
 * so row-level security confines them to the caller's tenant and mode.
 */

const json = (value: unknown) => sql.jsonb(value as SerializableValue);

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

const StreamEventRow = z.object({
  stream_id: z.string(),
  seq: z.number().int(),
  type: z.string(),
  payload: z.record(z.string(), z.unknown()),
  occurred_at: z.string(),
});

export interface NewActor {
  id: string;
  tenantId: string;
  mode: Mode;
  kind: string;
  machineVersion: number;
  snapshot: unknown;
}

/** Version 1 is the creating command; every later command bumps it by one. */
export async function insertActor(tx: Tx, a: NewActor): Promise<void> {
  await tx.query(sql.unsafe`
    INSERT INTO actors (id, tenant_id, mode, kind, machine_version, snapshot, version)
    VALUES (${a.id}, ${a.tenantId}, ${a.mode}, ${a.kind}, ${a.machineVersion}, ${json(a.snapshot)}, 1)`);
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

/** Highest sequence of a stream so far (0 for a new one); read under the actor's row lock. */
export async function lastEventSeq(tx: Tx, streamId: string): Promise<number> {
  return tx.oneFirst(sql.type(z.object({ seq: z.number().int() }))`
    SELECT coalesce(max(seq), 0)::int AS seq FROM actor_events WHERE stream_id = ${streamId}`);
}

export async function insertEvent(
  tx: Tx,
  e: { streamId: string; seq: number; tenantId: string; mode: Mode; type: string; payload: Record<string, unknown> },
): Promise<StreamEvent> {
  return tx.one(sql.type(StreamEventRow)`
    INSERT INTO actor_events (stream_id, seq, tenant_id, mode, type, payload)
    VALUES (${e.streamId}, ${e.seq}, ${e.tenantId}, ${e.mode}, ${e.type}, ${json(e.payload)})
    RETURNING stream_id, seq, type, payload, occurred_at`);
}

/** A stream's events after a cursor, in order: what SSE replay and read models page through. */
export async function selectEventsAfter(tx: Tx, streamId: string, afterSeq: number, limit: number): Promise<readonly StreamEvent[]> {
  return tx.any(sql.type(StreamEventRow)`
    SELECT stream_id, seq, type, payload, occurred_at
    FROM actor_events WHERE stream_id = ${streamId} AND seq > ${afterSeq}
    ORDER BY seq LIMIT ${limit}`);
}

export type OutboxKind = 'job' | 'timer' | 'publish';

export async function insertOutbox(
  tx: Tx,
  o: { tenantId: string; mode: Mode; actorId: string; kind: OutboxKind; payload: unknown },
): Promise<number> {
  return tx.oneFirst(sql.type(z.object({ id: z.number().int() }))`
    INSERT INTO outbox (tenant_id, mode, actor_id, kind, payload)
    VALUES (${o.tenantId}, ${o.mode}, ${o.actorId}, ${o.kind}, ${json(o.payload)})
    RETURNING id`);
}
