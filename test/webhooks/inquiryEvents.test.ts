import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMAIL_AND_PHONE, inquire } from '../inquiries/support.js';
import { bearer, startTestService, type TestService } from '../support/service.js';
import { eventually } from '../support/wait.js';

/** End to end: an inquiry concludes, the relay fans its event out, a receiver verifies the signed delivery. */
let ts: TestService;
let receiverUrl = '';
const received: { headers: IncomingMessage['headers']; body: string }[] = [];
const server = createServer((req, res) => {
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', () => {
    received.push({ headers: req.headers, body });
    res.writeHead(204).end();
  });
});

beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  receiverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  ts = await startTestService();
});
afterAll(async () => {
  await ts?.stop();
  server.closeAllConnections();
  server.close();
});

describe('webhooks for inquiry events', () => {
  it('an InquiryConcluded event reaches a subscribed receiver, signed per Standard Webhooks', async () => {
    const reg = await fetch(`${ts.base}/v1/admin/webhooks`, {
      method: 'POST',
      headers: { ...bearer(ts.tenant.keys.test_admin), 'content-type': 'application/json' },
      body: JSON.stringify({ url: receiverUrl, event_types: ['InquiryConcluded'], description: 'e2e' }),
    });
    expect(reg.status).toBe(201);
    const { secret } = (await reg.json()) as { secret: string };
    const r = await inquire(ts, EMAIL_AND_PHONE);
    expect(r.body.status).toBe('concluded');
    await eventually(() => received.length > 0, { timeout: 10_000, interval: 50, what: 'the delivery' });
    expect(received).toHaveLength(1);
    const delivery = received[0]!;
    const payload = new Webhook(secret).verify(delivery.body, {
      'webhook-id': String(delivery.headers['webhook-id']),
      'webhook-timestamp': String(delivery.headers['webhook-timestamp']),
      'webhook-signature': String(delivery.headers['webhook-signature']),
    }) as { type: string; data: { inquiry_id: string } };
    expect(payload.type).toBe('InquiryConcluded');
    expect(payload.data.inquiry_id).toBe(r.body.inquiry_id);
  });
});
