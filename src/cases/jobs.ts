import { UnrecoverableError, type Job } from 'bullmq';
import { isFinalAttempt, parseJobData, type CaseExportJob, type QueueProcessor } from '../../actors/queues.js';

/**
 * The export processor: a `case.export` job in, the export command called
 * (`onExport`, normally the case exports' `build`). Like a route, it only
 * parses and calls, and says when BullMQ has no attempt left (`onGiveUp`).
 */

// A bundle build reads a whole case and compresses it; two at once keep one large case from holding up the rest.
const EXPORT_CONCURRENCY = 2;

export function exportProcessor(opts: {
  onExport: (job: CaseExportJob) => Promise<void>;
  /** After the last attempt failed: the export is marked failed, so asking again retries it. */
  onGiveUp: (job: CaseExportJob) => Promise<void>;
}): QueueProcessor<'exports'> {
  return {
    queue: 'exports',
    concurrency: EXPORT_CONCURRENCY,
    async process(job: Job) {
      if (job.name !== 'case.export') throw new UnrecoverableError(`unknown export job ${job.name}`);
      const data = parseJobData('exports', 'case.export', job.data);
      try {
        await opts.onExport(data);
      } catch (error) {
        if (isFinalAttempt(job)) await opts.onGiveUp(data).catch(() => undefined);
        throw error;
      }
    },
  };
}
