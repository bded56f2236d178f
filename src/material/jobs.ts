import { UnrecoverableError, type Job } from 'bullmq';
import { isFinalAttempt, parseJobData, type MaterialExtractJob, type QueueProcessor } from '../../actors/queues.js';

/**
 * The material processor: a `material.extract` job in, the extraction
 * command called (`onExtract`, normally src/material/extraction.ts). Like a
 * route, it only parses and calls, and says when BullMQ has no attempt left
 * (`onGiveUp`).
 */

// Each extraction runs in its own parser process (TAS_PARSER_MEMORY_MB and TAS_PARSER_TIMEOUT_SECONDS); two at once per worker bound the worst case.
const EXTRACT_CONCURRENCY = 2;
// OCR of a large scan can take a minute; a live worker renews its lock every half lock.
const LOCK_DURATION_MS = 180_000;

export function materialProcessor(opts: {
  onExtract: (job: MaterialExtractJob) => Promise<void>;
  onGiveUp: (job: MaterialExtractJob) => Promise<void>;
}): QueueProcessor<'material'> {
  return {
    queue: 'material',
    concurrency: EXTRACT_CONCURRENCY,
    options: { lockDuration: LOCK_DURATION_MS },
    async process(job: Job) {
      if (job.name !== 'material.extract') throw new UnrecoverableError(`unknown material job ${job.name}`);
      const data = parseJobData('material', 'material.extract', job.data);
      try {
        await opts.onExtract(data);
      } catch (error) {
        if (isFinalAttempt(job)) await opts.onGiveUp(data).catch(() => undefined);
        throw error;
      }
    },
  };
}
