import { UnrecoverableError, Worker, type ConnectionOptions, type Job } from 'bullmq';
import { parseJobData, type CaseExportJob } from '../../actors/queues.js';

/**
 * The export worker: a `case.export` job in, the export command called
 * (`onExport`, normally the case exports' `build`). Like a route, it only
 * parses and calls, and says when BullMQ has no attempt left (`onGiveUp`).
 */

// A bundle build reads a whole case and compresses it; two at once keep one large case from holding up the rest.
const DEFAULT_CONCURRENCY = 2;

export function createExportWorker(opts: {
  connection: ConnectionOptions;
  prefix: string;
  onExport: (job: CaseExportJob) => Promise<void>;
  /** After the last attempt failed: the export is marked failed, so asking again retries it. */
  onGiveUp: (job: CaseExportJob) => Promise<void>;
  concurrency?: number;
}): Worker {
  return new Worker(
    'exports',
    async (job: Job) => {
      if (job.name !== 'case.export') throw new UnrecoverableError(`unknown export job ${job.name}`);
      const data = parseJobData('exports', 'case.export', job.data);
      try {
        await opts.onExport(data);
      } catch (error) {
        if (job.attemptsMade + 1 >= (job.opts.attempts ?? 1)) await opts.onGiveUp(data).catch(() => undefined);
        throw error;
      }
    },
    { connection: opts.connection, prefix: opts.prefix, concurrency: opts.concurrency ?? DEFAULT_CONCURRENCY },
  );
}
