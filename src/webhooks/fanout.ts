import type { StreamEvent } from '../../actors/types.js';
import type { Mode } from '../platform/db/pool.js';
import { fanoutJobFor, type WebhookFanoutJob, type WebhookStream } from './jobShapes.js';

/**
 * Which published events go out to webhooks, and on which stream: the rule
 * the relay's publish applies to every event after its live subscribers have
 * it. An event goes out when its type is one an endpoint can subscribe to,
 * it is not a copy, and an endpoint of its tenant wants it.
 */

/** The event types an endpoint can subscribe to, and the stream kind each is delivered as. */
const STREAM_OF_TYPE: Readonly<Record<string, WebhookStream>> = {
  MonitorTriggered: 'monitor',
  AssessmentRevised: 'inquiry',
  InquiryConcluded: 'inquiry',
  CaseChanged: 'case',
};

type Scope = { tenantId: string; mode: Mode };

/**
 * The stream kind an event published on `streamId` goes out as, or null when
 * it does not go out: not a webhook type, or a monitor's event copied onto
 * its case's stream (it was delivered from the monitor's own stream).
 */
export function webhookStreamOf(streamId: string, event: StreamEvent): WebhookStream | null {
  const stream = Object.hasOwn(STREAM_OF_TYPE, event.type) ? STREAM_OF_TYPE[event.type]! : null;
  if (stream === 'monitor' && event.payload.monitor_id !== streamId) return null;
  return stream;
}

export interface WebhookFanoutDeps {
  /** Whether an enabled endpoint of the tenant subscribes to the type (src/webhooks/subscriptions.ts). */
  wants(scope: Scope, eventType: string): Promise<boolean>;
  /** Adds the fanout job (its options are the job catalogue's, actors/queues.ts). */
  enqueue(job: { jobId: string; data: WebhookFanoutJob }): Promise<void>;
}

/**
 * The relay's webhook step for one published event. A failure leaves the
 * outbox row for the sweep; the fanout's deterministic job id makes the retry harmless.
 */
export function createWebhookFanout(deps: WebhookFanoutDeps) {
  return async function fanOut(streamId: string, event: StreamEvent, scope: Scope): Promise<void> {
    const stream = webhookStreamOf(streamId, event);
    if (stream === null || !(await deps.wants(scope, event.type))) return;
    const job = fanoutJobFor(event, scope, stream);
    await deps.enqueue({ jobId: job.jobId, data: job.data });
  };
}
