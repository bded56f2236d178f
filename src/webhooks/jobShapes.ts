import { createHash } from 'node:crypto';
import type { ConnectionOptions } from 'bullmq';
import {
  DELIVER_JOB,
  FANOUT_JOB,
  WEBHOOK_QUEUE,
  WebhookDeliverJob,
  WebhookFanoutJob,
  parseWebhookJob,
  WebhookStream,
} from '../../actors/queues.js';
export { DELIVER_JOB, FANOUT_JOB, WEBHOOK_QUEUE, WebhookDeliverJob, WebhookFanoutJob, WebhookStream, parseWebhookJob };
import type { Logger } from 'pino';
import type { StreamEvent } from '../../actors/types.js';
import type { Keyring } from '../auth/index.js';
import type { Db, Mode } from '../platform/db/pool.js';
import type { RetrySchedule } from './schedule.js';
import type { LookupAll } from './targets.js';

/**
 * The `webhooks` queue's job names, their schemas and the worker's
 * dependencies: what the relay and the worker (src/webhooks/jobs.ts) share.
 */
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
  /** The key pepper the signing secrets are sealed under, or the keyring while it rotates. */
  pepper: string | Keyring;
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
