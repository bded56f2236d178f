import { DelayedError, UnrecoverableError, type Job } from 'bullmq';
import { MONITOR_QUEUE, MONITOR_RUN_JOB } from '../../machines/monitorMachine.js';
import type { MonitorRuns } from './runs.js';
import { MONITOR_RESCAN_JOB } from './schedule.js';
import { isFinalAttempt, parseJobData, type QueueProcessor } from '../../actors/queues.js';

/**
 * The monitor processor, on the `monitors` queue: like a route, it parses a job
 * and calls the monitor's command (src/monitors/runs.ts), telling it whether
 * this is the job's last attempt.
 *
 * - `monitor.rescan` a slot of the monitor's job scheduler came due (its job
 *                    id is the run id): `runs.tick`;
 * - `monitor.run`    one rescan: `runs.run`.
 */
// Rescans mostly wait on their inquiry's network checks; this many at once per process.
const RESCAN_CONCURRENCY = 16;
// A live worker renews its lock every half lock; a dead one's job is handed on
// within about lock + two stall checks (15 s), well under a default cadence.
const LOCK_DURATION_MS = 5000;
const STALLED_INTERVAL_MS = 5000;
// Re-running a stalled rescan is safe; a job that kills its worker this often is failed instead.
const MAX_STALLED_COUNT = 3;
// A run behind an earlier one of its watch looks again this soon: a rescan takes about its inquiry's deadline,
// and each look reads the watch's actor alone (one query).
const RUN_BEHIND_DELAY_MS = 250;

export function monitorProcessor(runs: MonitorRuns): QueueProcessor<'monitors'> {
  return {
    queue: MONITOR_QUEUE,
    concurrency: RESCAN_CONCURRENCY,
    options: { lockDuration: LOCK_DURATION_MS, stalledInterval: STALLED_INTERVAL_MS, maxStalledCount: MAX_STALLED_COUNT },
    async process(job: Job, token?: string) {
      const finalAttempt = isFinalAttempt(job);
      if (job.name === MONITOR_RESCAN_JOB) return runs.tick(parseJobData('monitors', 'monitor.rescan', job.data), job.id!, finalAttempt);
      if (job.name !== MONITOR_RUN_JOB) throw new UnrecoverableError(`unknown monitor job ${job.name}`);
      const verdict = await runs.run(parseJobData('monitors', 'monitor.run', job.data), finalAttempt, job.timestamp);
      if (verdict === 'ran') return;
      // Behind an earlier run of the same watch: asked again shortly, without spending an attempt.
      await job.moveToDelayed(Date.now() + RUN_BEHIND_DELAY_MS, token);
      throw new DelayedError();
    },
  };
}
