import type { Queue } from 'bullmq';
import { sql } from 'slonik';
import { z } from 'zod';
import { withSystem, type Db } from '../platform/db/pool.js';
import { scheduleRescans, unscheduleRescans } from './schedule.js';

/**
 * PostgreSQL is the source of truth for monitor cadences (issue 12 item 5).
 * A cadence's BullMQ job scheduler lives in Redis; a Redis that restarts
 * empty (no persistence, or a failover to an empty replica) would silently
 * stop every monitor. So every worker process reconciles at start-up and
 * every minute: each open monitor without a scheduler gets one again, and a
 * scheduler whose monitor is closed or unknown is removed. An existing
 * scheduler is left alone, so its next slot is not moved.
 */
const OpenMonitor = z.object({ id: z.string(), tenant_id: z.string(), mode: z.enum(['live', 'test']), cadence_seconds: z.number() });

export interface Reconciled {
  restored: number;
  removed: number;
}

export async function reconcileMonitorSchedules(db: Db, queue: Queue): Promise<Reconciled> {
  const open = await withSystem(db, (tx) =>
    tx.any(sql.type(OpenMonitor)`
    SELECT id, tenant_id, mode, cadence_seconds FROM monitors WHERE state <> 'closed'`),
  );
  const wanted = new Set(open.map((m) => m.id));
  let restored = 0;
  for (const m of open) {
    if (await queue.getJobScheduler(m.id)) continue;
    await scheduleRescans(queue, { monitorId: m.id, tenantId: m.tenant_id, mode: m.mode, cadenceSeconds: m.cadence_seconds });
    restored += 1;
  }
  let removed = 0;
  for (const scheduler of await queue.getJobSchedulers(0, -1)) {
    const id = scheduler.key ?? scheduler.id;
    if (id && !wanted.has(id) && (await unscheduleRescans(queue, id))) removed += 1;
  }
  return { restored, removed };
}
