import type { Logger } from 'pino';
import type { StreamEvent } from '../../actors/types.js';
import { withTenant, type Db, type Mode } from '../platform/db/pool.js';
import { envelopeOf, eventIdOf } from '../events/index.js';
import { WebhookEventType } from '../events/schemas.js';
import { nextDelayMs, parseRetryAfter, type RetrySchedule } from './schedule.js';
import type { Keyring } from '../auth/index.js';
import { openSecret } from './secret.js';
import { postWebhook, type SendOutcome } from './send.js';
import { signatureHeaders } from './sign.js';
import { disableEndpoint, insertDelivery, listSubscribedEndpoints, loadEndpoint, type DeliveryStatus, type EndpointRow } from './store.js';
import { checkTarget, type LookupAll } from './targets.js';

/**
 * Webhook delivery as commands, knowing nothing of the queue that runs them
 * (src/webhooks/jobs.ts is the BullMQ adapter): which endpoints an event goes
 * to (`subscribersOf`), and one attempt of one delivery (`deliverOnce`), in
 * three steps: make it (attemptDelivery), decide what it means
 * (decideAttempt, pure), write it down (recordAttempt). Errors written to
 * the log are our own neutral words: a receiver's body, an address it
 * resolved to or a socket error's text never reach the table.
 */

/** What delivering needs: the store, the pepper secrets are sealed under, the schedule and the clock. */
export interface DeliveryContext {
  db: Db;
  /** The key pepper the signing secrets are sealed under, or the keyring while it rotates. */
  pepper: string | Keyring;
  log: Logger;
  allowInsecureTargets: (mode: Mode) => boolean;
  schedule: RetrySchedule;
  /** Per attempt, connect to response head; the OpenAPI `webhooks` section promises receivers 10 s. */
  timeoutMs: number;
  lookup?: LookupAll;
  now: () => number;
  random: () => number;
}

/** One event for one endpoint, as the fanout addressed it. */
export interface DeliveryRequest {
  tenantId: string;
  mode: Mode;
  event: StreamEvent;
  stream: 'inquiry' | 'monitor' | 'case';
  endpointId: string;
  /** The Standard Webhooks `webhook-id`: the same on every attempt and re-dispatch. */
  webhookId: string;
}
type WebhookDeliverJob = DeliveryRequest;

/** The tenant's enabled endpoints subscribed to the event's type (none when the type is not one anyone can subscribe to). */
export async function subscribersOf(
  c: Pick<DeliveryContext, 'db'>,
  scope: { tenantId: string; mode: Mode },
  event: StreamEvent,
): Promise<string[]> {
  const type = WebhookEventType.safeParse(event.type);
  if (!type.success) return [];
  return [...(await withTenant(c.db, scope, (tx) => listSubscribedEndpoints(tx, type.data)))];
}

/** What one attempt came to: `retrying` carries the delay before the next. */
export interface AttemptOutcome {
  status: DeliveryStatus | 'dropped';
  retryInMs: number | null;
  error: string | null;
}

/** One attempt (the `attempt`-th) of one delivery: dropped when the endpoint is gone or disabled, else made, decided and recorded. */
export async function deliverOnce(c: DeliveryContext, data: DeliveryRequest, attempt: number): Promise<AttemptOutcome> {
  const scope = { tenantId: data.tenantId, mode: data.mode };
  const endpoint = await withTenant(c.db, scope, (tx) => loadEndpoint(tx, data.endpointId));
  if (!endpoint || endpoint.disabled_at) {
    c.log.info({ endpointId: data.endpointId }, 'webhook endpoint is disabled; delivery dropped');
    return { status: 'dropped', retryInMs: null, error: null };
  }
  const started = performance.now();
  const result = await attemptDelivery(c, data, endpoint);
  const latencyMs = Math.round(performance.now() - started);
  const decision = decideAttempt(c, result, attempt);
  await recordAttempt(c, data, attempt, decision, latencyMs);
  return { status: decision.status, retryInMs: decision.delayMs, error: decision.error };
}

export type AttemptResult = SendOutcome | { kind: 'refused' } | { kind: 'secret' };

export interface AttemptDecision {
  status: DeliveryStatus;
  httpStatus: number | null;
  error: string | null;
  /** Set when status is `retrying`. */
  delayMs: number | null;
}

/** The current secret, and during a rotation's overlap the previous one too: a delivery is signed under each. */
function signingSecrets(c: DeliveryContext, data: WebhookDeliverJob, endpoint: EndpointRow): string[] {
  const ctx = { tenantId: data.tenantId, endpointId: endpoint.id };
  const secrets = [openSecret(c.pepper, endpoint.secret_sealed, ctx)];
  const overlap =
    endpoint.previous_secret_sealed !== null &&
    endpoint.previous_secret_expires_at !== null &&
    Date.parse(endpoint.previous_secret_expires_at) > c.now();
  if (overlap) secrets.push(openSecret(c.pepper, endpoint.previous_secret_sealed!, ctx));
  return secrets;
}

export async function attemptDelivery(c: DeliveryContext, data: WebhookDeliverJob, endpoint: EndpointRow): Promise<AttemptResult> {
  let secrets: string[];
  try {
    secrets = signingSecrets(c, data, endpoint);
  } catch {
    return { kind: 'secret' };
  }
  // Checked again at send time: what resolved to a public address at registration may not any more.
  const target = await checkTarget(endpoint.url, { allowInsecure: c.allowInsecureTargets(data.mode), lookup: c.lookup });
  if (!target.ok) return { kind: 'refused' };
  // The same envelope as the SSE `data:`, serialised once so the signed bytes are the sent bytes.
  const body = JSON.stringify(envelopeOf(data.event, data.stream));
  const headers = {
    ...signatureHeaders(secrets, data.webhookId, Math.floor(c.now() / 1000), body),
    'content-type': 'application/json',
    'user-agent': 'tas-webhooks/1',
  };
  return postWebhook({ url: target.url, address: target.address, headers, body, timeoutMs: c.timeoutMs });
}

const GONE = 'receiver answered 410 Gone; endpoint disabled';

/** What an attempt's result means: done, disabled, given up, or retried after a delay. */
export function decideAttempt(
  c: Pick<DeliveryContext, 'schedule' | 'now' | 'random'>,
  result: AttemptResult,
  attempt: number,
): AttemptDecision {
  const done = (status: DeliveryStatus, httpStatus: number | null, error: string | null): AttemptDecision => ({
    status,
    httpStatus,
    error,
    delayMs: null,
  });
  switch (result.kind) {
    case 'secret':
      // The pepper changed or the row was tampered with: no retry can sign this.
      return done('failed', null, 'signing secret cannot be opened');
    case 'refused':
      // Not retried: probing an address the guard refuses is what the guard is for.
      return done('failed', null, 'target refused by the address guard');
    case 'response':
      if (result.status >= 200 && result.status < 300) return done('succeeded', result.status, null);
      // Standard Webhooks: 410 means the receiver is gone for good, so stop sending to it at all.
      if (result.status === 410) return done('disabled', result.status, GONE);
      break;
  }
  const httpStatus = result.kind === 'response' ? result.status : null;
  const error = result.kind === 'response' ? `http ${result.status}` : result.kind === 'timeout' ? 'timeout' : 'connection failed';
  const retryAfterMs = result.kind === 'response' ? parseRetryAfter(result.retryAfter, c.now()) : null;
  const delayMs = nextDelayMs(c.schedule, attempt, retryAfterMs, c.random);
  if (delayMs === null) return done('gave_up', httpStatus, error);
  return { status: 'retrying', httpStatus, error, delayMs };
}

/** One webhook_deliveries row per attempt; a 410 disables the endpoint in the same transaction. */
export async function recordAttempt(
  c: DeliveryContext,
  data: WebhookDeliverJob,
  attempt: number,
  d: AttemptDecision,
  latencyMs: number | null = null,
): Promise<void> {
  const scope = { tenantId: data.tenantId, mode: data.mode };
  await withTenant(c.db, scope, async (tx) => {
    if (d.status === 'disabled') await disableEndpoint(tx, data.endpointId, GONE);
    await insertDelivery(tx, scope, {
      endpointId: data.endpointId,
      webhookId: data.webhookId,
      eventId: eventIdOf(data.event.stream_id, data.event.seq),
      eventType: data.event.type,
      attempt,
      status: d.status,
      httpStatus: d.httpStatus,
      error: d.error,
      nextAttemptAt: d.delayMs === null ? null : new Date(c.now() + d.delayMs).toISOString(),
      latencyMs,
      event: { streamId: data.event.stream_id, seq: data.event.seq, stream: data.stream },
    });
  });
}
