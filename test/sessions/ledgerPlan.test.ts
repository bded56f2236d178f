import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { sql } from 'slonik';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, withTenant, type Db, type Tx } from '../../src/platform/db/pool.js';
import { historyStatement, priorAssessmentsQuery } from '../../src/entities/history.js';
import { cloneDatabase, ownerClient } from '../support/database.js';
import { nodesOf, rowsRead, type PlanNode } from '../support/plans.js';

/**
 * The earlier-assessments read of a live session (issue 40): every frame
 * issues a ledger entry about the session's entity, so an entity met by long
 * sessions grows a long ledger, and the read used to take all of it before
 * sorting (9,865 rows, 16 ms; frames 28 ms instead of 7 ms). Seeded here: an
 * entity with 4,000 assessments of 80 earlier inquiries and 6,000 of the
 * session asking now, plus a second member merged into it. EXPLAIN ANALYZE
 * must show the read taking a bounded number of rows from `assessments`,
 * whatever the ledger's length, and the rows still the newest of the others.
 */
const OTHERS = 4_000;
const OWN = 6_000;
// 100 rows per member before the session, the 500-row window since it began (history.ts), two index look-ups:
// about 700 here, and the same for a ledger a hundred times longer. Today's form read all 10,000.
const MAX_ROWS_READ = 800;
let database: { url: string; drop: () => Promise<void> };
let owner: pg.Client;
let db: Db;
const tenantId = randomUUID();
const entity = randomUUID();
const merged = randomUUID();
const session = randomUUID();

beforeAll(async () => {
  database = await cloneDatabase();
  owner = await ownerClient(database.url);
  await owner.query(`SET synchronous_commit = off`);
  await owner.query(`INSERT INTO tenants (id, name) VALUES ($1, 'ledger')`, [tenantId]);
  await owner.query(`INSERT INTO entities (id, tenant_id, mode) VALUES ($1, $2, 'live'), ($3, $2, 'live')`, [entity, tenantId, merged]);
  await owner.query(`UPDATE entities SET merged_into = $1 WHERE id = $2`, [entity, merged]);
  await owner.query(
    `
    INSERT INTO inquiries (id, tenant_id, mode, status, intent, purpose, request, principal)
    SELECT md5('li' || g)::uuid, $1::uuid, 'live', 'concluded', 'onboarding', 'fraud_prevention', '{}'::jsonb, 'key:ledger' FROM generate_series(1, 80) g
    UNION ALL SELECT $2::uuid, $1::uuid, 'live', 'reasoning', 'onboarding', 'fraud_prevention', '{}'::jsonb, 'key:ledger'`,
    [tenantId, session],
  );
  const insert = (from: number, to: number, inquiry: string, entityId: string) =>
    owner.query(
      `
    INSERT INTO assessments (id, tenant_id, mode, inquiry_id, entity_id, score, low, high, preliminary, as_of, methodology_version, evidence, inputs)
    SELECT gen_random_uuid(), $1, 'live', ${inquiry}, $2, g % 100, 0, 100, false, now(), 'trust-method/2', '{}', '{}'
    FROM generate_series(${from}, ${to}) g`,
      [tenantId, entityId],
    );
  await insert(1, OTHERS / 2, `md5('li' || (g % 80 + 1))::uuid`, merged);
  await insert(OTHERS / 2 + 1, OTHERS, `md5('li' || (g % 80 + 1))::uuid`, entity);
  await insert(1, OWN, `'${session}'::uuid`, entity);
  // Analysed, as autovacuum leaves a long-lived table: the plan must not depend on its absence either way.
  await owner.query(`ANALYZE assessments`);
  db = await createDb(database.url);
}, 120_000);

afterAll(async () => {
  await db?.end();
  await owner?.end();
  await database?.drop();
});

async function assessmentRowsRead(query: Parameters<Tx['any']>[0]): Promise<number> {
  const rows = await withTenant(db, { tenantId, mode: 'live' }, (tx) => tx.any(sql.unsafe`EXPLAIN (ANALYZE, FORMAT JSON) ${query}`));
  const plan = (rows[0] as { 'QUERY PLAN': { Plan: PlanNode }[] })['QUERY PLAN'][0]!.Plan;
  // Scan nodes of the table (a bitmap heap scan's rows are its index's; counting the heap node is enough).
  return nodesOf(plan)
    .filter((n) => n['Relation Name'] === 'assessments')
    .reduce((sum, n) => sum + rowsRead(n), 0);
}

describe('the earlier-assessments read of a long ledger', () => {
  it('reads a bounded number of rows for a session excluding its own revisions, and for an inquiry', async () => {
    const members = [entity, merged];
    expect(await assessmentRowsRead(priorAssessmentsQuery(members, session))).toBeLessThanOrEqual(MAX_ROWS_READ);
    expect(await assessmentRowsRead(priorAssessmentsQuery(members, null))).toBeLessThanOrEqual(MAX_ROWS_READ);
    expect(await assessmentRowsRead(historyStatement(entity, [], session))).toBeLessThanOrEqual(MAX_ROWS_READ);
  });

  it('still answers the newest 100 of the others, newest first', async () => {
    const prior = await withTenant(db, { tenantId, mode: 'live' }, (tx) => tx.any(priorAssessmentsQuery([entity, merged], session)));
    const expected = await owner.query(
      `
      SELECT score FROM assessments WHERE entity_id IN ($1, $2) AND inquiry_id <> $3 ORDER BY ledger_seq DESC LIMIT 100`,
      [entity, merged, session],
    );
    expect(prior.map((r) => r.score)).toEqual(expected.rows.map((r) => r.score));
    expect(prior).toHaveLength(100);
  });
});
