import { sql } from 'slonik';
import { z } from 'zod';
import { jsonb } from './jsonb.js';
import type { Tx } from './pool.js';

/** One function per query on request_replays (sql/000020): the Idempotency-Key header of the creating POSTs. */
export const ReplayRow = z.object({
  request_hash: z.string(),
  status_code: z.number().nullable(),
  response: z.unknown().nullable(),
  age_ms: z.number(),
});
export type ReplayRow = z.infer<typeof ReplayRow>;

export interface ReplayKey {
  tenantId: string;
  mode: string;
  operation: string;
  key: string;
}

/** Claims the key for this request; null when it was already claimed (then `findReplay` says by what). */
export async function claimReplay(tx: Tx, k: ReplayKey, requestHash: string): Promise<boolean> {
  const row = await tx.maybeOne(sql.type(z.object({ key: z.string() }))`
    INSERT INTO request_replays (tenant_id, mode, operation, key, request_hash)
    VALUES (${k.tenantId}, ${k.mode}, ${k.operation}, ${k.key}, ${requestHash})
    ON CONFLICT DO NOTHING RETURNING key`);
  return row !== null;
}

export async function findReplay(tx: Tx, k: ReplayKey): Promise<ReplayRow | null> {
  return tx.maybeOne(sql.type(ReplayRow)`
    SELECT request_hash, status_code, response, (extract(epoch FROM now() - created_at) * 1000)::float8 AS age_ms
    FROM request_replays WHERE operation = ${k.operation} AND key = ${k.key}`);
}

/** A claim whose first call died unanswered, taken over by a retry after the in-flight window. */
export async function retakeReplay(tx: Tx, k: ReplayKey, requestHash: string, olderThanMs: number): Promise<boolean> {
  const row = await tx.maybeOne(sql.type(z.object({ key: z.string() }))`
    UPDATE request_replays SET request_hash = ${requestHash}, created_at = now()
    WHERE operation = ${k.operation} AND key = ${k.key} AND status_code IS NULL
      AND created_at < now() - make_interval(secs => ${olderThanMs / 1000})
    RETURNING key`);
  return row !== null;
}

export async function answerReplay(tx: Tx, k: ReplayKey, status: number, response: unknown): Promise<void> {
  await tx.query(sql.unsafe`
    UPDATE request_replays SET status_code = ${status}, response = ${jsonb(response ?? null)}, answered_at = now()
    WHERE operation = ${k.operation} AND key = ${k.key}`);
}

/** A call that failed gives its key back: the retry runs afresh. */
export async function releaseReplay(tx: Tx, k: ReplayKey): Promise<void> {
  await tx.query(sql.unsafe`DELETE FROM request_replays WHERE operation = ${k.operation} AND key = ${k.key} AND status_code IS NULL`);
}
