import { UnrecoverableError, Worker, type ConnectionOptions, type Job, type Queue } from 'bullmq';
import type { Logger } from 'pino';
import type { AnyMachineSnapshot } from 'xstate';
import { ActorNotFoundError } from '../actors/errors.js';
import type { ActorRuntime } from '../actors/runtime.js';
import { MONITOR_QUEUE, MONITOR_RUN_JOB, type MonitorContext, type MonitorEvent } from '../machines/monitorMachine.js';
import { findMonitor, type MonitorRow } from '../src/db/monitors.js';
import { withTenant } from '../src/db/pool.js';
import { runRescanInquiry, type RescanDeps, type RescanOutcome } from '../src/monitors/rescan.js';
import { MONITOR_RESCAN_JOB, unscheduleRescans } from '../src/monitors/schedule.js';
import { evaluateTriggers, type Triggers } from '../src/monitors/triggers.js';
import { parseJobData, type MonitorRescanJob, type MonitorRunJob } from './queues.js';

/**
 * The monitor worker, on the `monitors` queue, two job names:
 *
 * - `monitor.rescan` a slot of the monitor's job scheduler came due. Its job
 *                    id is the run id; the processor sends `monitor.rescanDue`
 *                    and the machine enqueues the run (or ignores a closed
 *                    watch or a tick it has seen).
 * - `monitor.run`    one rescan: the monitor's inquiry with the run id as its
 *                    idempotency key, then `rescan.completed` (with the
 *                    triggers it met against the machine's last assessment,
 *                    read under the actor's row lock) or `rescan.failed`.
 *
 * Both are safe to run twice, which is what a worker killed mid-job leads to:
 * BullMQ hands the stalled job to another worker, the machine ignores a tick
 * it has seen, and a repeated run replays its inquiry instead of appending a
 * second ledger entry.
 */
export interface MonitorWorkerDeps extends RescanDeps {
  connection: ConnectionOptions;
  prefix: string;
  runtime: ActorRuntime;
  /** The `monitors` queue, to end the schedule of a watch that no longer exists. */
  queue: () => Queue;
  log: Pick<Logger, 'warn' | 'error'>;
  concurrency?: number;
}

// Rescans mostly wait on their inquiry's network checks; this many at once per process.
const DEFAULT_CONCURRENCY = 16;
// A live worker renews its lock every half lock; a dead one's job is handed on
// within about lock + two stall checks (15 s), well under a default cadence.
const LOCK_DURATION_MS = 5000;
const STALLED_INTERVAL_MS = 5000;
// Re-running a stalled rescan is safe; a job that kills its worker this often is failed instead.
const MAX_STALLED_COUNT = 3;

export function createMonitorWorker(deps: MonitorWorkerDeps): Worker {
  return new Worker(
    MONITOR_QUEUE,
    async (job: Job) => {
      const finalAttempt = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
      if (job.name === MONITOR_RESCAN_JOB) return processTick(deps, parseJobData('monitors', 'monitor.rescan', job.data), job.id!, finalAttempt);
      if (job.name === MONITOR_RUN_JOB) return processRun(deps, parseJobData('monitors', 'monitor.run', job.data), finalAttempt);
      throw new UnrecoverableError(`unknown monitor job ${job.name}`);
    },
    {
      connection: deps.connection,
      prefix: deps.prefix,
      concurrency: deps.concurrency ?? DEFAULT_CONCURRENCY,
      lockDuration: LOCK_DURATION_MS,
      stalledInterval: STALLED_INTERVAL_MS,
      maxStalledCount: MAX_STALLED_COUNT,
    },
  );
}

async function processTick(deps: MonitorWorkerDeps, data: MonitorRescanJob, runId: string, finalAttempt: boolean): Promise<void> {
  const scope = { tenantId: data.tenantId, mode: data.mode };
  try {
    const sent = await deps.runtime.send<MonitorEvent>(scope, data.monitorId, { type: 'monitor.rescanDue', runId });
    // A schedule outliving its watch (DELETE committed, the removal failed): end it now.
    if (sent.state === 'closed') await unscheduleRescans(deps.queue(), data.monitorId);
  } catch (error) {
    // The schedule is upserted inside the creating transaction, so the first tick can run before
    // the commit: retry. Once retries are spent, that transaction rolled back and no watch exists.
    if (!(error instanceof ActorNotFoundError) || !finalAttempt) throw error;
    deps.log.warn({ actorId: data.monitorId, jobId: runId }, 'schedule of a monitor that does not exist; removed');
    await unscheduleRescans(deps.queue(), data.monitorId);
  }
}

async function processRun(deps: MonitorWorkerDeps, data: MonitorRunJob, finalAttempt: boolean): Promise<void> {
  const scope = { tenantId: data.tenantId, mode: data.mode };
  const [monitor, actor] = await Promise.all([
    withTenant(deps.db, scope, (tx) => findMonitor(tx, data.monitorId)),
    deps.runtime.read(scope, data.monitorId),
  ]);
  // The watch ended after this run was enqueued, or the run already finished (a duplicate job).
  const context = actor?.snapshot.context as MonitorContext | undefined;
  if (!monitor || monitor.state === 'closed' || !context?.inFlight.includes(data.runId)) return;
  let outcome: RescanOutcome;
  try {
    outcome = await runRescanInquiry(deps, monitor, data.runId);
  } catch (error) {
    if (!finalAttempt) throw error;
    // Out of retries: the run is recorded as failed so the machine stops waiting for it.
    deps.log.error({ err: error, actorId: monitor.id, jobId: data.runId }, 'monitor rescan failed');
    outcome = { ok: false, reason: 'error' };
  }
  await deps.runtime.send<MonitorEvent>(scope, monitor.id, (snapshot) => resultOf(snapshot, monitor, data.runId, outcome));
}

/** The run's result event, built under the actor's row lock so `previous` is the assessment the machine holds. */
function resultOf(snapshot: AnyMachineSnapshot, monitor: MonitorRow, runId: string, outcome: RescanOutcome): MonitorEvent | null {
  const context = snapshot.context as MonitorContext;
  if (!context.inFlight.includes(runId)) return null;
  if (!outcome.ok) return { type: 'rescan.failed', runId, reason: outcome.reason };
  const previous = context.lastAssessment;
  const triggered = evaluateTriggers(monitor.triggers as Triggers, { current: outcome.assessment, previous, reference: context.reference });
  return { type: 'rescan.completed', runId, assessment: outcome.assessment, previous, triggered };
}
