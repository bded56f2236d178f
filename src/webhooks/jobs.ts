import { Queue, UnrecoverableError, type Job, type JobsOptions } from 'bullmq';
import type { QueueProcessor } from '../../actors/queues.js';
import type { Redelivery } from './admin.js';
import { eventIdOf } from '../events/index.js';
import { deliverOnce, subscribersOf, type DeliveryContext } from './delivery.js';
import { assertSchedule, attemptsOf, nextDelayMs, STANDARD_RETRY_SCHEDULE } from './schedule.js';

/**
 * Webhook delivery (DESIGN 2.8) on the `webhooks` queue: the BullMQ adapter
 * of the delivery commands (src/webhooks/delivery.ts). Two job names:
 *
 * - `webhook.fanout`  one published event of a webhook type; finds the
 *                     tenant's enabled endpoints subscribed to its type and
 *                     enqueues one `webhook.deliver` per endpoint.
 * - `webhook.deliver` one event to one endpoint: a signed POST of the event
 *                     envelope, retried on the published schedule
 *                     (src/webhooks/schedule.ts) through BullMQ attempts
 *                     with a custom backoff, each attempt logged in
 *                     webhook_deliveries.
 *
 * Job ids are deterministic (fanout: stream id and seq; deliver: endpoint and
 * event id), so a relay re-dispatch or a repeated fanout adds nothing while
 * the first job is kept. The `webhook-id` header is derived from the same
 * pair, so a receiver sees one id for every retry and re-dispatch of a
 * delivery and can de-duplicate on it.
 */
// The name BullMQ stores on each deliver job so it calls our backoff strategy.
const BACKOFF_TYPE = 'webhook-schedule';

import {
  DELIVER_JOB,
  FANOUT_JOB,
  parseWebhookJob,
  WEBHOOK_QUEUE,
  webhookIdOf,
  type WebhookDeliverJob,
  type WebhookFanoutJob,
  type WebhookWorkerDeps,
} from './jobShapes.js';

/** Thrown to hand BullMQ the delay to the next attempt (read back by the worker's backoff strategy). */
export class RetryDelivery extends Error {
  override name = 'RetryDelivery';
  constructor(
    readonly delayMs: number,
    reason: string,
  ) {
    super(`webhook delivery will be retried: ${reason}`);
  }
}

export * from './jobShapes.js';

export const DEFAULT_TIMEOUT_MS = 10_000;
// Deliveries wait on receivers, not on us; this many in parallel keeps one slow receiver from holding up the rest.
const DELIVERY_CONCURRENCY = 16;
// A day: a fanout re-dispatched within it finds the delivery job and adds nothing.
const KEEP_COMPLETED = { age: 86_400 };
// A week, so an operator can read why a delivery job broke (the delivery log keeps the attempts for good).
const KEEP_FAILED = { age: 7 * 86_400 };

/**
 * The `webhooks` queue's processor. The fanout adds its deliveries through
 * a queue of its own on the workers' connection, closed with the processor.
 */
export function webhookProcessor(deps: WebhookWorkerDeps): QueueProcessor<'webhooks'> {
  const c: DeliveryContext = {
    db: deps.db,
    pepper: deps.pepper,
    log: deps.log,
    allowInsecureTargets: deps.allowInsecureTargets,
    schedule: assertSchedule(deps.schedule ?? STANDARD_RETRY_SCHEDULE),
    timeoutMs: deps.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    lookup: deps.lookup,
    now: deps.now ?? Date.now,
    random: deps.random ?? Math.random,
  };
  const queue = new Queue(WEBHOOK_QUEUE, { connection: deps.connection, prefix: deps.prefix });
  return {
    queue: WEBHOOK_QUEUE,
    concurrency: deps.concurrency ?? DELIVERY_CONCURRENCY,
    options: {
      settings: {
        // A failed attempt says how long to wait (schedule, jitter, Retry-After); anything else thrown waits its scheduled step.
        backoffStrategy: (attemptsMade: number, _type?: string, err?: Error) =>
          err instanceof RetryDelivery ? err.delayMs : (nextDelayMs(c.schedule, attemptsMade, null, c.random) ?? -1),
      },
    },
    process(job: Job) {
      if (job.name === FANOUT_JOB) return fanout(c, queue, parseWebhookJob(FANOUT_JOB, job.data));
      if (job.name === DELIVER_JOB) return deliver(c, job, parseWebhookJob(DELIVER_JOB, job.data));
      throw new UnrecoverableError(`unknown webhook job ${job.name}`);
    },
    onFailed(job, err) {
      // A delivery to be retried is in the delivery log already; anything else is worth a line.
      if (!(err instanceof RetryDelivery)) deps.log.warn({ err, jobId: job?.id }, 'webhook job failed');
    },
    close: () => queue.close(),
  };
}

/**
 * The job of one message delivered again on request (the control plane's
 * redeliver): the same `webhook-id`, a fresh round of attempts on the
 * schedule, a job id of its own so it never collides with the original.
 */
export function redeliveryJob(
  message: Redelivery,
  requestedAt: number,
  schedule = STANDARD_RETRY_SCHEDULE,
): { name: typeof DELIVER_JOB; data: WebhookDeliverJob; opts: JobsOptions } {
  const { tenantId, mode, event, stream, endpointId, messageId } = message;
  const data: WebhookDeliverJob = { tenantId, mode, event, stream, endpointId, webhookId: messageId };
  return {
    name: DELIVER_JOB,
    data,
    opts: {
      jobId: `${data.endpointId}.${eventIdOf(data.event.stream_id, data.event.seq)}.again.${requestedAt}`,
      attempts: attemptsOf(schedule),
      backoff: { type: BACKOFF_TYPE },
      removeOnComplete: KEEP_COMPLETED,
      removeOnFail: KEEP_FAILED,
    },
  };
}

/** Enqueues one delivery per subscribed endpoint; returns how many. */
async function fanout(c: DeliveryContext, queue: Queue, data: WebhookFanoutJob): Promise<number> {
  // Not a type anyone can subscribe to (AssessmentIssued, say): no endpoint, nothing to deliver.
  const endpoints = await subscribersOf(c, { tenantId: data.tenantId, mode: data.mode }, data.event);
  const eventId = eventIdOf(data.event.stream_id, data.event.seq);
  await queue.addBulk(
    endpoints.map((endpointId) => ({
      name: DELIVER_JOB,
      data: { ...data, endpointId, webhookId: webhookIdOf(endpointId, eventId) } satisfies WebhookDeliverJob,
      opts: {
        jobId: `${endpointId}.${eventId}`,
        delay: c.schedule.delaysMs[0] ?? 0,
        attempts: attemptsOf(c.schedule),
        backoff: { type: BACKOFF_TYPE },
        removeOnComplete: KEEP_COMPLETED,
        removeOnFail: KEEP_FAILED,
      },
    })),
  );
  return endpoints.length;
}

/** One attempt of one delivery; throws RetryDelivery when the schedule has another attempt for it. */
async function deliver(c: DeliveryContext, job: Job, data: WebhookDeliverJob): Promise<string> {
  // BullMQ counts failed attempts; this one is the next.
  const outcome = await deliverOnce(c, data, job.attemptsMade + 1);
  if (outcome.status === 'retrying') throw new RetryDelivery(outcome.retryInMs!, outcome.error ?? 'failed');
  return outcome.status;
}
