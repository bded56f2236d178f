import { UnrecoverableError, type Job } from 'bullmq';
import { parseJobData, type ActorTimerJob, type CheckRunJob, type QueueProcessor, type TimerTable } from '../../actors/queues.js';

/**
 * The inquiry's jobs. On the `checks` queue, one network check of one
 * inquiry (`onCheck`), its result reported to the inquiry actor: the job id
 * is the check's pending key, so the same check of the same inquiry is never
 * queued twice, and a report that arrives twice is ignored by the machine.
 * On the `timers` queue, the inquiry's two durable timers (`inquiryTimers`).
 */

// Network checks mostly wait on I/O; this many in flight per process keeps a burst moving
// without opening hundreds of sockets to one provider.
const CHECK_CONCURRENCY = 32;

export function checkProcessor(opts: { onCheck: (job: CheckRunJob) => Promise<void> }): QueueProcessor<'checks'> {
  return {
    queue: 'checks',
    concurrency: CHECK_CONCURRENCY,
    async process(job: Job) {
      if (job.name !== 'check.run') throw new UnrecoverableError(`unknown check job ${job.name}`);
      await opts.onCheck(parseJobData('checks', 'check.run', job.data));
    },
  };
}

type InquiryTimer = 'deadline.reached' | 'reasoning.expired';

/** The inquiry machine's timers: the caller's deadline and the ceiling on reasoning. */
export function inquiryTimers(inquiries: {
  fireTimer(scope: ActorTimerJob, inquiryId: string, type: InquiryTimer): Promise<unknown>;
}): TimerTable {
  const fire = (type: InquiryTimer) => async (job: ActorTimerJob) => void (await inquiries.fireTimer(job, job.actorId, type));
  return { 'deadline.reached': fire('deadline.reached'), 'reasoning.expired': fire('reasoning.expired') };
}
