import { createHash } from 'node:crypto';
import { UnrecoverableError, type ConnectionOptions } from 'bullmq';
import type { Logger } from 'pino';
import { z } from 'zod';
import { StreamEventSchema, type StreamEvent } from '../actors/types.js';
import type { Keyring } from '../src/auth/keyring.js';
import type { Db, Mode } from '../src/db/pool.js';
import type { RetrySchedule } from '../src/webhooks/schedule.js';
import type { LookupAll } from '../src/webhooks/targets.js';

/**
 * The `webhooks` queue's job names, their schemas and the worker's
 * dependencies: what the relay and the worker (workers/webhooks.ts) share.
 */
export const WEBHOOK_QUEUE = 'webhooks';
export const FANOUT_JOB = 'webhook.fanout';
export const DELIVER_JOB = 'webhook.deliver';

const JobMode = z.enum(['live', 'test']);
// The stored event's own schema, with a stream id that must be an actor's uuid.
const StreamEventData = StreamEventSchema.extend({ stream_id: z.uuid() });
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



