import { sql } from 'slonik';
import { z } from 'zod';
import type { Db, Tx } from '../src/platform/db/pool.js';

/**
 * The relay's queries. The relay is infrastructure: it runs as the owner
 * (no scopeTransaction), across every tenant, and claims rows with
 * FOR UPDATE SKIP LOCKED so two relays (a dispatch right after a commit and a
 * sweep, or two nodes sweeping) never carry out the same row at once.
 */

const OutboxRow = z.object({
  id: z.number().int(),
  tenant_id: z.string(),
  mode: z.enum(['live', 'test']),
  actor_id: z.string().nullable(),
  kind: z.string(),
  payload: z.unknown(),
  /** How long ago the row was written, by the database's clock (delays count from the commit, not from now). */
  age_ms: z.number(),
});
export type OutboxRow = z.infer<typeof OutboxRow>;

/**
 * A publish row written since 000112 names its event (stream_id and seq)
 * instead of holding a copy of it: the event is read back from the stream,
 * in the shape the relay publishes. A row written before holds the whole
 * event and is read as it is. An event that is not there (it cannot be: the
 * row and the event commit together), or a reference that is not one, reads
 * as it is stored and the relay drops the row as malformed, loudly, rather
 * than failing the claim of every row with it.
 */
const columns = sql.fragment`
  o.id, o.tenant_id, o.mode, o.actor_id, o.kind,
  CASE WHEN o.kind = 'publish' AND NOT (o.payload ? 'payload')
            AND o.payload->>'stream_id' ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
            AND o.payload->>'seq' ~ '^[0-9]{1,9}$' THEN (
    SELECT jsonb_build_object('stream_id', e.stream_id, 'seq', e.seq, 'type', e.type, 'payload', e.payload,
             'occurred_at', to_char(e.occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
    FROM actor_events e
    WHERE e.stream_id = (o.payload->>'stream_id')::uuid AND e.seq = (o.payload->>'seq')::int AND e.tenant_id = o.tenant_id)
  ELSE o.payload END AS payload,
  (extract(epoch FROM now() - o.created_at) * 1000)::float8 AS age_ms`;

/** Those of `ids` still undispatched and not claimed by another relay, locked until commit. */
export async function claimOutboxByIds(tx: Tx, ids: readonly number[]): Promise<readonly OutboxRow[]> {
  return tx.any(sql.type(OutboxRow)`
    SELECT ${columns} FROM outbox o
    WHERE o.id = ANY(${sql.array(ids, 'int8')}) AND o.dispatched_at IS NULL
    ORDER BY o.id
    FOR UPDATE OF o SKIP LOCKED`);
}

/** Undispatched rows older than `olderThanMs` (what a crash between commit and dispatch left behind). */
export async function claimStaleOutbox(tx: Tx, olderThanMs: number, limit: number): Promise<readonly OutboxRow[]> {
  return tx.any(sql.type(OutboxRow)`
    SELECT ${columns} FROM outbox o
    WHERE o.dispatched_at IS NULL AND o.created_at < now() - ${olderThanMs} * interval '1 millisecond'
    ORDER BY o.id
    LIMIT ${limit}
    FOR UPDATE OF o SKIP LOCKED`);
}

/**
 * Every relay transaction starts here: the system role, and no sequential
 * scans. The relay's statements run prepared (src/platform/db/preparedStatements.ts),
 * and after a few runs PostgreSQL keeps one generic plan for the life of the
 * connection. Made while the outbox was nearly empty (a fresh deployment, the
 * first seconds after start-up), that plan reads the whole table; when the
 * outbox then grew (it kept its dispatched rows until 2026-11-26, and a
 * backlog builds whenever Redis is away), every mark cost more as it grew
 * (0.2 to 1.3 ms per mark within a minute of the bench) until autovacuum's
 * next ANALYZE happened to invalidate it. With sequential scans priced out,
 * the plan made at any size is the look-up by primary key or by the pending
 * rows' index that it should be (test/db/plansCachedEmpty.test.ts).
 */
export async function scopeRelay(tx: Tx): Promise<void> {
  await tx.query(sql.unsafe`SELECT set_config('role', 'tas_system', true), set_config('enable_seqscan', 'off', true)`);
}

/**
 * Carried-out rows leave the outbox: it is a queue of work still to do, not
 * a record (the events stay in actor_events, the jobs in BullMQ). Until
 * 2026-11-26 they were kept with `dispatched_at` set, and nothing ever
 * removed them: two rows per inquiry, a table growing for ever. A delete
 * also writes less than that update did (the update wrote a new row version
 * and index entries, `dispatched_at` being in the pending index's
 * predicate). In a transaction begun with scopeRelay.
 */
export async function deleteDispatched(tx: Tx, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await tx.query(sql.unsafe`
    DELETE FROM outbox WHERE id = ANY(${sql.array(ids, 'int8')})`);
}

/**
 * Deletes carried-out rows in one statement of their own (tas_outbox_forget,
 * 000032, each row named with its tenant since 000035: one round trip where a transaction took four), committed without
 * waiting for the WAL flush: a delete lost in a crash only makes the sweep
 * carry the row out once more, which the relay's consumers already tolerate
 * (at least once), so the flush would buy nothing. The setting is
 * transaction-local, and the statement is its own transaction.
 */
export async function deleteDispatchedLazily(db: Db, rows: readonly CarriedOut[]): Promise<void> {
  if (rows.length === 0) return;
  await db.query(sql.unsafe`
    SELECT set_config('synchronous_commit', 'off', true),
           tas_outbox_forget(${sql.array(
             rows.map((r) => r.id),
             'int8',
           )}, ${sql.array(
             rows.map((r) => r.tenantId),
             'uuid',
           )})`);
}

/** A carried-out outbox row and its tenant: tas_outbox_forget deletes a row only where both agree (000035). */
export interface CarriedOut {
  id: number;
  tenantId: string;
}
