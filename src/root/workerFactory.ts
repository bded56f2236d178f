import { Worker, type ConnectionOptions, type Job } from 'bullmq';
import type { Logger } from 'pino';
import type { QueueProcessor } from '../../actors/queues.js';
import { scheduledJob } from '../platform/scheduledJob.js';
import type { TenantScheduling } from '../platform/unitContext.js';

/**
 * The one worker shell: a capability's processor (its jobs.ts, a
 * QueueProcessor) run by BullMQ on the workers' connection. What every
 * worker shares is here and nowhere else: the connection and the key prefix
 * (a hash tag on a cluster, src/platform/redis/bullConnection.ts), the
 * processor's concurrency, an error log line naming the queue, a failed
 * attempt handed to the processor when it asks, the order of shutdown
 * (the worker stops taking jobs and finishes its own, then the processor
 * closes what it holds), and, given the process's fair scheduler, each job
 * run as a unit of its tenant (src/platform/scheduledJob.ts: paced, never
 * refused; a job without a tenant at once).
 */
export interface WorkerShell {
  connection: ConnectionOptions;
  prefix: string;
  log: Logger;
  /** The process's one scheduler (issue 48); none: every job at once. */
  scheduler?: TenantScheduling;
}

/** The tenant a job is of: every job of the catalogue names its `tenantId`. */
function tenantOf({ job }: { job: Job }): string | null {
  const data: unknown = job.data;
  if (typeof data !== 'object' || data === null || !('tenantId' in data)) return null;
  return typeof data.tenantId === 'string' ? data.tenantId : null;
}

export interface RunningWorker {
  worker: Worker;
  close(): Promise<void>;
}

export function startWorker(processor: QueueProcessor, shell: WorkerShell): RunningWorker {
  const handle = scheduledJob(shell.scheduler, processor.queue, tenantOf, (taken: { job: Job; token?: string }) =>
    processor.process(taken.job, taken.token),
  );
  // Async, so a processor that throws before its first await fails the job the same way.
  const worker = new Worker(processor.queue, async (job, token) => await handle({ job, ...(token === undefined ? {} : { token }) }), {
    ...processor.options,
    connection: shell.connection,
    prefix: shell.prefix,
    concurrency: processor.concurrency,
  });
  worker.on('error', (err) => shell.log.error({ err, queue: processor.queue }, 'worker error'));
  if (processor.onFailed) worker.on('failed', (job, err) => processor.onFailed?.(job, err));
  return {
    worker,
    async close() {
      await worker.close();
      await processor.close?.();
    },
  };
}

/** Every processor in its worker; closing closes them all. */
export function startQueueWorkers(processors: readonly QueueProcessor[], shell: WorkerShell): { close(): Promise<void> } {
  const running = processors.map((p) => startWorker(p, shell));
  return {
    async close() {
      await Promise.all(running.map((r) => r.close()));
    },
  };
}
