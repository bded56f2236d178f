import { sql } from 'slonik';
import { z } from 'zod';
import { StreamEventSchema, type StreamEvent } from '../../actors/types.js';
import type { Tx } from '../platform/db/pool.js';

/**
 * Reads of actor event streams (table actor_events). Every function runs in
 * a `withTenant` transaction, so row-level security limits it to the caller's
 * tenant and mode: another tenant's stream reads exactly like no stream.
 */
const EventRow = StreamEventSchema;

/** Up to `limit` events of the stream with seq > afterSeq, in sequence order. */
export async function readStreamAfter(tx: Tx, streamId: string, afterSeq: number, limit: number): Promise<StreamEvent[]> {
  const rows = await tx.any(sql.type(EventRow)`
    SELECT stream_id, seq, type, payload, occurred_at
    FROM actor_events
    WHERE stream_id = ${streamId} AND seq > ${afterSeq}
    ORDER BY seq
    LIMIT ${limit}`);
  return [...rows];
}

/** Whether the stream's actor exists for this tenant and mode and is of this kind. */
export async function streamOwner(tx: Tx, streamId: string, kind: string): Promise<boolean> {
  return tx.exists(sql.unsafe`SELECT 1 FROM actors WHERE id = ${streamId} AND kind = ${kind}`);
}

const TailRow = z.object({ seq: z.number().int(), type: z.string() });

/** The last event of the stream (seq 0 and type null when it has none yet). */
export async function streamTail(tx: Tx, streamId: string): Promise<{ seq: number; type: string | null }> {
  const row = await tx.maybeOne(sql.type(TailRow)`
    SELECT seq, type FROM actor_events WHERE stream_id = ${streamId} ORDER BY seq DESC LIMIT 1`);
  return row ?? { seq: 0, type: null };
}
