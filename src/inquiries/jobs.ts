import { UnrecoverableError, Worker, type ConnectionOptions, type Job } from 'bullmq';
import { parseJobData, type CheckRunJob } from '../../actors/queues.js';

/**
 * The check worker: runs one network check of one inquiry (`onCheck`) and
 * reports its result to the inquiry actor. The job id is the check's pending
 * key, so the same check of the same inquiry is never queued twice, and a
 * report that arrives twice is ignored by the machine.
 */

// Network checks mostly wait on I/O; this many in flight per process keeps a burst moving
// without opening hundreds of sockets to one provider.
const DEFAULT_CONCURRENCY = 32;

export function createCheckWorker(opts: {
  connection: ConnectionOptions;
  prefix: string;
  onCheck: (job: CheckRunJob) => Promise<void>;
  concurrency?: number;
}): Worker {
  return new Worker(
    'checks',
    async (job: Job) => {
      if (job.name !== 'check.run') throw new UnrecoverableError(`unknown check job ${job.name}`);
      await opts.onCheck(parseJobData('checks', 'check.run', job.data));
    },
    { connection: opts.connection, prefix: opts.prefix, concurrency: opts.concurrency ?? DEFAULT_CONCURRENCY },
  );
}
