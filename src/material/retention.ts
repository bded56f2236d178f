import { sql } from 'slonik';
import { z } from 'zod';
import { withSystem, type Db } from '../platform/db/pool.js';
import type { MaterialJob } from './extraction.js';

/**
 * The material sweep (issue 14): what PostgreSQL knows about material that
 * nobody is going to finish.
 *
 * - A declaration whose upload URL expired with no bytes received is
 *   `discarded`: nothing was stored, and a late PUT still answers 410.
 * - Bytes received but never extracted (the extraction job was lost with
 *   Redis, or the worker was down) are queued again. The job id is the
 *   material id, so a job still queued or running is not doubled. This is
 *   also what keeps transient and C2 bytes from outliving their purpose:
 *   they are deleted when their extraction ends (D35), so an extraction that
 *   never ran would keep them for ever.
 */

// Past a worker's normal wait and its retries' backoff: only material left behind is swept.
export const STUCK_AFTER_MS = 10 * 60_000;
const BATCH = 200;

export interface MaterialSweep {
  discarded: number;
  requeued: number;
}

const Stuck = z.object({ id: z.string(), tenant_id: z.string(), mode: z.enum(['live', 'test']) });

export async function sweepMaterial(
  db: Db,
  enqueue: (job: MaterialJob) => Promise<void>,
  stuckAfterMs = STUCK_AFTER_MS,
): Promise<MaterialSweep> {
  const discarded = await withSystem(db, (tx) =>
    tx.oneFirst(sql.type(z.object({ n: z.number() }))`
    WITH expired AS (
      UPDATE material SET status = 'discarded', updated_at = now()
      WHERE id IN (SELECT id FROM material WHERE status = 'awaiting_upload' AND upload_expires_at < now() LIMIT ${BATCH})
        AND status = 'awaiting_upload'
      RETURNING 1)
    SELECT count(*)::int AS n FROM expired`),
  );
  const stuck = await withSystem(db, (tx) =>
    tx.any(sql.type(Stuck)`
    SELECT id, tenant_id::text, mode FROM material
    WHERE status = 'received' AND received_at < now() - make_interval(secs => ${stuckAfterMs / 1000})
    ORDER BY received_at LIMIT ${BATCH}`),
  );
  for (const m of stuck) await enqueue({ materialId: m.id, tenantId: m.tenant_id, mode: m.mode });
  return { discarded, requeued: stuck.length };
}
