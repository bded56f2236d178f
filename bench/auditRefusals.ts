import { randomBytes, randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import pg from 'pg';
import { createAuditSpool } from '../src/audit/spool.js';
import { createAuditWriter } from '../src/audit/auditWriter.js';
// A namespace, so the bench also runs on the code of a commit before keptSealSigner (the base it is compared with).
import * as sealer from '../src/audit/sealer.js';
import { activeKey } from '../src/cases/export/keys.js';
import type { AuditRecord } from '../src/audit/store.js';
import { migrate } from '../src/platform/db/migrate.js';
import { createDb } from '../src/platform/db/pool.js';

/**
 * What one anonymous refusal (no key, a bad key, the per-address limit)
 * costs the audit trail: rows per second through the group-committing
 * writer, rows per second sealed, and bytes on disk per refusal in the log,
 * its chain and the work list (tables and indexes, after VACUUM; since 000120
 * the anonymous trail's own tables, reported under the old names), on a fresh
 * database of this checkout's migrations. A second flood of as many follows
 * on the same database, after one more VACUUM (as autovacuum would run
 * between them: index pages emptied by one VACUUM are reused only after the
 * next): its bytes are what the trail keeps per refusal once the work list,
 * emptied by each sealing, reuses its own space. The sealer signs its seals
 * as the service's does (000140: the export signing key, opened once and
 * kept while it is the active key).
 *
 * The machine is shared, so each phase's CPU is reported beside its rate,
 * per 1,000 rows: the bench's process (process.cpuUsage) and the database's
 * backends serving it (their /proc/PID/schedstat run time, PostgreSQL on
 * this host), the fairer figure when other work competes for the cores.
 *
 *   npx tsx bench/auditRefusals.ts [ROWS]      (default 50,000)
 */
const ROWS = Number(process.argv[2] ?? 50_000);
// The bench's own pepper: the signing key it makes is sealed under it and dropped with the database.
const PEPPER = randomBytes(32).toString('base64url');
const ADMIN = process.env.TEST_ADMIN_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

function refusal(i: number): AuditRecord {
  return {
    audit_id: randomUUID(),
    occurred_at: new Date(Date.now() - 60_000).toISOString(),
    tenant_id: null,
    mode: null,
    principal: 'anonymous',
    action: 'createInquiry',
    target_kind: null,
    target_id: null,
    // No key, a bad key, then the per-address limit.
    status: i % 3 === 2 ? 429 : 401,
    rule: null,
    purpose: null,
    cost_amount: null,
    cost_currency: null,
    request_id: randomUUID(),
  };
}

async function sizes(c: pg.Client): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  // Since 000120 a refusal lands in the anonymous trail's tables, reported under the names they had before.
  const tables: Record<string, string> = {
    audit_log: 'audit_refusals',
    audit_chain: 'audit_refusal_links',
    audit_unsealed: 'audit_refusals_unsealed',
  };
  for (const [name, t] of Object.entries(tables)) {
    const { rows } = await c.query<{ bytes: string }>(
      // A partitioned table's partitions, or the table itself.
      `SELECT coalesce((SELECT sum(pg_total_relation_size(relid)) FROM pg_partition_tree($1::regclass)), pg_total_relation_size($1::regclass))::bigint AS bytes`,
      [t],
    );
    out[name] = Number(rows[0]!.bytes);
  }
  return out;
}

/** CPU nanoseconds each client backend of the database has run so far (PostgreSQL on this host); the bench's own admin connection left out. */
async function backendCpu(c: pg.Client, database: string): Promise<Map<number, number>> {
  const { rows } = await c.query<{ pid: number }>(
    `SELECT pid FROM pg_stat_activity WHERE datname = $1 AND backend_type = 'client backend' AND pid <> pg_backend_pid()`,
    [database],
  );
  const out = new Map<number, number>();
  for (const { pid } of rows) {
    // schedstat's first field: time on a CPU, in nanoseconds. A backend gone meanwhile is simply not counted.
    const text = await readFile(`/proc/${pid}/schedstat`, 'utf8').catch(() => null);
    if (text !== null) out.set(pid, Number(text.split(' ')[0]));
  }
  return out;
}

/** CPU a phase took: the bench process's and the database backends', in ms. */
async function cpuOf<T>(c: pg.Client, database: string, phase: () => Promise<T>): Promise<{ value: T; nodeMs: number; pgMs: number }> {
  const pgBefore = await backendCpu(c, database);
  const nodeBefore = process.cpuUsage();
  const value = await phase();
  const node = process.cpuUsage(nodeBefore);
  const pgAfter = await backendCpu(c, database);
  let pgNs = 0;
  // A backend started during the phase counts whole: its start is the phase's cost.
  for (const [pid, ns] of pgAfter) pgNs += ns - (pgBefore.get(pid) ?? 0);
  return { value, nodeMs: (node.user + node.system) / 1000, pgMs: pgNs / 1e6 };
}

async function main(): Promise<void> {
  const name = `tas_bench_refusals_${randomBytes(4).toString('hex')}`;
  const url = new URL(ADMIN);
  url.pathname = `/${name}`;
  await migrate(url.toString());
  const owner = new pg.Client({ connectionString: url.toString() });
  await owner.connect();
  const db = await createDb(url.toString());
  try {
    await owner.query('VACUUM ANALYZE');
    const writer = createAuditWriter({ db, spool: createAuditSpool(`/tmp/${name}-spool`) });
    // Made once, as the service's worker makes it: the key is opened on the first pass and kept while active.
    const open = () => activeKey(db, PEPPER);
    const signer = typeof sealer.keptSealSigner === 'function' ? sealer.keptSealSigner(open) : open;
    /** One flood, appended then sealed; its time and what it added to each table, per refusal. */
    const flood = async () => {
      await owner.query('VACUUM audit_refusals_unsealed');
      const before = await sizes(owner);
      let appendMs = 0;
      let sealMs = 0;
      // The rates time what they timed before (the appending without the writer's last flush); the CPU takes both.
      const append = await cpuOf(owner, name, async () => {
        const t0 = performance.now();
        // As a flood arrives: every call's row handed to the writer, which batches what gathers.
        const CHUNK = 2_000;
        for (let i = 0; i < ROWS; i += CHUNK) {
          await Promise.all(Array.from({ length: Math.min(CHUNK, ROWS - i) }, (_, j) => writer.append(refusal(i + j))));
        }
        appendMs = performance.now() - t0;
        await writer.close();
      });
      const seal = await cpuOf(owner, name, async () => {
        const t1 = performance.now();
        let sealed = 0;
        for (let n = -1; n !== 0; sealed += n) n = await sealer.sealAudit(db, 0, signer);
        sealMs = performance.now() - t1;
        return sealed;
      });
      const sealed = seal.value;
      await owner.query('VACUUM audit_refusals, audit_refusal_links, audit_refusals_unsealed');
      const after = await sizes(owner);
      const per = (t: string) => Math.round((after[t]! - before[t]!) / ROWS);
      const bytes = { audit_log: per('audit_log'), audit_chain: per('audit_chain'), audit_unsealed: per('audit_unsealed') };
      const perK = (ms: number) => Math.round((ms / ROWS) * 1000 * 100) / 100;
      const cpu = {
        append_node_ms_per_1k: perK(append.nodeMs),
        append_pg_ms_per_1k: perK(append.pgMs),
        seal_node_ms_per_1k: perK(seal.nodeMs),
        seal_pg_ms_per_1k: perK(seal.pgMs),
      };
      return { sealed, appendMs, sealMs, bytes, total: bytes.audit_log + bytes.audit_chain + bytes.audit_unsealed, cpu };
    };
    const first = await flood();
    const second = await flood();
    const result = {
      rows: ROWS,
      sealed: first.sealed,
      append_rows_per_s: Math.round(ROWS / (first.appendMs / 1000)),
      seal_rows_per_s: Math.round(first.sealed / (first.sealMs / 1000)),
      bytes_per_refusal: first.bytes,
      bytes_per_refusal_total: first.total,
      cpu: first.cpu,
      second_flood: {
        append_rows_per_s: Math.round(ROWS / (second.appendMs / 1000)),
        seal_rows_per_s: Math.round(second.sealed / (second.sealMs / 1000)),
        bytes_per_refusal: second.bytes,
        bytes_per_refusal_total: second.total,
        cpu: second.cpu,
      },
    };
    console.log(JSON.stringify(result));
  } finally {
    await db.end();
    await owner.end();
    const admin = new pg.Client({ connectionString: ADMIN });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

await main();
