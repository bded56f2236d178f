import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditRecord } from './support.js';
import { auditPartitionsAhead, retainAudit } from '../../src/audit/partitions.js';
import { sealAudit, verifyAuditChains } from '../../src/audit/sealer.js';
import { appendAuditBatch, type AuditRecord } from '../../src/audit/store.js';
import { createDb, type Db } from '../../src/platform/db/pool.js';
import { cloneDatabase, ownerClient } from '../support/database.js';

/** The audit trail partitioned by month (000090): routing, months ahead, retention, the chains across months, isolation. */
let clone: Awaited<ReturnType<typeof cloneDatabase>>;
let db: Db;
let owner: pg.Client;
const A = randomUUID();
const B = randomUUID();

const row = (occurredAt: string, tenantId: string | null, action = 'test'): AuditRecord =>
  auditRecord(tenantId, { occurred_at: occurredAt, action });

async function partitionOf(auditId: string): Promise<string> {
  const { rows } = await owner.query(
    'SELECT tableoid::regclass::text AS p FROM audit_log WHERE audit_id = $1 UNION ALL SELECT tableoid::regclass::text FROM audit_refusals WHERE audit_id = $1',
    [auditId],
  );
  return rows[0].p as string;
}

beforeAll(async () => {
  clone = await cloneDatabase();
  db = await createDb(clone.url);
  owner = await ownerClient(clone.url);
  await owner.query(`INSERT INTO tenants (id, name) VALUES ($1, 'a'), ($2, 'b')`, [A, B]);
  // Two past months of partitions, as a service running since then would have made them.
  await auditPartitionsAhead(db, 1, '2020-01-15');
});
afterAll(async () => {
  await owner?.end();
  await db?.end();
  await clone?.drop();
});

describe('the audit trail by month', () => {
  it('puts each row in its month, and this month and the next ones exist ahead', async () => {
    const jan = row('2020-01-31T23:59:59.999Z', A);
    const feb = row('2020-02-01T00:00:00.000Z', A);
    const now = row(new Date().toISOString(), null);
    await appendAuditBatch(db, [jan, feb, now]);
    expect(await partitionOf(jan.audit_id)).toBe('audit_partitions.audit_log_p2020_01');
    expect(await partitionOf(feb.audit_id)).toBe('audit_partitions.audit_log_p2020_02');
    const month = new Date().toISOString().slice(0, 7).replace('-', '_');
    expect(await partitionOf(now.audit_id)).toBe(`audit_partitions.audit_refusals_p${month}`);
    const ahead = await owner.query(
      `SELECT count(*)::int AS n FROM pg_inherits WHERE inhparent = 'audit_log'::regclass
       AND inhrelid::regclass::text = 'audit_partitions.audit_log_p' || to_char(now() AT TIME ZONE 'UTC' + interval '3 months', 'YYYY_MM')`,
    );
    expect(ahead.rows[0].n).toBe(1);
  });

  it('writes a row for a month with no partition yet (DEFAULT), and leaves that month there', async () => {
    const far = row('2019-06-15T12:00:00.000Z', A);
    await appendAuditBatch(db, [far]);
    expect(await partitionOf(far.audit_id)).toBe('audit_partitions.audit_log_default');
    // Creating the month ahead later would strand the row: the month is left to the DEFAULT partition.
    const made = await owner.query(`SELECT tas_audit_partition_month('2019-06-01') AS made`);
    expect(made.rows[0].made).toBe(false);
    expect(await partitionOf(far.audit_id)).toBe('audit_partitions.audit_log_default');
    await sealAudit(db, 0);
    const chained = await owner.query('SELECT tableoid::regclass::text AS p FROM audit_chain WHERE audit_id = $1', [far.audit_id]);
    expect(chained.rows[0].p).toBe('audit_partitions.audit_chain_default');
  });

  it('verifies a chain across a month boundary, also with a month sealed out of order', async () => {
    // Sealed in insertion order: February's rows, then January's (a late batch), then February again.
    await appendAuditBatch(db, [row('2020-02-03T10:00:00.000Z', A), row('2020-02-03T10:00:01.000Z', null)]);
    await appendAuditBatch(db, [row('2020-01-20T10:00:00.000Z', A), row('2020-01-20T10:00:01.000Z', null)]);
    await appendAuditBatch(db, [row('2020-02-04T10:00:00.000Z', A)]);
    await sealAudit(db, 0);
    const verdicts = await verifyAuditChains(db);
    expect(verdicts.every((v) => v.brokenAt === null)).toBe(true);
    const months = await owner.query(`SELECT DISTINCT tableoid::regclass::text AS p FROM audit_chain WHERE chain_key = $1 ORDER BY 1`, [
      `${A}:live`,
    ]);
    expect(months.rows.map((r) => r.p)).toEqual(
      expect.arrayContaining(['audit_partitions.audit_chain_p2020_01', 'audit_partitions.audit_chain_p2020_02']),
    );
  });

  it('retention drops a whole old month, log and chain, keeps a month with rows not yet sealed, and the chains still verify', async () => {
    const before = await verifyAuditChains(db);
    const rowsBefore = new Map(before.map((v) => [v.chainKey, v.rows]));
    const janRows = Number(
      (await owner.query(`SELECT count(*) FROM audit_partitions.audit_log_p2020_01 WHERE tenant_id = $1`, [A])).rows[0].count,
    );
    expect(janRows).toBe(2);
    // February gets a row not yet sealed: it stays.
    await appendAuditBatch(db, [row('2020-02-05T10:00:00.000Z', B)]);
    expect(await retainAudit(db, '2020-03-01')).toEqual(['2020-01']);
    const gone = await owner.query(
      `SELECT to_regclass('audit_partitions.audit_log_p2020_01') AS log, to_regclass('audit_partitions.audit_chain_p2020_01') AS chain,
              to_regclass('audit_partitions.audit_log_p2020_02') AS kept`,
    );
    expect(gone.rows[0]).toEqual({ log: null, chain: null, kept: 'audit_partitions.audit_log_p2020_02' });
    const after = await verifyAuditChains(db);
    expect(after.every((v) => v.brokenAt === null)).toBe(true);
    expect(after.find((v) => v.chainKey === `${A}:live`)?.rows).toBe(rowsBefore.get(`${A}:live`)! - 2);
    // The chains go on from where they stood: new links after the retained ones verify too.
    await appendAuditBatch(db, [row(new Date(Date.now() - 1000).toISOString(), A), row(new Date(Date.now() - 1000).toISOString(), null)]);
    await sealAudit(db, 0);
    expect((await verifyAuditChains(db)).every((v) => v.brokenAt === null)).toBe(true);
    // Sealed now, February goes too.
    expect(await retainAudit(db, '2020-03-01')).toEqual(['2020-02']);
    expect((await verifyAuditChains(db)).every((v) => v.brokenAt === null)).toBe(true);
  });

  it('a row changed in a month still held breaks its chain', async () => {
    await appendAuditBatch(db, [row(new Date(Date.now() - 500).toISOString(), A)]);
    await sealAudit(db, 0);
    const target = await owner.query(`SELECT audit_id FROM audit_chain WHERE chain_key = $1 ORDER BY position DESC LIMIT 1`, [`${A}:live`]);
    await owner.query('ALTER TABLE audit_log DISABLE TRIGGER audit_log_append_only');
    await owner.query(`UPDATE audit_log SET status = 500 WHERE audit_id = $1`, [target.rows[0].audit_id]);
    await owner.query('ALTER TABLE audit_log ENABLE TRIGGER audit_log_append_only');
    const [verdict] = await verifyAuditChains(db, `${A}:live`);
    expect(verdict!.brokenAt).not.toBeNull();
  });

  it('every partition is under forced row-level security with its parent policies and grants; another tenant reads nothing', async () => {
    const parts = await owner.query(`
      SELECT c.relname, c.relrowsecurity AND c.relforcerowsecurity AS forced, i.inhparent::regclass::text AS parent,
             (SELECT array_agg(polname ORDER BY polname) FROM pg_policy WHERE polrelid = c.oid) AS policies,
             (SELECT array_agg(polname ORDER BY polname) FROM pg_policy WHERE polrelid = i.inhparent) AS parent_policies,
             c.relacl::text[] AS acl, (SELECT relacl::text[] FROM pg_class WHERE oid = i.inhparent) AS parent_acl
      FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent IN ('audit_log'::regclass, 'audit_chain'::regclass)`);
    expect(parts.rows.length).toBeGreaterThan(4);
    for (const p of parts.rows) {
      expect({ name: p.relname, forced: p.forced, policies: p.policies }).toEqual({
        name: p.relname,
        forced: true,
        policies: p.parent_policies,
      });
      expect([...p.acl].sort()).toEqual([...p.parent_acl].sort());
    }
    // Tenant B, through the parent: none of A's rows (and A has rows in several months).
    await owner.query('BEGIN');
    try {
      await owner.query(`SET LOCAL ROLE tas_service`);
      await owner.query(`SELECT set_config('tas.tenant_id', $1, true), set_config('tas.mode', 'live', true)`, [B]);
      const seen = await owner.query(`SELECT count(*)::int AS n FROM audit_log WHERE tenant_id IS DISTINCT FROM $1`, [B]);
      expect(seen.rows[0].n).toBe(0);
      const links = await owner.query(`SELECT count(*)::int AS n FROM audit_chain WHERE tenant_id IS DISTINCT FROM $1`, [B]);
      expect(links.rows[0].n).toBe(0);
    } finally {
      await owner.query('ROLLBACK');
    }
    // A partition named directly is out of the service's reach (no USAGE on its schema).
    await owner.query('BEGIN');
    try {
      await owner.query(`SET LOCAL ROLE tas_service`);
      const month = new Date().toISOString().slice(0, 7).replace('-', '_');
      await expect(owner.query(`SELECT count(*) FROM audit_partitions.audit_log_p${month}`)).rejects.toThrow(/permission denied/);
    } finally {
      await owner.query('ROLLBACK');
    }
  });

  it('the audit list and the sealer read only the months they need', async () => {
    const month = new Date().toISOString().slice(0, 7);
    const plan = await owner.query(
      `EXPLAIN (FORMAT JSON) SELECT seq FROM audit_log WHERE seq > 0 AND occurred_at >= $1::timestamptz AND occurred_at < $1::timestamptz + interval '9 days' ORDER BY seq LIMIT 10`,
      [`${month}-01T00:00:00Z`],
    );
    const relations = JSON.stringify(plan.rows[0]['QUERY PLAN']).match(/"Relation Name":"[a-z0-9_]+"/g) ?? [];
    expect([...new Set(relations)]).toEqual([`"Relation Name":"audit_log_p${month.replace('-', '_')}"`]);
    await appendAuditBatch(db, [row(new Date(Date.now() - 1000).toISOString(), A)]);
    await owner.query('ANALYZE audit_log, audit_unsealed');
    const sealer = await owner.query(`
      EXPLAIN (ANALYZE, FORMAT JSON) SELECT l.audit_id FROM audit_unsealed u JOIN audit_log l ON l.audit_id = u.audit_id AND l.occurred_at = u.occurred_at
      ORDER BY u.seq LIMIT 1000`);
    // Each look-up runs in its own month's partition only; the others are pruned at run time.
    const text = JSON.stringify(sealer.rows[0]['QUERY PLAN']);
    const scanned = [...text.matchAll(/"Relation Name":"(audit_log_[a-z0-9_]+)"[^}]*?"Actual Loops":(\d+)/g)].filter((m) => m[2] !== '0');
    expect(scanned.map((m) => m[1])).toEqual([`audit_log_p${new Date().toISOString().slice(0, 7).replace('-', '_')}`]);
  });
});
