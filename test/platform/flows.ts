import { Writable } from 'node:stream';
import { EventSource } from 'eventsource';
import type pg from 'pg';
import pino from 'pino';
import { Webhook } from 'standardwebhooks';
import { expect, vi } from 'vitest';
import { startService, type Service } from '../../src/root/service.js';
import { EMAIL_AND_PHONE, inquire, json, providersFile, startProviderFixture, type ProviderFixture } from '../inquiries/support.js';
import { call, ledgerCount, POLICY, startReceiver, WATCH } from '../monitors/support.js';
import { connect, openSession } from '../sessions/support.js';
import { ownerClient } from '../support/database.js';
import { bearer, startTestService, type TestService } from '../support/service.js';

/**
 * The service's main flows, written once and run on every topology
 * (test/platform/*.test.ts): a sync inquiry through a worker check, a
 * pre_transaction inquiry's revision read on SSE from a second edge, a
 * signed webhook delivery, a monitor's rescans on a BullMQ job scheduler,
 * a WebSocket session on the second edge, the per-key rate limit and a key
 * revoked on one edge refused on the other.
 */
export interface Edge {
  base: string;
  service: Service;
  logs: string[];
  stop(): Promise<void>;
}

/** Another edge (no workers) on the first one's database, Redis and prefix: a second machine behind the balancer. */
export async function startSecondEdge(ts: TestService): Promise<Edge> {
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, cb) {
      logs.push(String(chunk));
      cb();
    },
  });
  const service = await startService({ ...ts.config, PORT: 0 }, { edge: true, workers: false, log: pino({ level: 'info' }, sink) });
  return { base: `http://127.0.0.1:${service.port}`, service, logs, stop: () => service.stop() };
}

export interface FlowContext {
  ts: TestService;
  edge: Edge;
  provider: ProviderFixture;
  owner: pg.Client;
  /** The topology /healthz must name. */
  topology: 'single' | 'cluster' | 'sentinel';
}

/** What a topology's test starts its flows on: the provider fixture, the service with its workers, a second edge and an owner connection. */
export interface Flows extends FlowContext {
  /** The context the flows take. */
  c: FlowContext;
  stop(): Promise<void>;
}

/**
 * Starts the flows' set-up on one topology: a provider fixture named `providerName`
 * (answering within 5 s), the service on `env` with a 1 s minimum monitor cadence,
 * a second edge on the same database, Redis and prefix, and an owner connection.
 * `stop()` ends them in reverse order.
 */
export async function startFlows(
  topology: FlowContext['topology'],
  providerName: string,
  env: Record<string, string>,
  opts: Parameters<typeof startTestService>[1] = {},
): Promise<Flows> {
  const provider = await startProviderFixture();
  const ts = await startTestService(
    { ...env, TAS_MIN_MONITOR_CADENCE_SECONDS: '1', TAS_PROVIDERS_FILE: providersFile(provider.url, providerName, 5000) },
    opts,
  );
  const edge = await startSecondEdge(ts);
  const owner = await ownerClient(ts.dbUrl);
  const c: FlowContext = { ts, edge, provider, owner, topology };
  return {
    ...c,
    c,
    async stop() {
      await owner.end();
      await edge.stop();
      await ts.stop();
      await provider.close();
    },
  };
}

/** The inquiry through a worker and the revision on the second edge's SSE, each with its webhook delivered. */
export async function inquiriesAndTheirWebhooks(c: FlowContext): Promise<void> {
  const hooks = await webhookReceiver(c);
  try {
    await hooks.delivered(await inquiryThroughAWorker(c));
    await hooks.delivered(await revisionOnSecondEdge(c));
  } finally {
    await hooks.close();
  }
}

export async function healthzNamesTopology(c: FlowContext): Promise<void> {
  for (const base of [c.ts.base, c.edge.base]) {
    const res = await fetch(`${base}/healthz`);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ redis: 'reachable', redis_topology: c.topology, database: 'reachable' });
  }
}

/** Registers a webhook for InquiryConcluded; returns a function that waits for a verified delivery of an inquiry. */
export async function webhookReceiver(c: FlowContext) {
  const receiver = await startReceiver();
  const reg = await call(c.ts, 'POST', '/v1/admin/webhooks', c.ts.tenant.keys.test_admin, {
    url: receiver.url,
    event_types: ['InquiryConcluded'],
  });
  expect(reg.status).toBe(201);
  const hook = new Webhook(reg.body.secret as string);
  return {
    close: () => receiver.close(),
    delivered: (inquiryId: string) => allDelivered([inquiryId]),
    allDelivered,
  };

  /** Waits until every one of `inquiryIds` had its InquiryConcluded delivered; fails naming the ones that did not. */
  async function allDelivered(inquiryIds: string[]): Promise<void> {
    await vi.waitFor(
      () => {
        const seen = new Set(
          receiver.received
            .map(
              (d) =>
                hook.verify(d.body, {
                  'webhook-id': String(d.headers['webhook-id']),
                  'webhook-timestamp': String(d.headers['webhook-timestamp']),
                  'webhook-signature': String(d.headers['webhook-signature']),
                }) as { type: string; data: { inquiry_id: string } },
            )
            .filter((p) => p.type === 'InquiryConcluded')
            .map((p) => p.data.inquiry_id),
        );
        expect(inquiryIds.filter((id) => !seen.has(id))).toEqual([]);
      },
      { timeout: 20_000, interval: 200 },
    );
  }
}

/** A sync inquiry whose worker check (the provider fixture) answers at once: concluded, with its finding. */
export async function inquiryThroughAWorker(c: FlowContext): Promise<string> {
  c.provider.handler = (_req, res) => json(res, 200, { risk: 'low' });
  const r = await inquire(c.ts, { ...EMAIL_AND_PHONE, stake: { ...EMAIL_AND_PHONE.stake, deadline_ms: 5000 } });
  expect(r.status).toBe(200);
  expect(r.body.status).toBe('concluded');
  expect(r.body.findings.findings.some((f: { kind: string }) => f.kind === 'email_reputation')).toBe(true);
  expect(r.headers.get('ratelimit')).toMatch(/"per-key";r=\d+/);
  return r.body.inquiry_id as string;
}

/** pre_transaction, provider slower than the deadline: preliminary on edge one, revision and conclusion on edge two's SSE. */
export async function revisionOnSecondEdge(c: FlowContext): Promise<string> {
  c.provider.handler = (_req, res) => void setTimeout(() => json(res, 200, { risk: 'high' }), 1200);
  const r = await inquire(c.ts, { ...EMAIL_AND_PHONE, stake: { ...EMAIL_AND_PHONE.stake, deadline_ms: 400 } });
  expect(r.status).toBe(200);
  expect(r.body.status).toBe('preliminary');
  const url = new URL(r.body.events_url as string);
  const events = await collect(`${c.edge.base}${url.pathname}`, c.ts.tenant.keys.test, 'InquiryConcluded');
  expect(events).toEqual(['AssessmentIssued', 'AssessmentRevised', 'InquiryConcluded']);
  return r.body.inquiry_id as string;
}

function collect(url: string, key: string, until: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const got: string[] = [];
    const es = new EventSource(url, {
      fetch: (input, init) => fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), ...bearer(key) } }),
    });
    const timer = setTimeout(() => {
      es.close();
      reject(new Error(`no ${until} within 15 s; got ${got.join(',')}`));
    }, 15_000);
    for (const type of ['AssessmentIssued', 'AssessmentRevised', 'InquiryConcluded']) {
      es.addEventListener(type, () => {
        got.push(type);
        if (type === until) {
          clearTimeout(timer);
          es.close();
          resolve(got);
        }
      });
    }
  });
}

/** A monitor on a 1 s cadence: its job scheduler fires and at least two rescans reach the ledger. */
export async function monitorRescans(c: FlowContext): Promise<void> {
  c.provider.handler = (_req, res) => json(res, 200, { risk: 'low' });
  const policy = await call(c.ts, 'POST', '/v1/admin/policies', c.ts.tenant.keys.test_admin, POLICY);
  expect(policy.status).toBe(201);
  const created = await call(c.ts, 'POST', '/v1/monitors', c.ts.tenant.keys.test, {
    ...WATCH,
    cadence_seconds: 1,
    triggers: { score_moves_by: 10, label_change: true },
  });
  expect(created.status).toBe(201);
  const monitorId = created.body.monitor_id as string;
  await vi.waitFor(async () => expect(await ledgerCount(c.owner, monitorId)).toBeGreaterThanOrEqual(2), { timeout: 20_000, interval: 200 });
  const deleted = await call(c.ts, 'DELETE', `/v1/monitors/${monitorId}`, c.ts.tenant.keys.test);
  expect(deleted.status).toBeLessThan(300);
}

/** A WebSocket session opened and streamed on the second edge: the line is acknowledged and assessed. */
export async function sessionOnSecondEdge(c: FlowContext): Promise<void> {
  const onEdge = { ...c.ts, base: c.edge.base };
  const opened = await openSession(onEdge);
  expect(opened.status).toBe(201);
  const client = await connect(opened.body);
  try {
    await client.waitFor((m) => m.type === 'ready');
    client.send({ type: 'text', line: "I'm jane.doe@gmail.com, call me on +44 20 7946 0958" });
    expect(await client.reply(1)).toMatchObject({ type: 'ack', seq: 1 });
    expect((await client.assessment(1)).type).toBe('assessment.issued');
  } finally {
    client.ws.close();
  }
}

/** A key minted and used on both edges, revoked on edge one: edge two refuses it within a second. */
export async function revocationReachesSecondEdge(c: FlowContext): Promise<void> {
  const minted = await call(c.ts, 'POST', '/v1/admin/keys', c.ts.tenant.keys.test_admin, {
    name: 'topology',
    scopes: ['monitors'],
    mode: 'test',
  });
  expect(minted.status).toBe(201);
  const key = minted.body.secret as string;
  const onEdge = (path: string) => fetch(`${c.edge.base}${path}`, { headers: bearer(key) });
  expect((await onEdge('/v1/health')).status).toBe(200);
  expect((await call(c.ts, 'DELETE', `/v1/admin/keys/${minted.body.key_id}`, c.ts.tenant.keys.test_admin)).status).toBe(204);
  await vi.waitFor(async () => expect((await onEdge('/v1/health')).status).toBe(401), { timeout: 1000, interval: 50 });
}
