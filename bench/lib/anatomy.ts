import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { bodyFactory } from './bodies.js';
import { startPgProxy, type Transaction } from './pgproxy.js';
import { adminQuery, BASE_DATABASE_URL, startService } from './service.js';
import type { ScenarioResult } from './scenarios.js';

/**
 * inquiry-anatomy: what one request costs the database, measured rather than
 * guessed. The service runs with its DATABASE_URL through the counting proxy
 * (bench/lib/pgproxy.ts); `n` fast-tier inquiries and then `n` /v1/health
 * calls are sent one at a time, and the statements, round trips, transactions
 * and commits seen in each phase are divided by `n`. WAL bytes come from
 * pg_current_wal_lsn() (cluster-wide; the bench is the only writer).
 */
async function walLsn(): Promise<bigint> {
  const r = await adminQuery("SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::text AS b");
  return BigInt((r.rows[0] as { b: string }).b.split('.')[0]!);
}

const lsnText = (bytes: bigint) => `${(bytes >> 32n).toString(16)}/${(bytes & 0xffffffffn).toString(16)}`;

/**
 * The WAL between two positions by record type (pg_walinspect, PostgreSQL 15's contrib): which
 * rows and indexes the writes cost, per request. The six largest kinds; full-page images apart.
 */
async function walByRecord(
  from: bigint,
  to: bigint,
  n: number,
): Promise<Record<string, { records: number; bytes: number; fpi_bytes: number }>> {
  await adminQuery('CREATE EXTENSION IF NOT EXISTS pg_walinspect');
  // pg_walinspect reads only WAL already flushed ("cannot accept future end LSN"), and the insert position
  // can be ahead of the flush by an asynchronous commit's records: wait for the WAL writer (at most 200 ms).
  for (let i = 0; i < 50; i += 1) {
    const flushed = await adminQuery("SELECT pg_wal_lsn_diff(pg_current_wal_flush_lsn(), '0/0')::text AS b");
    if (BigInt((flushed.rows[0] as { b: string }).b.split('.')[0]!) >= to) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const r = await adminQuery(
    `SELECT "resource_manager/record_type" AS kind, count::int AS count, record_size::int AS bytes, fpi_size::int AS fpi
     FROM pg_get_wal_stats($1::pg_lsn, $2::pg_lsn, true) WHERE count > 0 ORDER BY combined_size DESC LIMIT 6`,
    [lsnText(from), lsnText(to)],
  );
  const per = (x: number) => Math.round((x / n) * 100) / 100;
  return Object.fromEntries(
    (r.rows as { kind: string; count: number; bytes: number; fpi: number }[]).map((row) => [
      row.kind,
      { records: per(row.count), bytes: Math.round(row.bytes / n), fpi_bytes: Math.round(row.fpi / n) },
    ]),
  );
}

/** Transactions grouped by what they do (their statements' shape, literals and all), most frequent first. */
function groupTransactions(txns: Transaction[], n: number) {
  const groups = new Map<string, { count: number; statements: string[]; roundTrips: number; dbMs: number; commitMs: number }>();
  for (const t of txns) {
    const key = t.statements.map((s) => s.slice(0, 40)).join(' | ');
    const g = groups.get(key) ?? { count: 0, statements: t.statements, roundTrips: 0, dbMs: 0, commitMs: 0 };
    g.count += 1;
    g.roundTrips += t.roundTrips;
    g.dbMs += t.dbMs;
    g.commitMs += t.commitMs;
    groups.set(key, g);
  }
  return [...groups.values()]
    .sort((a, b) => b.count - a.count)
    .slice(0, 6)
    .map((g) => ({
      per_request: Math.round((g.count / n) * 100) / 100,
      statements: g.statements.length,
      round_trips: Math.round(g.roundTrips / g.count),
      db_ms: Math.round((g.dbMs / g.count) * 100) / 100,
      commit_ms: Math.round((g.commitMs / g.count) * 100) / 100,
      sql: g.statements,
    }));
}

function countBy(items: string[], n: number): Record<string, number> {
  const out: Record<string, number> = {};
  for (const s of items) out[s.slice(0, 70)] = (out[s.slice(0, 70)] ?? 0) + 1;
  return Object.fromEntries(
    Object.entries(out)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 5)
      .map(([k, v]) => [k, Math.round((v / n) * 100) / 100]),
  );
}

async function phase(proxy: Awaited<ReturnType<typeof startPgProxy>>, n: number, call: (i: number) => Promise<void>) {
  await new Promise((r) => setTimeout(r, 500));
  // WAL is counted from a checkpoint: in steady state a page's first change after each checkpoint
  // logs the whole page, which is where random keys on large indexes cost most (issue 15).
  await adminQuery('CHECKPOINT');
  proxy.reset();
  const wal0 = await walLsn();
  const t0 = performance.now();
  for (let i = 0; i < n; i += 1) await call(i);
  const wallMs = performance.now() - t0;
  // Let the audit writer's group commit and the relay's dispatch land.
  await new Promise((r) => setTimeout(r, 300));
  const c = proxy.counters();
  const wal1 = await walLsn();
  const wal = Number(wal1 - wal0);
  const per = (x: number) => Math.round((x / n) * 100) / 100;
  return {
    statements: per(c.statements),
    round_trips: per(c.roundTrips),
    transactions: per(c.transactions.length),
    commits: per(c.commits),
    db_ms: per(c.dbMs),
    commit_ms: per(c.commitMs),
    wall_ms_through_proxy: per(wallMs),
    wal_bytes: per(wal),
    wal_by_record: await walByRecord(wal0, wal1, n),
    bytes_to_postgres: per(c.bytesToServer),
    bytes_from_postgres: per(c.bytesFromServer),
    autocommit_statements: per(c.autocommit.length),
    autocommit_kinds: countBy(c.autocommit, n),
    slowest_statements_ms_per_request: Object.fromEntries(
      [...c.byStatement]
        .sort((a, b) => b[1].ms - a[1].ms)
        .slice(0, 8)
        .map(([k, v]) => [k, { per_request: per(v.count), ms: per(v.ms), max_ms: Math.round(v.max * 100) / 100 }]),
    ),
    transaction_kinds: groupTransactions(c.transactions, n),
  };
}

export async function anatomyScenario(n: number, opts: { seedEntities?: number } = {}): Promise<ScenarioResult> {
  const base = new URL(BASE_DATABASE_URL);
  const proxy = await startPgProxy({ host: base.hostname, port: Number(base.port || 5432) });
  const service = await startService({ viaPort: proxy.port, ...(opts.seedEntities ? { seedEntities: opts.seedEntities } : {}) });
  try {
    const make = bodyFactory(randomBytes(3).toString('hex'), { worker: false });
    const headers = { authorization: `Bearer ${service.keys.live}`, 'content-type': 'application/json' };
    const url = `http://127.0.0.1:${service.port}`;
    const expect200 = async (res: Response) => {
      const text = await res.text();
      if (res.status !== 200) throw new Error(`anatomy: HTTP ${res.status} ${text.slice(0, 300)}`);
    };
    const inquiry = await phase(proxy, n, async (i) =>
      expect200(await fetch(`${url}/v1/inquiries`, { method: 'POST', headers, body: JSON.stringify(make(i)) })),
    );
    const health = await phase(proxy, n, async () => expect200(await fetch(`${url}/v1/health`, { headers })));
    return {
      scenario: 'inquiry-anatomy',
      requests: n,
      ...(opts.seedEntities ? { seeded_entities: opts.seedEntities } : {}),
      inquiry,
      health,
    };
  } finally {
    await service.stop();
    await proxy.close();
  }
}
