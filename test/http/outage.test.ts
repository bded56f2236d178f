import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownerClient } from '../support/database.js';
import { bearer, startTestService, type TestService } from '../support/service.js';
import { sendJson, startHttpFixture, type HttpFixture } from '../checks/httpFixture.js';
import { eventually } from '../support/wait.js';

/**
 * Dependencies going away: the service answers fast 502/503 problems instead
 * of hanging, and an audit row it could not write is kept on local disk and
 * written once PostgreSQL is back. PostgreSQL is reached through a TCP proxy
 * the test can cut; Redis is a private redis-server the test can kill.
 */
let ts: TestService;
let owner: pg.Client;
let proxy: Server;
let proxyPort = 0;
let cut = false;
const sockets = new Set<Socket>();
let redis: ChildProcess;
let registry: HttpFixture;
const redisPort = 20000 + Math.floor(Math.random() * 20000);

function startProxy(): Promise<void> {
  proxy = createServer((client) => {
    if (cut) return client.destroy();
    const upstream = connect(5432, '127.0.0.1');
    sockets.add(client).add(upstream);
    client.pipe(upstream).pipe(client);
    const drop = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
  });
  return new Promise((r) =>
    proxy.listen(0, '127.0.0.1', () => {
      proxyPort = (proxy.address() as AddressInfo).port;
      r();
    }),
  );
}

/** Resolves once something accepts connections on the port (the spawned server is up), or fails after 10 s. */
async function listening(port: number): Promise<void> {
  await eventually(
    () =>
      new Promise<boolean>((resolve) => {
        const socket = connect(port, '127.0.0.1', () => {
          socket.destroy();
          resolve(true);
        });
        socket.on('error', () => resolve(false));
      }),
    { timeout: 10_000, interval: 20, what: `something listening on ${port}` },
  );
}

beforeAll(async () => {
  redis = spawn('redis-server', ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: 'ignore',
  });
  await listening(redisPort);
  await startProxy();
  // An RDAP service on loopback makes the domain-age look-up a worker check of every inquiry below.
  registry = await startHttpFixture((_request, response) => sendJson(response, 404, {}));
  ts = await startTestService({ REDIS_URL: `redis://127.0.0.1:${redisPort}`, TAS_RDAP_BASE_URL: registry.baseUrl }, { workers: true });
  owner = await ownerClient(ts.dbUrl);
});

afterAll(async () => {
  await owner?.end();
  await ts?.stop().catch(() => undefined);
  proxy?.close();
  redis?.kill('SIGKILL');
  await registry?.close();
});

describe('outages', () => {
  it('PostgreSQL unreachable: the audit writer keeps the row on local disk within seconds and writes it once PostgreSQL is back', async () => {
    // The service under test reaches PostgreSQL directly; point a second pool through the proxy.
    const { createDb } = await import('../../src/platform/db/pool.js');
    const { createAuditWriter } = await import('../../src/audit/auditWriter.js');
    const { createAuditSpool } = await import('../../src/audit/spool.js');
    const { appendAuditBatch } = await import('../../src/audit/store.js');
    const viaProxy = ts.dbUrl.replace(':5432/', `:${proxyPort}/`);
    const db = await createDb(viaProxy, { connectionTimeout: 1000 });
    const spool = createAuditSpool(`/tmp/tas-outage-${process.pid}`);
    const writer = createAuditWriter({ db, spool });
    cut = true;
    for (const s of sockets) s.destroy();
    const started = Date.now();
    const auditId = '7d1f3b52-6c1e-4c9b-9a51-3f0e6f1d2c11';
    const where = await writer.append({
      audit_id: auditId,
      occurred_at: new Date().toISOString(),
      tenant_id: null,
      mode: null,
      principal: 'anonymous',
      action: 'outage-test',
      target_kind: null,
      target_id: null,
      status: 502,
      rule: null,
      purpose: null,
      cost_amount: null,
      cost_currency: null,
      request_id: null,
    });
    expect(where).toBe('spool');
    expect(Date.now() - started).toBeLessThan(3000);
    cut = false;
    const replayed = await spool.replay((rows) => appendAuditBatch(db, rows));
    expect(replayed).toBe(1);
    // A row with no tenant belongs to the trail of calls refused before any tenant was known (issue 50).
    const row = await owner.query('SELECT action, status FROM audit_refusals WHERE audit_id = $1', [auditId]);
    expect(row.rows).toEqual([{ action: 'outage-test', status: 502 }]);
    await writer.close();
    await db.end();
  });

  it('Redis down: reads and inquiries keep working (worker checks answered at once as absences), the limiter counts locally, /healthz names Redis', async () => {
    expect((await fetch(`${ts.base}/v1/health`, { headers: bearer(ts.tenant.keys.test) })).status).toBe(200);
    const gone = new Promise((r) => redis.once('exit', r));
    redis.kill('SIGKILL');
    await gone;
    const started = Date.now();
    const res = await fetch(`${ts.base}/v1/health`, { headers: bearer(ts.tenant.keys.test) });
    expect(Date.now() - started).toBeLessThan(3000);
    expect(res.status).toBe(200);
    const inquiry = await fetch(`${ts.base}/v1/inquiries`, {
      method: 'POST',
      headers: { ...bearer(ts.tenant.keys.test), 'content-type': 'application/json' },
      body: JSON.stringify({
        subject: { presentations: [{ type: 'EMAIL', value: 'redis.down@example.org' }] },
        intent: 'pre_transaction',
        purpose: 'fraud_prevention',
        stake: { kind: 'payment', amount: 10, currency: 'GBP' },
      }),
    });
    expect(inquiry.status).toBe(200);
    const answer = (await inquiry.json()) as any;
    expect(answer.status).toBe('concluded');
    // Its worker check (the email domain's age) could be neither queued nor reported: an absence, not a 503.
    expect(answer.findings.absences).toContainEqual(
      expect.objectContaining({ kind: 'error', reason: 'rdap_domain_age: The check queue is unreachable, so the check was not run.' }),
    );
    expect(registry.requests.filter((r) => r.url?.includes('example.org'))).toEqual([]);
    const health = (await (await fetch(`${ts.base}/healthz`)).json()) as { status: string; redis: string; database: string };
    expect(health).toMatchObject({ status: 'degraded', redis: 'unreachable', database: 'reachable' });
    // Audited as usual, and a keyed call is still limited (locally): the limiter never fails open to nothing.
    const row = await owner.query(`SELECT count(*)::int AS n FROM audit_log WHERE action = 'getHealth' AND status = 200`);
    expect(row.rows[0].n).toBeGreaterThanOrEqual(2);
  });
});
