import { createHash } from 'node:crypto';
import { Queue, UnrecoverableError, Worker, type ConnectionOptions, type Job } from 'bullmq';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { StreamEvent } from '../actors/types.js';
import { withTenant, type Db, type Mode } from '../src/db/pool.js';
import { eventIdOf } from '../src/events/hub.js';
import { WebhookEventType } from '../src/schemas/events.js';
import { assertSchedule, attemptsOf, nextDelayMs, STANDARD_RETRY_SCHEDULE, type RetrySchedule } from '../src/webhooks/schedule.js';
import { listSubscribedEndpoints, loadEndpoint } from '../src/webhooks/store.js';
import type { LookupAll } from '../src/webhooks/targets.js';
import { attemptDelivery, decideAttempt, recordAttempt, RetryDelivery } from './webhookDelivery.js';

/**
 * Webhook delivery (DESIGN 2.8) on the `webhooks` queue, two job names:
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
export const WEBHOOK_QUEUE = 'webhooks';
export const FANOUT_JOB = 'webhook.fanout';
export const DELIVER_JOB = 'webhook.deliver';
// The name BullMQ stores on each deliver job so it calls our backoff strategy.
const BACKOFF_TYPE = 'webhook-schedule';

const JobMode = z.enum(['live', 'test']);
const StreamEventData = z.object({
  stream_id: z.uuid(),
  seq: z.int().min(1),
  type: z.string().min(1),
  payload: z.record(z.string(), z.unknown()),
  occurred_at: z.string(),
});
export const WebhookStream = z.enum(['inquiry', 'monitor', 'case']);
export type WebhookStream = z.infer<typeof WebhookStream>;

export const WebhookFanoutJob = z.object({ tenantId: z.uuid(), mode: JobMode, event: StreamEventData, stream: WebhookStream });
export type WebhookFanoutJob = z.infer<typeof WebhookFanoutJob>;

export const WebhookDeliverJob = WebhookFanoutJob.extend({ endpointId: z.uuid(), webhookId: z.string().min(1) });
export type WebhookDeliverJob = z.infer<typeof WebhookDeliverJob>;

/** One schema per job name (the catalog entry for the `webhooks` queue). */
export const WEBHOOK_JOBS = { [FANOUT_JOB]: WebhookFanoutJob, [DELIVER_JOB]: WebhookDeliverJob } as const;

/** A job's data parsed with its schema, or UnrecoverableError: a malformed payload fails the same way on every retry. */
export function parseWebhookJob<N extends keyof typeof WEBHOOK_JOBS>(name: N, data: unknown): z.infer<(typeof WEBHOOK_JOBS)[N]> {
  const parsed = WEBHOOK_JOBS[name].safeParse(data);
  if (!parsed.success) throw new UnrecoverableError(`job ${WEBHOOK_QUEUE}/${name} data is malformed: ${z.prettifyError(parsed.error)}`);
  return parsed.data as z.infer<(typeof WEBHOOK_JOBS)[N]>;
}

/** What the relay enqueues when an event of a webhook type is published (an OutboxJob). */
export function fanoutJobFor(
  event: StreamEvent,
  scope: { tenantId: string; mode: Mode },
  stream: WebhookStream,
): { queue: typeof WEBHOOK_QUEUE; name: typeof FANOUT_JOB; jobId: string; data: WebhookFanoutJob } {
  return {
    queue: WEBHOOK_QUEUE,
    name: FANOUT_JOB,
    jobId: `${event.stream_id}.${event.seq}`,
    data: { tenantId: scope.tenantId, mode: scope.mode, event, stream },
  };
}

/** The Standard Webhooks `webhook-id` of one event to one endpoint: the same on every retry and re-dispatch. */
export function webhookIdOf(endpointId: string, eventId: string): string {
  return `msg_${createHash('sha256').update(`${endpointId}:${eventId}`).digest('hex').slice(0, 32)}`;
}

export interface WebhookWorkerDeps {
  connection: ConnectionOptions;
  prefix: string;
  db: Db;
  /** The key pepper the signing secrets are sealed under. */
  pepper: string;
  log: Logger;
  allowInsecureTargets: (mode: Mode) => boolean;
  schedule?: RetrySchedule;
  /** Per attempt, connect to response head; the OpenAPI `webhooks` section promises receivers 10 s. */
  timeoutMs?: number;
  concurrency?: number;
  lookup?: LookupAll;
  now?: () => number;
  random?: () => number;
}

export interface WebhookWorker {
  worker: Worker;
  /** The `webhooks` queue the fanout adds deliveries to. */
  queue: Queue;
  close(): Promise<void>;
}

export const DEFAULT_TIMEOUT_MS = 10_000;
// Deliveries wait on receivers, not on us; this many in parallel keeps one slow receiver from holding up the rest.
const DEFAULT_CONCURRENCY = 16;
// A day: a fanout re-dispatched within it finds the delivery job and adds nothing.
const KEEP_COMPLETED = { age: 86_400 };
// A week, so an operator can read why a delivery job broke (the delivery log keeps the attempts for good).
const KEEP_FAILED = { age: 7 * 86_400 };

export type DeliveryContext = Required<Omit<WebhookWorkerDeps, 'connection' | 'prefix' | 'concurrency' | 'lookup'>> & { lookup?: LookupAll };

export function createWebhookWorker(deps: WebhookWorkerDeps): WebhookWorker {
  const c: DeliveryContext = {
    db: deps.db, pepper: deps.pepper, log: deps.log, allowInsecureTargets: deps.allowInsecureTargets,
    schedule: assertSchedule(deps.schedule ?? STANDARD_RETRY_SCHEDULE),
    timeoutMs: deps.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    lookup: deps.lookup, now: deps.now ?? Date.now, random: deps.random ?? Math.random,
  };
  const queue = new Queue(WEBHOOK_QUEUE, { connection: deps.connection, prefix: deps.prefix });
  const worker = new Worker(
    WEBHOOK_QUEUE,
    async (job: Job) => {
      if (job.name === FANOUT_JOB) return fanout(c, queue, parseWebhookJob(FANOUT_JOB, job.data));
      if (job.name === DELIVER_JOB) return deliver(c, job, parseWebhookJob(DELIVER_JOB, job.data));
      throw new UnrecoverableError(`unknown webhook job ${job.name}`);
    },
    {
      connection: deps.connection,
      prefix: deps.prefix,
      concurrency: deps.concurrency ?? DEFAULT_CONCURRENCY,
      settings: {
        // A failed attempt says how long to wait (schedule, jitter, Retry-After); anything else thrown waits its scheduled step.
        backoffStrategy: (attemptsMade: number, _type?: string, err?: Error) =>
          err instanceof RetryDelivery ? err.delayMs : (nextDelayMs(c.schedule, attemptsMade, null, c.random) ?? -1),
      },
    },
  );
  worker.on('failed', (job, err) => {
    if (!(err instanceof RetryDelivery)) deps.log.warn({ err, jobId: job?.id }, 'webhook job failed');
  });
  worker.on('error', (err) => deps.log.error({ err }, 'webhook worker error'));
  return {
    worker,
    queue,
    async close() {
      await worker.close();
      await queue.close();
    },
  };
}

/** Enqueues one delivery per subscribed endpoint; returns how many. */
async function fanout(c: DeliveryContext, queue: Queue, data: WebhookFanoutJob): Promise<number> {
  const type = WebhookEventType.safeParse(data.event.type);
  // Not a type anyone can subscribe to (AssessmentIssued, say): nothing to deliver.
  if (!type.success) return 0;
  const endpoints = await withTenant(c.db, { tenantId: data.tenantId, mode: data.mode }, (tx) => listSubscribedEndpoints(tx, type.data));
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
  const scope = { tenantId: data.tenantId, mode: data.mode };
  // BullMQ counts failed attempts; this one is the next.
  const attempt = job.attemptsMade + 1;
  const endpoint = await withTenant(c.db, scope, (tx) => loadEndpoint(tx, data.endpointId));
  if (!endpoint || endpoint.disabled_at) {
    c.log.info({ jobId: job.id, endpointId: data.endpointId }, 'webhook endpoint is disabled; delivery dropped');
    return 'dropped';
  }
  const result = await attemptDelivery(c, data, endpoint);
  const decision = decideAttempt(c, result, attempt);
  await recordAttempt(c, data, attempt, decision);
  if (decision.status === 'retrying') throw new RetryDelivery(decision.delayMs!, decision.error ?? 'failed');
  return decision.status;
}
