import { withTenant } from '../src/db/pool.js';
import { envelopeOf, eventIdOf } from '../src/events/hub.js';
import { nextDelayMs, parseRetryAfter } from '../src/webhooks/schedule.js';
import { openSecret } from '../src/webhooks/secret.js';
import { postWebhook, type SendOutcome } from '../src/webhooks/send.js';
import { signatureHeaders } from '../src/webhooks/sign.js';
import { disableEndpoint, insertDelivery, type DeliveryStatus, type EndpointRow } from '../src/webhooks/store.js';
import { checkTarget } from '../src/webhooks/targets.js';
import type { DeliveryContext, WebhookDeliverJob } from './webhookJobs.js';

/**
 * One delivery attempt, in three steps: make it (attemptDelivery), decide
 * what it means (decideAttempt, pure), write it down (recordAttempt). Errors
 * written to the log are our own neutral words: a receiver's body, an
 * address it resolved to or a socket error's text never reach the table.
 */

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
  const overlap = endpoint.previous_secret_sealed !== null && endpoint.previous_secret_expires_at !== null && Date.parse(endpoint.previous_secret_expires_at) > c.now();
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
export function decideAttempt(c: Pick<DeliveryContext, 'schedule' | 'now' | 'random'>, result: AttemptResult, attempt: number): AttemptDecision {
  const done = (status: DeliveryStatus, httpStatus: number | null, error: string | null): AttemptDecision => ({ status, httpStatus, error, delayMs: null });
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
      if (result.status === 410) return done('disabled', 410, GONE);
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
export async function recordAttempt(c: DeliveryContext, data: WebhookDeliverJob, attempt: number, d: AttemptDecision, latencyMs: number | null = null): Promise<void> {
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
