import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Queue } from 'bullmq';
import pino from 'pino';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toBullJobId } from '../../actors/relay.js';
import type { StreamEvent } from '../../actors/types.js';
import { envelopeOf, eventIdOf } from '../../src/events/hub.js';
import { WebhookOut } from '../../src/webhooks/schemas.js';
import type { ProvisionedTenant } from '../../src/tenancy/provision.js';
import { fanoutJobFor, webhookIdOf, webhookProcessor } from '../../src/webhooks/jobs.js';
import { startWorker, type RunningWorker } from '../../src/root/workerFactory.js';
import { ownerClient } from '../support/database.js';
import { bearer, startTestService, type TestService } from '../support/service.js';
import { eventually as waitUntil } from '../support/wait.js';

/**
 * Webhooks end to end: registration over HTTP, the worker on real Redis and
 * Postgres, and a real HTTP receiver on loopback that verifies signatures
 * with the Standard Webhooks reference library. The schedule is in
 * milliseconds so retries happen within the test.
 */
const STEP_MS = 60;
const TIMEOUT_MS = 400;

let ts: TestService;
/** The webhook worker as the root runs it, and the `webhooks` queue the tests add fan-outs to. */
let hooks: RunningWorker & { queue: Queue };
const receivers: Receiver[] = [];

beforeAll(async () => {
  ts = await startTestService({}, { workers: false });
  const shell = { connection: { host: '127.0.0.1', port: 6379 }, prefix: ts.config.TAS_REDIS_PREFIX, log: pino({ level: 'silent' }) };
  const processor = webhookProcessor({
    ...shell,
    db: ts.service.db,
    pepper: ts.config.keyPepper,
    allowInsecureTargets: (mode) => mode === 'test',
    schedule: { delaysMs: [0, STEP_MS, STEP_MS, STEP_MS], jitter: 0, maxRetryAfterMs: 5000 },
    timeoutMs: TIMEOUT_MS,
  });
  hooks = { ...startWorker(processor, shell), queue: new Queue('webhooks', { connection: shell.connection, prefix: shell.prefix }) };
  await hooks.worker.waitUntilReady();
});
afterAll(async () => {
  await hooks?.close();
  await hooks?.queue.close();
  await Promise.all(receivers.map((r) => r.close()));
  await ts?.stop();
});

interface Hit {
  at: number;
  headers: IncomingHttpHeaders;
  body: string;
}
type Reply = { status: number; headers?: Record<string, string> } | 'hang';
interface Receiver {
  url: string;
  hits: Hit[];
  close(): Promise<void>;
}

/** A receiver answering its n-th request (from 0) with `reply(n)`. */
async function startReceiver(reply: (n: number) => Reply): Promise<Receiver> {
  const hits: Hit[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r = reply(hits.length);
      hits.push({ at: Date.now(), headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      if (r === 'hang') return;
      res.writeHead(r.status, r.headers).end('receiver body that must never be stored');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const receiver: Receiver = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    hits,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
  receivers.push(receiver);
  return receiver;
}

async function register(key: string, body: Record<string, unknown>) {
  const res = await fetch(`${ts.base}/v1/admin/webhooks`, {
    method: 'POST',
    headers: { ...bearer(key), 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { res, body: (await res.json()) as any };
}

/** A tenant of its own per scenario, so no other test's endpoints receive its events. */
async function endpointFor(reply: (n: number) => Reply, eventTypes = ['InquiryConcluded']) {
  const tenant = await ts.provision(`hooks-${randomUUID().slice(0, 8)}`);
  const receiver = await startReceiver(reply);
  const { res, body } = await register(tenant.keys.test_admin, { url: receiver.url, event_types: eventTypes });
  expect(res.status).toBe(201);
  return { tenant, receiver, webhook: WebhookOut.parse(body) };
}

function concluded(): StreamEvent {
  const inquiryId = randomUUID();
  return {
    stream_id: inquiryId,
    seq: 3,
    type: 'InquiryConcluded',
    payload: { inquiry_id: inquiryId, assessment: { score: 71 }, concluded_at: '2025-01-01T00:00:00.000Z' },
    occurred_at: '2025-01-01T00:00:00.000Z',
  };
}

/** What the relay does with fanoutJobFor's answer. */
async function publish(tenant: ProvisionedTenant, event: StreamEvent, queue: Queue = hooks.queue) {
  const job = fanoutJobFor(event, { tenantId: tenant.tenant_id, mode: 'test' }, 'inquiry');
  await queue.add(job.name, job.data, { jobId: toBullJobId(job.jobId) });
}

/**
 * Publishes an event and waits for what proves "nothing more will come" for
 * one endpoint: the fan-out job (the only producer of its delivery jobs) has
 * completed, and no delivery job of that endpoint is still waiting, delayed
 * or running. A blind sleep proved nothing on a slow machine.
 */
async function publishAndSettle(tenant: ProvisionedTenant, event: StreamEvent, endpointId: string, jobIdSuffix = '') {
  const job = fanoutJobFor(event, { tenantId: tenant.tenant_id, mode: 'test' }, 'inquiry');
  const jobId = `${toBullJobId(job.jobId)}${jobIdSuffix}`;
  await hooks.queue.add(job.name, job.data, { jobId });
  await eventually(
    async () => (await hooks.queue.getJob(jobId))?.getState(),
    (state) => state === 'completed',
  );
  await eventually(
    async () =>
      (await hooks.queue.getJobs(['waiting', 'active', 'delayed', 'prioritized'])).filter(
        (j) => (j.data as { endpointId?: string }).endpointId === endpointId,
      ).length,
    (pending) => pending === 0,
  );
}

async function deliveries(endpointId: string) {
  const c = await ownerClient(ts.dbUrl);
  try {
    const r = await c.query(
      `SELECT attempt, status, http_status, error, webhook_id, event_type, created_at, next_attempt_at
       FROM webhook_deliveries WHERE endpoint_id = $1 ORDER BY id`,
      [endpointId],
    );
    return r.rows as {
      attempt: number;
      status: string;
      http_status: number | null;
      error: string | null;
      webhook_id: string;
      next_attempt_at: Date | null;
      created_at: Date;
    }[];
  } finally {
    await c.end();
  }
}

/** Reads until `done`; past the deadline, the last read, for the assertion that follows to show. */
async function eventually<T>(read: () => Promise<T>, done: (v: T) => boolean, ms = 10_000): Promise<T> {
  return waitUntil(
    async () => {
      const v = await read();
      return done(v) && { v };
    },
    { timeout: ms },
  ).then(
    ({ v }) => v,
    () => read(),
  );
}

const settled = (n: number) => (rows: { status: string }[]) => rows.length >= n && rows.some((r) => r.status !== 'retrying');
const gaps = (hits: Hit[]) => hits.slice(1).map((h, i) => h.at - hits[i]!.at);

describe('registering a webhook', () => {
  it('given a test admin key and a loopback receiver, then 201 with the secret once, sealed at rest, audited as a webhook', async () => {
    const { res, body } = await register(ts.tenant.keys.test_admin, {
      url: 'http://127.0.0.1:9/hooks',
      event_types: ['InquiryConcluded', 'MonitorTriggered'],
      description: 'ops',
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(WebhookOut.parse(body)).toMatchObject({
      url: 'http://127.0.0.1:9/hooks',
      event_types: ['InquiryConcluded', 'MonitorTriggered'],
      description: 'ops',
    });
    expect(body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const c = await ownerClient(ts.dbUrl);
    try {
      const row = (await c.query('SELECT secret_sealed FROM webhook_endpoints WHERE id = $1', [body.webhook_id])).rows[0];
      expect(row.secret_sealed.includes(Buffer.from(body.secret))).toBe(false);
      const audit = (
        await c.query('SELECT status, target_kind, target_id FROM audit_log WHERE audit_id = $1', [res.headers.get('x-service-audit-id')])
      ).rows[0];
      expect(audit).toEqual({ status: 201, target_kind: 'webhook', target_id: body.webhook_id });
    } finally {
      await c.end();
    }
  });

  it.each([
    ['a live key to a loopback receiver', 'live_admin', 'http://127.0.0.1:9/hooks'],
    ['a live key to https on loopback', 'live_admin', 'https://127.0.0.1/hooks'],
    ['a live key to the metadata address', 'live_admin', 'https://169.254.169.254/latest'],
    ['a test key to a private address', 'test_admin', 'http://10.0.0.1/hooks'],
    ['a live key to 6to4 around loopback', 'live_admin', 'https://[2002:7f00:1::1]/hooks'],
    ['a test key to 6to4 around a private address', 'test_admin', 'http://[2002:a00:1::1]/hooks'],
    ['a live key to NAT64 around the metadata address', 'live_admin', 'https://[64:ff9b::a9fe:a9fe]/hooks'],
    ['a live key to Teredo whose client is loopback', 'live_admin', 'https://[2001:0:808:808::80ff:fffe]/hooks'],
  ] as const)('given %s, then 422 W01 naming url, without echoing it', async (_name, key, url) => {
    const { res, body } = await register(ts.tenant.keys[key], { url, event_types: ['InquiryConcluded'] });
    expect(res.status).toBe(422);
    expect(body.detail).toEqual([{ loc: ['body', 'url'], msg: expect.any(String), type: 'W01' }]);
    expect(JSON.stringify(body)).not.toContain(new URL(url).hostname);
  });
});

describe('delivering', () => {
  it('given a receiver that fails twice, then it gets the event on the third attempt, signed, with one webhook-id', async () => {
    const { tenant, receiver, webhook } = await endpointFor((n) =>
      n === 0 ? { status: 500 } : n === 1 ? { status: 503 } : { status: 204 },
    );
    const event = concluded();
    await publish(tenant, event);
    const rows = await eventually(() => deliveries(webhook.webhook_id), settled(3));

    const webhookId = webhookIdOf(webhook.webhook_id, eventIdOf(event.stream_id, event.seq));
    expect(rows.map((r) => [r.attempt, r.status, r.http_status, r.error])).toEqual([
      [1, 'retrying', 500, 'http 500'],
      [2, 'retrying', 503, 'http 503'],
      [3, 'succeeded', 204, null],
    ]);
    expect(new Set(rows.map((r) => r.webhook_id))).toEqual(new Set([webhookId]));
    expect(receiver.hits).toHaveLength(3);
    for (const hit of receiver.hits) {
      expect(hit.headers['webhook-id']).toBe(webhookId);
      expect(hit.headers['content-type']).toBe('application/json');
      expect(new Webhook(webhook.secret!).verify(hit.body, hit.headers as Record<string, string>)).toEqual(envelopeOf(event, 'inquiry'));
    }
    for (const gap of gaps(receiver.hits)) expect(gap).toBeGreaterThanOrEqual(STEP_MS - 5);

    const job = await hooks.queue.getJob(`${webhook.webhook_id}.${eventIdOf(event.stream_id, event.seq)}`);
    expect(await job?.getState()).toBe('completed');
    expect(job?.returnvalue).toBe('succeeded');
  });

  it('given the same event fanned out again, then one delivery job and one request', async () => {
    const { tenant, receiver, webhook } = await endpointFor(() => ({ status: 200 }));
    const event = concluded();
    await publish(tenant, event);
    await eventually(() => deliveries(webhook.webhook_id), settled(1));
    // Both the relay's re-dispatch (same fanout id) and a fanout whose job was already cleaned up (new id).
    await publish(tenant, event);
    await publishAndSettle(tenant, event, webhook.webhook_id, '.again');
    expect(receiver.hits).toHaveLength(1);
    expect(await deliveries(webhook.webhook_id)).toHaveLength(1);
  });

  it('given an endpoint not subscribed to the type, then it receives nothing', async () => {
    const { tenant, receiver, webhook } = await endpointFor(() => ({ status: 200 }), ['MonitorTriggered']);
    await publishAndSettle(tenant, concluded(), webhook.webhook_id);
    expect(receiver.hits).toHaveLength(0);
    expect(await deliveries(webhook.webhook_id)).toHaveLength(0);
  });

  it('given a receiver answering 410, then the endpoint is disabled and receives nothing more', async () => {
    const { tenant, receiver, webhook } = await endpointFor(() => ({ status: 410 }));
    await publish(tenant, concluded());
    const rows = await eventually(() => deliveries(webhook.webhook_id), settled(1));
    expect(rows.map((r) => [r.attempt, r.status, r.http_status])).toEqual([[1, 'disabled', 410]]);
    const c = await ownerClient(ts.dbUrl);
    try {
      const ep = (await c.query('SELECT disabled_at, disabled_reason FROM webhook_endpoints WHERE id = $1', [webhook.webhook_id])).rows[0];
      expect(ep.disabled_at).toBeInstanceOf(Date);
      expect(ep.disabled_reason).toMatch(/410/);
    } finally {
      await c.end();
    }
    await publishAndSettle(tenant, concluded(), webhook.webhook_id);
    expect(receiver.hits).toHaveLength(1);
  });

  it('given Retry-After longer than the step, then the next attempt waits for it', async () => {
    const { tenant, receiver, webhook } = await endpointFor((n) =>
      n === 0 ? { status: 503, headers: { 'retry-after': '1' } } : { status: 200 },
    );
    await publish(tenant, concluded());
    const rows = await eventually(() => deliveries(webhook.webhook_id), settled(2));
    expect(rows.map((r) => [r.attempt, r.status])).toEqual([
      [1, 'retrying'],
      [2, 'succeeded'],
    ]);
    const planned = rows[0]!.next_attempt_at!.getTime() - rows[0]!.created_at.getTime();
    expect(planned).toBeGreaterThanOrEqual(900);
    expect(gaps(receiver.hits)[0]).toBeGreaterThanOrEqual(990);
  });

  it('given a receiver that hangs past the timeout, then that counts as a failed attempt', async () => {
    const { tenant, receiver, webhook } = await endpointFor((n) => (n === 0 ? 'hang' : { status: 200 }));
    await publish(tenant, concluded());
    const rows = await eventually(() => deliveries(webhook.webhook_id), settled(2));
    expect(rows.map((r) => [r.attempt, r.status, r.http_status, r.error])).toEqual([
      [1, 'retrying', null, 'timeout'],
      [2, 'succeeded', 200, null],
    ]);
    expect(gaps(receiver.hits)[0]).toBeGreaterThanOrEqual(TIMEOUT_MS + STEP_MS - 5);
  });

  it('given a receiver that always fails, then the schedule runs out and the delivery gives up', async () => {
    const { tenant, receiver, webhook } = await endpointFor(() => ({ status: 500 }));
    await publish(tenant, concluded());
    const rows = await eventually(() => deliveries(webhook.webhook_id), settled(4));
    expect(rows.map((r) => [r.attempt, r.status])).toEqual([
      [1, 'retrying'],
      [2, 'retrying'],
      [3, 'retrying'],
      [4, 'gave_up'],
    ]);
    expect(rows.at(-1)!.next_attempt_at).toBeNull();
    expect(receiver.hits).toHaveLength(4);
  });
});

describe('the webhooks of a tenant, as its admin manages them (issue 18)', () => {
  const admin = async (tenant: ProvisionedTenant, method: 'GET' | 'DELETE', path: string) => {
    const res = await fetch(`${ts.base}${path}`, { method, headers: bearer(tenant.keys.test_admin) });
    return { status: res.status, body: res.status === 204 ? null : ((await res.json()) as any) };
  };

  it('lists and reads them without a secret, shows each delivery attempt, and deletes one so it receives nothing more', async () => {
    const { tenant, receiver, webhook } = await endpointFor((n) => (n === 0 ? { status: 503 } : { status: 204 }));
    const listed = await admin(tenant, 'GET', '/v1/admin/webhooks');
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([
      {
        webhook_id: webhook.webhook_id,
        url: webhook.url,
        event_types: ['InquiryConcluded'],
        description: null,
        created_at: webhook.created_at,
        enabled: true,
        disabled_reason: null,
      },
    ]);
    expect(JSON.stringify(listed.body)).not.toContain('whsec_');
    expect((await admin(tenant, 'GET', `/v1/admin/webhooks/${webhook.webhook_id}`)).body.webhook_id).toBe(webhook.webhook_id);

    await publish(tenant, concluded());
    await eventually(() => deliveries(webhook.webhook_id), settled(2));
    const log = await admin(tenant, 'GET', `/v1/admin/webhooks/${webhook.webhook_id}/deliveries`);
    expect(log.status).toBe(200);
    expect(log.body.map((d: any) => [d.attempt, d.status, d.http_status, d.error])).toEqual([
      [1, 'retrying', 503, 'http 503'],
      [2, 'succeeded', 204, null],
    ]);
    expect(log.body[0].next_attempt_at).not.toBeNull();
    expect(new Set(log.body.map((d: any) => d.message_id)).size).toBe(1);
    for (const d of log.body) expect(d.latency_ms).toEqual(expect.any(Number));

    expect((await admin(tenant, 'DELETE', `/v1/admin/webhooks/${webhook.webhook_id}`)).status).toBe(204);
    expect((await admin(tenant, 'GET', '/v1/admin/webhooks')).body).toEqual([]);
    expect((await admin(tenant, 'GET', `/v1/admin/webhooks/${webhook.webhook_id}`)).status).toBe(404);
    expect((await admin(tenant, 'DELETE', `/v1/admin/webhooks/${webhook.webhook_id}`)).status).toBe(404);
    // The log of a deleted webhook stays readable.
    expect((await admin(tenant, 'GET', `/v1/admin/webhooks/${webhook.webhook_id}/deliveries`)).body).toHaveLength(2);
    const hits = receiver.hits.length;
    await publishAndSettle(tenant, concluded(), webhook.webhook_id);
    expect(receiver.hits.length).toBe(hits);
  });

  it('another tenant sees none of them', async () => {
    const { webhook } = await endpointFor(() => ({ status: 204 }));
    const other = await ts.provision(`hooks-${randomUUID().slice(0, 8)}`);
    expect((await admin(other, 'GET', `/v1/admin/webhooks/${webhook.webhook_id}`)).status).toBe(404);
    expect((await admin(other, 'GET', `/v1/admin/webhooks/${webhook.webhook_id}/deliveries`)).status).toBe(404);
    expect((await admin(other, 'DELETE', `/v1/admin/webhooks/${webhook.webhook_id}`)).status).toBe(404);
  });
});
