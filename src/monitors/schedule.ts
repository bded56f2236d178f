import type { Queue } from 'bullmq';
import type { Mode } from '../platform/db/pool.js';

/**
 * A monitor's cadence is one BullMQ job scheduler whose id is the monitor id.
 * BullMQ keeps at most one pending job per scheduler and creates the next one
 * only when the current one starts, so however many processes upsert it or
 * run workers, and however often they restart, a slot runs once. Each slot's
 * job id (`repeat:<monitor id>:<slot millis>`) is the rescan's run id.
 */
export const MONITOR_RESCAN_JOB = 'monitor.rescan';

// A tick is one small actor command; retries cover a Redis or Postgres blip
// and the few milliseconds between the upsert and its creating transaction's
// commit (see the tick processor).
const TICK_ATTEMPTS = 5;
const TICK_BACKOFF_MS = 500;
// Completed ticks stay an hour (enough to audit a day's cadence in tests and by hand);
// failed ones a day so an operator can read why.
const KEEP_COMPLETED = { age: 3600 };
const KEEP_FAILED = { age: 86_400 };

export interface ScheduledMonitor {
  monitorId: string;
  tenantId: string;
  mode: Mode;
  cadenceSeconds: number;
}

export async function scheduleRescans(queue: Queue, m: ScheduledMonitor): Promise<void> {
  await queue.upsertJobScheduler(
    m.monitorId,
    { every: m.cadenceSeconds * 1000 },
    {
      name: MONITOR_RESCAN_JOB,
      data: { tenantId: m.tenantId, mode: m.mode, monitorId: m.monitorId },
      opts: {
        attempts: TICK_ATTEMPTS,
        backoff: { type: 'exponential', delay: TICK_BACKOFF_MS },
        removeOnComplete: KEEP_COMPLETED,
        removeOnFail: KEEP_FAILED,
      },
    },
  );
}

/** Ends the cadence (and its pending slot); true when there was one. */
export async function unscheduleRescans(queue: Queue, monitorId: string): Promise<boolean> {
  return queue.removeJobScheduler(monitorId);
}

/**
 * When the next slot is due, or null when the monitor has no schedule: the
 * scheduler's score, which is the slot of its one pending job (that job's
 * id and its timestamp + delay), the time the rescan's tick runs
 * (test/monitors/nextRun.test.ts). A next_run_at the runs then missed (issue
 * 38) was a second deployment on the same Redis prefix removing and
 * re-creating the scheduler from its own database; the prefix is now bound to
 * one database (src/platform/redis/prefixOwner.ts).
 */
export async function nextRunAt(queue: Queue, monitorId: string): Promise<string | null> {
  const scheduler = await queue.getJobScheduler(monitorId);
  return scheduler?.next ? new Date(scheduler.next).toISOString() : null;
}
