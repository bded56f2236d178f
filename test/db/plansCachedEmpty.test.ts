import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { sql } from 'slonik';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { claimOutboxByIds, claimStaleOutbox, markDispatchedLazily, scopeRelay } from '../../actors/outboxStore.js';
import { createDb, type Db } from '../../src/db/pool.js';
import { cloneDatabase, ownerClient } from '../support/database.js';

/**
 * A plan PostgreSQL caches while a table is nearly empty must still be right
 * once the table is large. The service runs repeated statements prepared;
 * after five runs PostgreSQL may keep one generic plan for the connection's
 * life, and test/db/hotQueryPlans.test.ts only plans on tables already
 * filled. Here the relay's statements run first on a fresh outbox, as on a
 * new deployment, then the outbox grows to 100,000 dispatched rows (never
 * analysed), and the plan the connection then uses is read back with
 * EXPLAIN EXECUTE.
 */
const ROWS = 100_000;
const tenantId = randomUUID();
let database: { url: string; drop: () => Promise<void> };
let owner: pg.Client;
let db: Db;

interface PlanNode { 'Node Type': string; 'Relation Name'?: string; Plans?: PlanNode[] }
const nodesOf = (plan: PlanNode): PlanNode[] => [plan, ...(plan.Plans ?? []).flatMap(nodesOf)];

beforeAll(async () => {
  database = await cloneDatabase();
  owner = await ownerClient(database.url);
  await owner.query(`ALTER TABLE outbox SET (autovacuum_enabled = false)`);
  await owner.query(`INSERT INTO tenants (id, name) VALUES ($1, 'plans')`, [tenantId]);
  // One connection, so every call below runs on the session whose plans are read back.
  db = await createDb(database.url, { maximumPoolSize: 1 });
  const { rows } = await owner.query<{ id: string }>(`
    INSERT INTO outbox (tenant_id, mode, kind, payload) SELECT $1, 'live', 'test', '{}' FROM generate_series(1, 200) RETURNING id`, [tenantId]);
  const ids = rows.map((r) => Number(r.id));
  // Ten rounds of 15 rows (a batch under load) while the table holds 200: the plan cache settles on a
  // generic plan, which it prefers once the custom plans' estimates (15 rows) exceed its own (10).
  for (let round = 0; round < 10; round += 1) {
    await markDispatchedLazily(db, ids.slice(round * 15, round * 15 + 15));
    await db.transaction(async (tx) => {
      await scopeRelay(tx);
      await claimOutboxByIds(tx, ids.slice(round * 15 + 5, round * 15 + 20));
      await claimStaleOutbox(tx, 60_000, 100);
    });
  }
  await owner.query(`SET synchronous_commit = off`);
  await owner.query(`
    INSERT INTO outbox (tenant_id, mode, kind, payload, dispatched_at) SELECT $1, 'live', 'test', '{}', now() FROM generate_series(1, ${ROWS})`, [tenantId]);
}, 120_000);

afterAll(async () => {
  await db?.end();
  await owner?.end();
  await database?.drop();
});

/** The plan the pool's one session uses for its prepared statement matching `pattern` (LIKE), run with two ids. */
async function cachedPlanOf(pattern: string): Promise<{ nodes: PlanNode[]; genericPlans: number }> {
  return db.transaction(async (tx) => {
    await scopeRelay(tx);
    const prepared = await tx.any(sql.type(z.object({ name: z.string(), generic_plans: z.coerce.number() }))`
      SELECT name, generic_plans FROM pg_prepared_statements WHERE statement LIKE ${pattern}`);
    if (prepared.length !== 1) throw new Error(`${prepared.length} prepared statements match ${pattern}`);
    const name = sql.identifier([prepared[0]!.name]);
    const rows = await tx.any(sql.unsafe`EXPLAIN (FORMAT JSON) EXECUTE ${name}('{1,2}')`);
    const plan = (rows[0] as { 'QUERY PLAN': { Plan: PlanNode }[] })['QUERY PLAN'][0]!.Plan;
    return { nodes: nodesOf(plan), genericPlans: prepared[0]!.generic_plans };
  });
}

const seqScansOfOutbox = (nodes: PlanNode[]) => nodes.filter((n) => n['Node Type'] === 'Seq Scan' && n['Relation Name'] === 'outbox');

describe('relay statements planned while the outbox was nearly empty', () => {
  it('marking rows dispatched looks them up by key, not by reading the grown outbox', async () => {
    const { nodes, genericPlans } = await cachedPlanOf('%UPDATE outbox SET dispatched_at%');
    expect(genericPlans).toBeGreaterThan(0);
    expect(seqScansOfOutbox(nodes)).toEqual([]);
  });

  it('claiming rows by id looks them up by key', async () => {
    const { nodes, genericPlans } = await cachedPlanOf('%WHERE id = ANY%SKIP LOCKED%');
    expect(genericPlans).toBeGreaterThan(0);
    expect(seqScansOfOutbox(nodes)).toEqual([]);
  });
});
