import { spawn, type ChildProcess } from 'node:child_process';
import { connect, createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { parseArgs } from 'node:util';
import { cleanupAll, installExitHandlers, track } from './lib/children.js';
import { providersFile, startProvider } from './lib/provider.js';
import { preflight, startService, type ServiceHandle } from './lib/service.js';

/**
 * `npm run bench:faults`: the service under load while its dependencies fail
 * (issue 12, "done when"). One service (server and workers) on a fresh
 * database, reaching PostgreSQL through a TCP proxy this script can cut, and
 * a private redis-server without persistence that it kills and restarts
 * empty. Clients keep posting inquiries (each waiting on one worker check, so
 * most pass through `preliminary`) and observations the whole time.
 *
 * Timeline (seconds from the start of the load): 5 kill Redis, 9 restart it
 * empty, 14 cut PostgreSQL, 18 restore it, 25 stop the load. Then it waits
 * for the service to settle and counts, from PostgreSQL directly:
 * - acknowledged writes lost: 2xx answers whose inquiry or observation is not
 *   stored (must be 0);
 * - acknowledged inquiries not concluded (must reach 0: the deadline sweeper
 *   runs with TAS_INQUIRY_OVERDUE_MS=15000 here);
 * - answered calls without an audit row, in a tenant's trail or the anonymous
 *   one (must reach 0: the spool replays).
 */
const args = parseArgs({ options: { clients: { type: 'string' }, settle: { type: 'string' } } }).values;
const CLIENTS = Number(args.clients ?? 8);
const SETTLE_S = Number(args.settle ?? 120);
const progress = (msg: string) => process.stderr.write(`bench:faults: ${msg}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Answered {
  status: number;
  auditId: string | null;
  inquiryId?: string;
  observationId?: string;
}

function startRedis(port: number): ChildProcess {
  return track(
    spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' }),
  );
}

/** A TCP proxy to PostgreSQL that can refuse and drop every connection. */
function startProxy(): Promise<{ port: number; cut(on: boolean): void; close(): void }> {
  let cut = false;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    if (cut) return client.destroy();
    const upstream = connect(5432, '127.0.0.1');
    sockets.add(client).add(upstream);
    client.pipe(upstream).pipe(client);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        port: (server.address() as AddressInfo).port,
        cut(on) {
          cut = on;
          if (on) for (const s of sockets) s.destroy();
        },
        close: () => server.close(),
      }),
    ),
  );
}

async function call(service: ServiceHandle, path: string, body: unknown): Promise<Answered> {
  try {
    const res = await fetch(`http://127.0.0.1:${service.port}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${service.keys.test}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(15_000),
    });
    const parsed = (await res.json().catch(() => null)) as Record<string, unknown> | null;
    const answered: Answered = { status: res.status, auditId: res.headers.get('x-service-audit-id') };
    if (res.ok && typeof parsed?.inquiry_id === 'string') answered.inquiryId = parsed.inquiry_id;
    if (res.ok && typeof parsed?.observation_id === 'string') answered.observationId = parsed.observation_id;
    return answered;
  } catch {
    return { status: 0, auditId: null };
  }
}

function inquiry(i: number) {
  return {
    subject: { presentations: [{ type: 'EMAIL', value: `fault.${i}@example.org` }] },
    intent: 'pre_transaction',
    purpose: 'fraud_prevention',
    stake: { kind: 'payment', amount: 20, currency: 'GBP', deadline_ms: 300 },
  };
}

function observation(i: number) {
  return {
    subject: { presentations: [{ type: 'EMAIL', value: `fault.${i}@example.org` }] },
    provenance_class: 'tenant_supplied',
    summary: 'Paid on time.',
    observed_at: new Date().toISOString(),
    purpose: 'fraud_prevention',
  };
}

async function load(service: ServiceHandle, until: () => boolean, answers: Answered[]): Promise<void> {
  let n = 0;
  const client = async () => {
    while (!until()) {
      const i = n++;
      answers.push(await call(service, i % 2 === 0 ? '/v1/inquiries' : '/v1/observations', i % 2 === 0 ? inquiry(i) : observation(i)));
    }
  };
  await Promise.all(Array.from({ length: CLIENTS }, client));
}

async function counts(db: pg.Client, answers: Answered[]) {
  const inquiries = answers.flatMap((a) => (a.inquiryId ? [a.inquiryId] : []));
  const observations = answers.flatMap((a) => (a.observationId ? [a.observationId] : []));
  const audited = answers.flatMap((a) => (a.auditId ? [a.auditId] : []));
  const one = async (text: string, ids: string[]) => (await db.query<{ n: number }>(text, [ids])).rows[0]!.n;
  return {
    acknowledged_inquiries: inquiries.length,
    acknowledged_observations: observations.length,
    lost_inquiries: inquiries.length - (await one('SELECT count(*)::int AS n FROM inquiries WHERE id = ANY($1::uuid[])', inquiries)),
    lost_observations:
      observations.length - (await one('SELECT count(*)::int AS n FROM observations WHERE id = ANY($1::uuid[])', observations)),
    open_inquiries: await one(
      `SELECT count(*)::int AS n FROM actors WHERE id = ANY($1::uuid[]) AND snapshot->>'value' <> 'concluded'`,
      inquiries,
    ),
    answered_calls: audited.length,
    // A call refused before any tenant was known (a 503 while PostgreSQL was cut, say) has its row in the
    // anonymous trail's own table since 000120; every other call's is in its tenant's.
    calls_without_audit_row:
      audited.length -
      (await one(
        `SELECT (SELECT count(*) FROM audit_log WHERE audit_id = ANY($1::uuid[]))::int
              + (SELECT count(*) FROM audit_refusals WHERE audit_id = ANY($1::uuid[]))::int AS n`,
        audited,
      )),
  };
}

async function main() {
  installExitHandlers();
  await preflight();
  const redisPort = 21000 + Math.floor(Math.random() * 20000);
  let redis = startRedis(redisPort);
  await sleep(300);
  const proxy = await startProxy();
  const provider = await startProvider();
  const file = providersFile(provider.url, 2000);
  const service = await startService({
    env: { REDIS_URL: `redis://127.0.0.1:${redisPort}`, TAS_PROVIDERS_FILE: file.path, TAS_INQUIRY_OVERDUE_MS: '15000' },
    viaPort: proxy.port,
  });
  const owner = new pg.Client({ connectionString: service.dbUrl });
  await owner.connect();
  try {
    const answers: Answered[] = [];
    const started = Date.now();
    let stop = false;
    const running = load(service, () => stop, answers);
    const at = (s: number) => sleep(Math.max(0, started + s * 1000 - Date.now()));
    await at(5);
    progress('kill Redis');
    redis.kill('SIGKILL');
    await at(9);
    progress('restart Redis, empty');
    redis = startRedis(redisPort);
    await at(14);
    progress('cut PostgreSQL');
    proxy.cut(true);
    await at(18);
    progress('restore PostgreSQL');
    proxy.cut(false);
    await at(25);
    stop = true;
    await running;
    const statuses: Record<string, number> = {};
    for (const a of answers) statuses[a.status] = (statuses[a.status] ?? 0) + 1;
    progress(`load done: ${answers.length} calls ${JSON.stringify(statuses)}; settling up to ${SETTLE_S} s`);
    let result = await counts(owner, answers);
    const deadline = Date.now() + SETTLE_S * 1000;
    while ((result.open_inquiries > 0 || result.calls_without_audit_row > 0) && Date.now() < deadline) {
      await sleep(5000);
      result = await counts(owner, answers);
    }
    const report = {
      clients: CLIENTS,
      calls: answers.length,
      statuses,
      settled_after_s: Math.round((Date.now() - started) / 1000) - 25,
      ...result,
    };
    console.log(JSON.stringify(report));
    process.exitCode =
      report.lost_inquiries + report.lost_observations + report.open_inquiries + report.calls_without_audit_row === 0 ? 0 : 1;
  } finally {
    await owner.end();
    await service.stop();
    proxy.close();
    await provider.close();
    file.remove();
    redis.kill('SIGKILL');
    await cleanupAll();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
