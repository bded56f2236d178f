import { Worker, type ConnectionOptions } from 'bullmq';
import type { Logger } from 'pino';
import type { QueueProcessor } from '../../actors/queues.js';

/**
 * The one worker shell: a capability's processor (its jobs.ts, a
 * QueueProcessor) run by BullMQ on the workers' connection. What every
 * worker shares is here and nowhere else: the connection and the key prefix
 * (a hash tag on a cluster, src/platform/redis/bullConnection.ts), the
 * processor's concurrency, an error log line naming the queue, a failed
 * attempt handed to the processor when it asks, and the order of shutdown
 * (the worker stops taking jobs and finishes its own, then the processor
 * closes what it holds). Workers are not run through the fair scheduler
 * (src/platform/scheduler.ts): their tenants are paced where their jobs are
 * added (the material's fair queue, a monitor's cadence).
 */
export interface WorkerShell {
  connection: ConnectionOptions;
  prefix: string;
  log: Logger;
}

export interface RunningWorker {
  worker: Worker;
  close(): Promise<void>;
}

export function startWorker(processor: QueueProcessor, shell: WorkerShell): RunningWorker {
  // Async, so a processor that throws before its first await fails the job the same way.
  const worker = new Worker(processor.queue, async (job, token) => await processor.process(job, token), {
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
