import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTasClient, openSessionSocket, streamEvents, verifyWebhook, type EventEnvelope } from '../../clients/typescript/src/index.js';
import { json, providersFile, startProviderFixture, type ProviderFixture } from '../inquiries/support.js';
import { startTestService, type TestService } from '../support/service.js';
import { startReceiver } from '../monitors/support.js';
import { wsText } from '../support/socket.js';

/**
 * The typed client (clients/typescript) against the real server: an
 * inquiry, a monitor subscription over SSE that survives a dropped
 * connection, a live session, a webhook verified.
 */
let ts: TestService;
let provider: ProviderFixture;
let risk: 'low' | 'high' = 'low';

beforeAll(async () => {
  provider = await startProviderFixture();
  // Every call answers the other way, so every rescan of a monitor changes its answer.
  provider.handler = (_req, res) => {
    json(res, 200, { risk });
    risk = risk === 'low' ? 'high' : 'low';
  };
  ts = await startTestService({
    TAS_MIN_MONITOR_CADENCE_SECONDS: '1',
    TAS_PROVIDERS_FILE: providersFile(provider.url, 'Client Test Intel', 5000),
  });
});
afterAll(async () => {
  await ts?.stop();
  await provider?.close();
});

const SUBJECT = { presentations: [{ type: 'EMAIL' as const, value: 'client.test@example.org' }] };

describe('the typed client', () => {
  it('asks an inquiry and reads it back, typed; a refusal comes back as a typed error, not a throw', async () => {
    const client = createTasClient({ baseUrl: ts.base, key: ts.tenant.keys.test });
    const { data, error, response } = await client.POST('/v1/inquiries', {
      body: { subject: SUBJECT, intent: 'counterparty_check', purpose: 'fraud_prevention', stake: { kind: 'account' } },
    });
    expect(error).toBeUndefined();
    expect(response.status).toBe(200);
    expect(data!.assessment.score).toBeGreaterThanOrEqual(0);
    const read = await client.GET('/v1/inquiries/{inquiry_id}', { params: { path: { inquiry_id: data!.inquiry_id } } });
    expect(read.data!.inquiry_id).toBe(data!.inquiry_id);

    const refused = await client.POST('/v1/inquiries', {
      body: { subject: SUBJECT, intent: 'counterparty_check', purpose: 'marketing', stake: { kind: 'account' } },
    });
    expect(refused.response.status).toBe(422);
    expect(refused.data).toBeUndefined();
    expect(JSON.stringify(refused.error)).toContain('I13');
  });

  it('follows a monitor over SSE through a dropped connection: no event missed or repeated', async () => {
    const client = createTasClient({ baseUrl: ts.base, key: ts.tenant.keys.test });
    const { data: monitor } = await client.POST('/v1/monitors', {
      body: {
        subject: SUBJECT,
        intent: 'counterparty_check',
        purpose: 'fraud_prevention',
        stake: { kind: 'account', deadline_ms: 3000 },
        cadence_seconds: 1,
        triggers: { score_moves_by: 5 },
      },
    });
    expect(monitor).toBeDefined();
    const seen: EventEnvelope[] = [];
    // A fetch whose first connection is cut after two events, as a proxy or a mobile network would.
    let connections = 0;
    const flaky: typeof fetch = async (input, init) => {
      const res = await fetch(input, init);
      connections += 1;
      if (connections > 1 || !res.body) return res;
      let events = 0;
      const cut = res.body.pipeThrough(
        new TransformStream<Uint8Array, Uint8Array>({
          transform(chunk, c) {
            c.enqueue(chunk);
            events +=
              (new TextDecoder().decode(chunk).match(/\nid: /g) ?? []).length +
              (new TextDecoder().decode(chunk).startsWith('id: ') ? 1 : 0);
            if (events >= 2) c.terminate();
          },
        }),
      );
      return new Response(cut, { status: res.status, headers: res.headers });
    };
    const stream = streamEvents({
      url: monitor!.events_url,
      key: ts.tenant.keys.test,
      onEvent: (e) => seen.push(e),
      retryMs: 100,
      fetch: flaky,
    });
    try {
      await vi.waitFor(() => expect(seen.length).toBeGreaterThanOrEqual(4), { timeout: 30_000, interval: 100 });
    } finally {
      stream.close();
      await client.DELETE('/v1/monitors/{monitor_id}', { params: { path: { monitor_id: monitor!.monitor_id } } });
    }
    expect(connections).toBeGreaterThanOrEqual(2);
    const sequences = seen.map((e) => e.sequence);
    expect(sequences).toEqual(Array.from({ length: sequences.length }, (_, i) => i + 1));
    expect(seen.every((e) => e.type === 'MonitorTriggered')).toBe(true);
  }, 60_000);

  it('opens a live session and gets its first assessment over the socket', async () => {
    const client = createTasClient({ baseUrl: ts.base, key: ts.tenant.keys.test });
    const { data: session } = await client.POST('/v1/sessions', {
      body: { purpose: 'fraud_prevention', intent: 'onboarding', stake: { kind: 'account' }, subject: SUBJECT },
    });
    expect(session).toBeDefined();
    const socket = openSessionSocket(session!, WebSocket);
    const messages: { type: string }[] = [];
    socket.on('message', (raw) => messages.push(JSON.parse(wsText(raw)) as { type: string }));
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    socket.send(JSON.stringify({ type: 'text', line: 'reach me at second.address@example.org' }));
    await vi.waitFor(() => expect(messages.map((m) => m.type)).toEqual(expect.arrayContaining(['ready', 'assessment.issued', 'ack'])), {
      timeout: 10_000,
      interval: 50,
    });
    socket.close();
  });

  it('verifies a webhook delivery with the endpoint secret, and refuses a tampered body', async () => {
    const receiver = await startReceiver();
    const received = receiver.received;
    try {
      const admin = createTasClient({ baseUrl: ts.base, key: ts.tenant.keys.test_admin });
      const url = receiver.url;
      const { data: hook } = await admin.POST('/v1/admin/webhooks', { body: { url, event_types: ['InquiryConcluded'] } });
      const client = createTasClient({ baseUrl: ts.base, key: ts.tenant.keys.test });
      await client.POST('/v1/inquiries', {
        body: { subject: SUBJECT, intent: 'counterparty_check', purpose: 'fraud_prevention', stake: { kind: 'account' } },
      });
      await vi.waitFor(() => expect(received.length).toBeGreaterThanOrEqual(1), { timeout: 10_000, interval: 50 });
      const delivery = received[0]!;
      const headers = delivery.headers as Record<string, string>;
      const envelope = verifyWebhook(hook!.secret!, delivery.body, headers);
      expect(envelope.type).toBe('InquiryConcluded');
      expect(() => verifyWebhook(hook!.secret!, delivery.body.replace('InquiryConcluded', 'InquiryConcludeD'), headers)).toThrow();
    } finally {
      await receiver.close();
    }
  });
});
