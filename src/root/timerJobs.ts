import { UnrecoverableError, Worker, type ConnectionOptions, type Job } from 'bullmq';
import { parseJobData, type ActorTimerJob } from '../../actors/queues.js';

/**
 * The timer worker: a delayed `actor.timer` job comes due and its event is
 * sent back to the actor it belongs to (`onTimer`, normally `runtime.send`
 * with a builder). A timer for an actor that has since moved on is harmless:
 * the machine ignores events its state does not handle.
 */

// Timers are tiny (one actor command each); a few in parallel keep a burst of deadlines on time.
const DEFAULT_CONCURRENCY = 8;

export function createTimerWorker(opts: {
  connection: ConnectionOptions;
  prefix: string;
  onTimer: (job: ActorTimerJob) => Promise<void>;
  concurrency?: number;
}): Worker {
  return new Worker(
    'timers',
    async (job: Job) => {
      if (job.name !== 'actor.timer') throw new UnrecoverableError(`unknown timer job ${job.name}`);
      await opts.onTimer(parseJobData('timers', 'actor.timer', job.data));
    },
    { connection: opts.connection, prefix: opts.prefix, concurrency: opts.concurrency ?? DEFAULT_CONCURRENCY },
  );
}
