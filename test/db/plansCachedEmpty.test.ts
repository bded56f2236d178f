import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { sql } from 'slonik';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { claimOutboxByIds, claimStaleOutbox, deleteDispatched, deleteDispatchedLazily, scopeRelay } from '../../actors/outboxStore.js';
import { sealAudit } from '../../src/audit/sealer.js';
import { createDb, type Db } from '../../src/platform/db/pool.js';
import { cloneDatabase, ownerClient } from '../support/database.js';
import { nodesOf, type PlanNode } from '../support/plans.js';

/**
 * A plan PostgreSQL caches while a table is nearly empty must still be right
 * once the table is large. The service runs repeated statements prepared;
 * after five runs PostgreSQL may keep one generic plan for the connection's
 * life, and test/db/hotQueryPlans.test.ts only plans on tables already
 * filled. Here the relay's statements run first on a fresh outbox, as on a
 * new deployment, then the outbox grows to 100,000 rows (never analysed: the
 * backlog of a Redis outage), and the plan the connection then uses is read
 * back with EXPLAIN EXECUTE.
 */
const ROWS = 100_000;
const tenantId = randomUUID();
let database: { url: string; drop: () => Promise<void> };
let owner: pg.Client;
let db: Db;

beforeAll(async () => {
  database = await cloneDatabase();
  owner = await ownerClient(database.url);
  // The audit tables are partitioned by month (000090): the setting is each partition's.
  for (const table of ['outbox', 'audit_log', 'audit_unsealed', 'audit_chain']) {
    const { rows } = await owner.query(`SELECT relid::regclass::text AS name FROM pg_partition_tree($1) WHERE isleaf`, [table]);
    for (const { name } of rows) await owner.query(`ALTER TABLE ${name} SET (autovacuum_enabled = false)`);
  }
  await owner.query(`INSERT INTO tenants (id, name) VALUES ($1, 'plans')`, [tenantId]);
  // One connection, so every call below runs on the session whose plans are read back.
  // One connection kept for the whole file: the statements prepared while the tables were small must
  // still be on it when the grown tables are read (slonik would close it after 5 s idle, and the
  // setup takes longer than that on a loaded machine).
  db = await createDb(database.url, { maximumPoolSize: 1, idleTimeout: 600_000 });
  const { rows } = await owner.query<{ id: string }>(
    `
    INSERT INTO outbox (tenant_id, mode, kind, payload) SELECT $1, 'live', 'test', '{}' FROM generate_series(1, 200) RETURNING id`,
    [tenantId],
  );
  const ids = rows.map((r) => Number(r.id));
  // Ten rounds of 15 rows (a batch under load) while the table holds 200: the plan cache settles on a
  // generic plan, which it prefers once the custom plans' estimates (15 rows) exceed its own (10).
  for (let round = 0; round < 10; round += 1) {
    await deleteDispatchedLazily(
      db,
      ids.slice(round * 10, round * 10 + 5).map((id) => ({ id, tenantId })),
    );
    await db.transaction(async (tx) => {
      await scopeRelay(tx);
      const claimed = await claimOutboxByIds(tx, ids.slice(round * 10 + 5, round * 10 + 20));
      await deleteDispatched(
        tx,
        claimed.slice(0, 5).map((r) => r.id),
      );
      await claimStaleOutbox(tx, 60_000, 100);
    });
  }
  // The sealer's passes over a young audit log: a few calls waiting past the horizon each time, in two chains.
  for (let round = 0; round < 10; round += 1) {
    await insertAuditRows(`r${round}`, 12, "interval '1 hour'");
    await sealAudit(db, 0);
  }
  await owner.query(`SET synchronous_commit = off`);
  // Then a long log, already sealed (its work list emptied, its chain written), and a few calls waiting again.
  await insertAuditRows('old', ROWS, "interval '2 hours'");
  await owner.query(
    `
    INSERT INTO audit_chain (audit_id, occurred_at, chain_key, tenant_id, mode, position, prev_hash, hash)
    SELECT l.audit_id, l.occurred_at, 'bulk', $1, 'live', g, '\\x00', '\\x00'
    FROM generate_series(1, ${ROWS}) g JOIN audit_log l ON l.audit_id = md5('old' || g)::uuid`,
    [tenantId],
  );
  await owner.query(`DELETE FROM audit_unsealed`);
  await insertAuditRows('new', 5, "interval '1 minute'");
  await owner.query(
    `
    INSERT INTO outbox (tenant_id, mode, kind, payload) SELECT $1, 'live', 'test', '{}' FROM generate_series(1, ${ROWS})`,
    [tenantId],
  );
}, 120_000);

async function insertAuditRows(tag: string, count: number, age: string): Promise<void> {
  await owner.query(
    `
    INSERT INTO audit_log (audit_id, occurred_at, tenant_id, mode, principal, action, status)
    SELECT md5($2 || g)::uuid, now() - ${age}, $1, 'live', 'key:plans', 'test', 200 FROM generate_series(1, ${count}) g`,
    [tenantId, tag],
  );
}

afterAll(async () => {
  await db?.end();
  await owner?.end();
  await database?.drop();
});

/** The plan the pool's one session uses for its prepared statement matching `pattern` (LIKE), run by `execute`. */
type Execute = (name: ReturnType<typeof sql.identifier>) => ReturnType<typeof sql.unsafe>;
const withTwoIds: Execute = (name) => sql.unsafe`EXPLAIN (FORMAT JSON) EXECUTE ${name}('{1,2}')`;

async function cachedPlanOf(pattern: string, execute: Execute = withTwoIds): Promise<{ nodes: PlanNode[]; genericPlans: number }> {
  return db.transaction(async (tx) => {
    await scopeRelay(tx);
    const prepared = await tx.any(sql.type(z.object({ name: z.string(), generic_plans: z.coerce.number() }))`
      SELECT name, generic_plans FROM pg_prepared_statements WHERE statement LIKE ${pattern}`);
    if (prepared.length !== 1) throw new Error(`${prepared.length} prepared statements match ${pattern}`);
    const name = sql.identifier([prepared[0]!.name]);
    const rows = await tx.any(execute(name));
    const plan = (rows[0] as { 'QUERY PLAN': { Plan: PlanNode }[] })['QUERY PLAN'][0]!.Plan;
    return { nodes: nodesOf(plan), genericPlans: prepared[0]!.generic_plans };
  });
}

// A partitioned table's scans name its partitions (audit_log_p2026_11, audit_log_default: 000090).
const seqScansOf = (table: string, nodes: PlanNode[]) =>
  nodes.filter(
    (n) => n['Node Type'] === 'Seq Scan' && new RegExp(`^${table}(_p\\d{4}_\\d{2}|_default)?$`).test(String(n['Relation Name'])),
  );
const seqScansOfOutbox = (nodes: PlanNode[]) => seqScansOf('outbox', nodes);

describe('relay statements planned while the outbox was nearly empty', () => {
  it('forgetting carried-out rows in one statement (tas_outbox_forget) reads a few pages of the grown outbox, not all of it', async () => {
    // EXPLAIN's buffer counts include the statements inside the function, planned (and cached) on this session.
    const touched = await db.transaction(async (tx) => {
      const rows = await tx.any(
        sql.unsafe`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) SELECT tas_outbox_forget('{1,2}', ARRAY[${tenantId}, ${tenantId}]::uuid[])`,
      );
      const plan = (rows[0] as { 'QUERY PLAN': { Plan: { 'Shared Hit Blocks': number; 'Shared Read Blocks': number } }[] })[
        'QUERY PLAN'
      ][0]!.Plan;
      return plan['Shared Hit Blocks'] + plan['Shared Read Blocks'];
    });
    // The outbox holds about 1,100 pages now; a key look-up of two ids touches a handful.
    expect(touched).toBeLessThan(50);
  });

  it('deleting carried-out rows looks them up by key, not by reading the grown outbox', async () => {
    const { nodes, genericPlans } = await cachedPlanOf('%DELETE FROM outbox WHERE id%');
    expect(genericPlans).toBeGreaterThan(0);
    expect(seqScansOfOutbox(nodes)).toEqual([]);
  });

  it('claiming rows by id looks them up by key', async () => {
    const { nodes, genericPlans } = await cachedPlanOf('%WHERE o.id = ANY%SKIP LOCKED%');
    expect(genericPlans).toBeGreaterThan(0);
    expect(seqScansOfOutbox(nodes)).toEqual([]);
  });
});

describe('sealer statements planned while the audit log was young', () => {
  it('reads the calls waiting to be sealed by their list, not by reading the grown log', async () => {
    const { nodes, genericPlans } = await cachedPlanOf(
      '%FROM "audit_unsealed" u%JOIN "audit_log" l%',
      (name) => sql.unsafe`EXPLAIN (FORMAT JSON) EXECUTE ${name}(0, 1000)`,
    );
    expect(genericPlans).toBeGreaterThan(0);
    expect(seqScansOf('audit_log', nodes)).toEqual([]);
  });

  it("finds a chain's head by its key, not by reading the grown chain", async () => {
    const { nodes } = await cachedPlanOf(
      '%FROM "audit_chain" c WHERE c.chain_key%',
      // The chain keys, and the day whose seal comes back with each head.
      (name) => sql.unsafe`EXPLAIN (FORMAT JSON) EXECUTE ${name}('{bulk}', '2026-01-01')`,
    );
    expect(seqScansOf('audit_chain', nodes)).toEqual([]);
  });

  it('still seals what waits, in order', async () => {
    expect(await sealAudit(db, 0)).toBe(5);
  });
});
