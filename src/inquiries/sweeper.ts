import { sql } from 'slonik';
import { z } from 'zod';
import { withSystem, type Db, type Mode } from '../platform/db/pool.js';

/**
 * The deadline sweeper (issue 12 item 4). An inquiry waits in `reasoning`
 * or `preliminary` for its worker checks and timers, which live in Redis;
 * after an outage a timer may be lost or a check job may have given up, and
 * the inquiry would stay preliminary for ever. PostgreSQL knows every open
 * inquiry, so the sweeper finds those open for longer than any inquiry can
 * reason and sends them `reasoning.expired`: they conclude with what they
 * have, the checks that never answered counted as absences. Firing is
 * idempotent (an actor that has concluded ignores it), so sweeping an
 * inquiry whose timer also fires is harmless.
 */

// The longest an inquiry reasons: a 30 s deadline, a worker check's own timeout and 5 s of
// grace (src/inquiries/engine.ts). Two minutes is past it with room to spare.
export const OVERDUE_AFTER_MS = 120_000;
const BATCH = 200;

const OpenInquiry = z.object({ id: z.string(), tenant_id: z.string(), mode: z.enum(['live', 'test']) });

export type FireExpiry = (scope: { tenantId: string; mode: Mode }, inquiryId: string) => Promise<unknown>;

/** Sends `reasoning.expired` to every inquiry still open past the bound; returns how many it sent. */
export async function sweepOverdueInquiries(db: Db, fire: FireExpiry, overdueAfterMs = OVERDUE_AFTER_MS): Promise<number> {
  const overdue = await withSystem(db, (tx) =>
    tx.any(sql.type(OpenInquiry)`
    SELECT id, tenant_id, mode FROM actors
    WHERE kind = 'inquiry' AND snapshot->>'value' IN ('reasoning', 'preliminary')
      AND created_at < now() - make_interval(secs => ${overdueAfterMs / 1000})
    ORDER BY created_at LIMIT ${BATCH}`),
  );
  for (const inquiry of overdue) await fire({ tenantId: inquiry.tenant_id, mode: inquiry.mode }, inquiry.id);
  return overdue.length;
}
