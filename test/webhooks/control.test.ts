import type { IncomingHttpHeaders } from 'node:http';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { WebhookOut, WebhookSummary } from '../../src/webhooks/schemas.js';
import { bearer, startTestService, type TestService } from '../support/service.js';
import { startReceiver } from '../monitors/support.js';

/**
 * The webhook control plane of issue 18, through the real server, relay and
 * webhook worker: change an endpoint, rotate its secret with an overlap in
 * which deliveries carry a signature under each secret, and deliver one
 * message again with the same `webhook-id`.
 */
let ts: TestService;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let hits: { headers: IncomingHttpHeaders; body: string }[] = [];
let url = '';

beforeAll(async () => {
  receiver = await startReceiver();
  hits = receiver.received;
  url = receiver.url;
  ts = await startTestService();
});
afterAll(async () => {
  await receiver?.close();
  await ts?.stop();
});

async function call(method: string, path: string, body?: unknown, key = ts.tenant.keys.test_admin) {
  const res = await fetch(`${ts.base}${path}`, {
    method,
    headers: { ...bearer(key), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

/** One inquiry, whose InquiryConcluded the endpoint is subscribed to; resolves with the delivery it caused. */
async function concludeOne(value: string) {
  const before = hits.length;
  const r = await call(
    'POST',
    '/v1/inquiries',
    {
      subject: { presentations: [{ type: 'EMAIL', value }] },
      intent: 'counterparty_check',
      purpose: 'fraud_prevention',
      stake: { kind: 'account' },
    },
    ts.tenant.keys.test,
  );
  expect(r.status).toBe(200);
  await vi.waitFor(() => expect(hits.length).toBeGreaterThan(before), { timeout: 10_000, interval: 50 });
  return hits[hits.length - 1]!;
}

const verifies = (secret: string, hit: { headers: IncomingHttpHeaders; body: string }) => {
  try {
    new Webhook(secret).verify(hit.body, {
      'webhook-id': String(hit.headers['webhook-id']),
      'webhook-timestamp': String(hit.headers['webhook-timestamp']),
      'webhook-signature': String(hit.headers['webhook-signature']),
    });
    return true;
  } catch {
    return false;
  }
};

describe('the webhook control plane', () => {
  let webhookId = '';
  let firstSecret = '';

  it('PATCH changes only the fields given, pauses and resumes, and refuses an empty change', async () => {
    const created = await call('POST', '/v1/admin/webhooks', { url, event_types: ['MonitorTriggered'] });
    expect(created.status).toBe(201);
    const out = WebhookOut.parse(created.body);
    webhookId = out.webhook_id;
    firstSecret = out.secret!;

    const changed = await call('PATCH', `/v1/admin/webhooks/${webhookId}`, {
      event_types: ['InquiryConcluded'],
      description: 'ops receiver',
    });
    expect(changed.status).toBe(200);
    expect(WebhookSummary.parse(changed.body)).toMatchObject({
      url,
      event_types: ['InquiryConcluded'],
      description: 'ops receiver',
      enabled: true,
    });

    const paused = await call('PATCH', `/v1/admin/webhooks/${webhookId}`, { enabled: false });
    expect(paused.body).toMatchObject({ enabled: false, disabled_reason: 'disabled by the tenant' });
    const resumed = await call('PATCH', `/v1/admin/webhooks/${webhookId}`, { enabled: true });
    expect(resumed.body).toMatchObject({ enabled: true, disabled_reason: null });
    // Resumed, and subscribed to the new type: an inquiry's conclusion is delivered.
    const delivered = await concludeOne('resumed@example.org');
    expect(JSON.parse(delivered.body).type).toBe('InquiryConcluded');

    const empty = await call('PATCH', `/v1/admin/webhooks/${webhookId}`, {});
    expect(empty.status).toBe(422);
    expect((await call('PATCH', '/v1/admin/webhooks/00000000-0000-4000-8000-000000000000', { enabled: true })).status).toBe(404);
  });

  it('rotates the secret: during the overlap a delivery verifies under the old and the new secret; with no overlap, under the new one only', async () => {
    const rotated = await call('POST', `/v1/admin/webhooks/${webhookId}/rotate-secret`, { grace_seconds: 3600 });
    expect(rotated.status).toBe(200);
    const second = WebhookOut.parse(rotated.body).secret!;
    expect(second).not.toBe(firstSecret);
    const during = await concludeOne('overlap@example.org');
    expect(String(during.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect([verifies(firstSecret, during), verifies(second, during)]).toEqual([true, true]);

    const third = WebhookOut.parse(
      (await call('POST', `/v1/admin/webhooks/${webhookId}/rotate-secret`, { grace_seconds: 0 })).body,
    ).secret!;
    const after = await concludeOne('rotated@example.org');
    expect([verifies(second, after), verifies(third, after), verifies(firstSecret, after)]).toEqual([false, true, false]);
    // The secret is shown in the rotation's answer only.
    expect(JSON.stringify((await call('GET', `/v1/admin/webhooks/${webhookId}`)).body)).not.toContain('whsec_');
  });

  it('delivers one message again with the same webhook-id; an unknown message is 404, a disabled endpoint 409', async () => {
    const log = await call('GET', `/v1/admin/webhooks/${webhookId}/deliveries`);
    const last = log.body.at(-1);
    const before = hits.filter((h) => h.headers['webhook-id'] === last.message_id).length;
    const again = await call('POST', `/v1/admin/webhooks/${webhookId}/deliveries/${last.message_id}/redeliver`);
    expect(again.status).toBe(202);
    expect(again.body).toMatchObject({ message_id: last.message_id, event_id: last.event_id, event_type: 'InquiryConcluded' });
    await vi.waitFor(() => expect(hits.filter((h) => h.headers['webhook-id'] === last.message_id).length).toBe(before + 1), {
      timeout: 10_000,
      interval: 50,
    });

    expect((await call('POST', `/v1/admin/webhooks/${webhookId}/deliveries/msg_unknown/redeliver`)).status).toBe(404);
    await call('PATCH', `/v1/admin/webhooks/${webhookId}`, { enabled: false });
    expect((await call('POST', `/v1/admin/webhooks/${webhookId}/deliveries/${last.message_id}/redeliver`)).status).toBe(409);
  });
});
