import { randomUUID } from 'node:crypto';
import type pg from 'pg';
// @ts-expect-error node-postgres ships no types for its value serialiser, the one it sends bound values through.
import { prepareValue } from 'pg/lib/utils.js';
import { sql } from 'slonik';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unsealedRowsQuery } from '../../src/audit/chainStore.js';
import { SEALER_SETTINGS, sealerSettings } from '../../src/audit/sealer.js';
import { createDb, withSystem, withTenant, type Db, type Tx } from '../../src/platform/db/pool.js';
import {
  historyStatement,
  identifiersQuery,
  priorAssessmentsQuery,
  sharedValuesQuery,
  testimonyQuery,
  velocityQuery,
} from '../../src/entities/history.js';
import { membersQuery, survivorQuery } from '../../src/entities/resolve.js';
import { cloneDatabase, ownerClient } from '../support/database.js';
import { nodesOf, rowsRead, type PlanNode } from '../support/plans.js';

/**
 * Hot queries keep one plan however the tenant's data grows (issue 15): on
 * freshly filled tables that were never analysed (autovacuum has not run),
 * holding 100,000 rows each, EXPLAIN ANALYZE must show no sequential scan of
 * a large table and no scan that reads more of it than the values looked up
 * carry. The earlier shared-values statement failed the second: unanalysed,
 * the planner walked a whole index of the tenant's identifiers (about
 * 100,000 rows read per call here) where a look-up by value reads five.
 */
const ROWS = 100_000;
const LARGE = ['entities', 'entity_identifiers', 'entity_links', 'observations', 'audit_log', 'inquiries', 'assessments'];
/** A scan's table, a partition named by its parent (audit_log_p2026_11, audit_log_default: 000090). */
const tableOf = (n: PlanNode) => (n['Relation Name'] ?? '').replace(/^(audit_log)(_p\d{4}_\d{2}|_default)$/, '$1');
let database: { url: string; drop: () => Promise<void> };
let owner: pg.Client;
let db: Db;
const tenantId = randomUUID();

beforeAll(async () => {
  database = await cloneDatabase();
  owner = await ownerClient(database.url);
  // No ANALYZE: the tables are as a busy tenant's look before autovacuum reaches them.
  await owner.query(`SET synchronous_commit = off`);
  await owner.query(`ALTER TABLE entities SET (autovacuum_enabled = false)`);
  // The audit log is partitioned by month (000090): the setting is each partition's.
  for (const t of ['entity_identifiers', 'entity_links', 'observations', 'audit_log', 'audit_unsealed', 'inquiries', 'assessments']) {
    const { rows } = await owner.query(`SELECT relid::regclass::text AS name FROM pg_partition_tree($1) WHERE isleaf`, [t]);
    for (const { name } of rows) await owner.query(`ALTER TABLE ${name} SET (autovacuum_enabled = false)`);
  }
  await owner.query(`INSERT INTO tenants (id, name) VALUES ($1, 'plans')`, [tenantId]);
  await owner.query(
    `
    INSERT INTO entities (id, tenant_id, mode)
    SELECT md5('e' || g)::uuid, $1, 'live' FROM generate_series(1, ${ROWS}) g`,
    [tenantId],
  );
  await owner.query(
    `
    INSERT INTO entity_identifiers (tenant_id, mode, type, normalised, value, entity_id)
    SELECT $1, 'live', 'EMAIL', 'user' || g || '@example.org', 'user' || g || '@example.org', md5('e' || g)::uuid FROM generate_series(1, ${ROWS}) g`,
    [tenantId],
  );
  await owner.query(
    `
    INSERT INTO entity_links (tenant_id, mode, type, normalised, value, entity_id)
    SELECT $1, 'live', 'PHONE', '+4420' || (g % 20000), '+4420' || (g % 20000), md5('e' || g)::uuid FROM generate_series(1, ${ROWS}) g`,
    [tenantId],
  );
  await owner.query(
    `
    INSERT INTO observations (id, tenant_id, mode, entity_id, kind, provenance_class, body, observed_at)
    SELECT md5('o' || g)::uuid, $1, 'live', md5('e' || g)::uuid, 'observation', 'tenant_supplied', '{"stance":"neutral"}', now()
    FROM generate_series(1, ${ROWS}) g`,
    [tenantId],
  );
  // A long audit log already sealed (its work list emptied), then five rows waiting past the horizon.
  await owner.query(
    `
    INSERT INTO audit_log (audit_id, occurred_at, tenant_id, mode, principal, action, status)
    SELECT md5('a' || g)::uuid, now() - interval '1 hour', $1, 'live', 'key:plans', 'test', 200 FROM generate_series(1, ${ROWS}) g`,
    [tenantId],
  );
  await owner.query(`DELETE FROM audit_unsealed`);
  await owner.query(
    `
    INSERT INTO audit_log (audit_id, occurred_at, tenant_id, mode, principal, action, status)
    SELECT md5('w' || g)::uuid, now() - interval '1 minute', $1, 'live', 'key:plans', 'test', 200 FROM generate_series(1, 5) g`,
    [tenantId],
  );
  // A day of inquiries, each presenting its own email and one of 20,000 phones.
  await owner.query(
    `
    INSERT INTO inquiries (id, tenant_id, mode, status, intent, purpose, request, principal)
    SELECT md5('i' || g)::uuid, $1, 'live', 'concluded', 'onboarding', 'fraud_prevention',
      jsonb_build_object('presentations', jsonb_build_array(
        jsonb_build_object('type', 'EMAIL', 'value', 'user' || g || '@example.org', 'normalised', 'user' || g || '@example.org'),
        jsonb_build_object('type', 'PHONE', 'value', '+4420' || (g % 20000), 'normalised', '+4420' || (g % 20000)))),
      'key:plans'
    FROM generate_series(1, ${ROWS}) g`,
    [tenantId],
  );
  // Each entity's ledger entry for its inquiry; two entities merged into e17, which a returning subject reads.
  await owner.query(
    `
    INSERT INTO assessments (id, tenant_id, mode, inquiry_id, entity_id, score, low, high, preliminary, as_of, methodology_version, evidence, inputs)
    SELECT md5('s' || g)::uuid, $1, 'live', md5('i' || g)::uuid, md5('e' || g)::uuid, 50, 20, 80, false, now(), 'trust-method/2', '{}', '{}'
    FROM generate_series(1, ${ROWS}) g`,
    [tenantId],
  );
  await owner.query(`UPDATE entities SET merged_into = md5('e17')::uuid WHERE id IN (md5('e18')::uuid, md5('e19')::uuid)`);
  db = await createDb(database.url);
}, 180_000);

afterAll(async () => {
  await db?.end();
  await owner?.end();
  await database?.drop();
});

// The values looked up carry a handful of rows each; reading more than this from a table of 100,000 is a scan in disguise.
const MAX_ROWS_READ = 1_000;

async function planOf(query: Parameters<Tx['any']>[0], as: 'tenant' | 'system' | 'sealer' = 'tenant'): Promise<PlanNode[]> {
  const explain = (tx: Tx) => tx.any(sql.unsafe`EXPLAIN (ANALYZE, FORMAT JSON) ${query}`);
  // The sealer's statements run in its pass's transaction, under its settings (sealerSettings).
  const sealer = async (tx: Tx) => {
    await sealerSettings(tx);
    return explain(tx);
  };
  const rows =
    as === 'tenant' ? await withTenant(db, { tenantId, mode: 'live' }, explain) : await withSystem(db, as === 'sealer' ? sealer : explain);
  const explained = (rows[0] as { 'QUERY PLAN': { Plan: PlanNode }[] })['QUERY PLAN'][0]!.Plan;
  return nodesOf(explained);
}

/** Pages a statement touched, its functions' statements included (EXPLAIN's buffer counts are cumulative). */
async function buffersOf(query: Parameters<Tx['any']>[0]): Promise<number> {
  // Twice on one connection, the second counted: a first call also reads the catalogs to plan the function's statement.
  return withTenant(db, { tenantId, mode: 'live' }, async (tx) => {
    let touched = 0;
    for (let call = 0; call < 2; call += 1) {
      const rows = await tx.any(sql.unsafe`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${query}`);
      const plan = (rows[0] as { 'QUERY PLAN': { Plan: { 'Shared Hit Blocks': number; 'Shared Read Blocks': number } }[] })[
        'QUERY PLAN'
      ][0]!.Plan;
      touched = plan['Shared Hit Blocks'] + plan['Shared Read Blocks'];
    }
    return touched;
  });
}

/**
 * The plan a statement gets when it runs prepared and PostgreSQL settles on a
 * generic plan, one made without the values (src/platform/db/preparedStatements.ts runs
 * repeated statements named). Forced here, on the same unanalysed tables, as
 * the role the service would run it as; rolled back.
 */
async function genericPlanOf(
  query: { sql: string; values: readonly unknown[] },
  as: 'tenant' | 'system' | 'sealer' = 'tenant',
): Promise<PlanNode[]> {
  await owner.query('BEGIN');
  try {
    if (as === 'tenant')
      await owner.query(
        `SELECT set_config('role', 'tas_service', true), set_config('tas.tenant_id', $1, true), set_config('tas.mode', 'live', true)`,
        [tenantId],
      );
    else await owner.query(`SELECT set_config('role', 'tas_system', true)`);
    if (as === 'sealer') await owner.query(SEALER_SETTINGS);
    await owner.query('SET LOCAL plan_cache_mode = force_generic_plan');
    await owner.query(`PREPARE generic_plan AS ${query.sql.replace(/\$slonik_(\d+)/g, '$$$1')}`);
    // EXECUTE is a utility statement and takes no bound parameters: the values go in as literals, as node-postgres would send them.
    const args = query.values.map((v) => (v === null ? 'NULL' : owner.escapeLiteral(String(prepareValue(v))))).join(', ');
    const rows = await owner.query(`EXPLAIN (ANALYZE, FORMAT JSON) EXECUTE generic_plan${args ? `(${args})` : ''}`);
    return nodesOf((rows.rows[0] as { 'QUERY PLAN': { Plan: PlanNode }[] })['QUERY PLAN'][0]!.Plan);
  } finally {
    await owner.query('ROLLBACK');
    await owner.query('DEALLOCATE ALL');
  }
}

/** Sequential scans of a large table, and scans reading more of one than a look-up carries. */
function scansOfLargeTables(nodes: PlanNode[]): string[] {
  const large = nodes.filter((n) => LARGE.includes(tableOf(n)));
  return large
    .filter((n) => n['Node Type'] === 'Seq Scan' || rowsRead(n) > MAX_ROWS_READ)
    .map((n) => `${n['Node Type']} on ${n['Relation Name']}: ${rowsRead(n)} rows`);
}

describe('hot query plans on unanalysed tables of 100,000 rows', () => {
  it('the shared-values look-up reads by index, never scanning a large table', async () => {
    // The statement lives in tas_shared_values (000023), whose plan hides inside one Function Scan
    // node; the node's buffer counts include its statement's. Look-ups by value touch a few dozen
    // pages; walking the 100,000 identifiers or links touches thousands.
    expect(
      await buffersOf(
        sharedValuesQuery(
          [randomUUID()],
          [
            { type: 'EMAIL', normalised: 'user17@example.org' },
            { type: 'PHONE', normalised: '+442017' },
          ],
        ),
      ),
    ).toBeLessThan(200);
  });

  it("the owner look-up (identifier locks, then the owners) reads by index, never walking the tenant's identifiers", async () => {
    // tas_lock_and_find_owners (000026, rewritten in 000029): its join of the presented values with the
    // identifiers was planned as a walk of every identifier of the tenant, filtered, and grew with it.
    const lookup = sql.unsafe`SELECT id, created_at FROM tas_lock_and_find_owners(ARRAY[17]::int8[], ARRAY['EMAIL'], ARRAY['user17@example.org'], 16)`;
    expect(await buffersOf(lookup)).toBeLessThan(200);
    const owners = await withTenant(db, { tenantId, mode: 'live' }, (tx) => tx.any(lookup));
    expect(owners.map((o) => (o as { id: string }).id)).toEqual([(await owner.query(`SELECT md5('e17')::uuid AS id`)).rows[0].id]);
  });

  it('and answers what the rows say: the phone is shared by the other carriers of its value', async () => {
    const rows = await withTenant(db, { tenantId, mode: 'live' }, (tx) =>
      tx.any(sharedValuesQuery([], [{ type: 'PHONE', normalised: '+442017' }])),
    );
    expect(rows).toEqual([{ type: 'PHONE', normalised: '+442017', others: ROWS / 20000, adverse: 0 }]);
  });

  it('the audit sealer reads its work list, not the log: a run over a long sealed log reads what waits', async () => {
    const nodes = await planOf(unsealedRowsQuery(15_000, 1000), 'sealer');
    const large = nodes.filter((n) => LARGE.includes(tableOf(n)));
    expect(large.filter((n) => n['Node Type'] === 'Seq Scan').map((n) => n['Relation Name'])).toEqual([]);
    expect(
      large.filter((n) => rowsRead(n) > MAX_ROWS_READ).map((n) => `${n['Node Type']} on ${n['Relation Name']}: ${rowsRead(n)} rows`),
    ).toEqual([]);
    const taken = await withSystem(db, (tx) => tx.any(unsealedRowsQuery(15_000, 1000)));
    expect(taken).toHaveLength(5);
  });

  it('the velocity look-up probes the presentations index, under row-level security too', async () => {
    // As for shared values: an index probe touches a few pages, reading the day's 100,000 inquiries thousands.
    expect(
      await buffersOf(
        velocityQuery([
          { type: 'EMAIL', normalised: 'user17@example.org' },
          { type: 'PHONE', normalised: '+442017' },
        ]),
      ),
    ).toBeLessThan(200);
    const counts = await withTenant(db, { tenantId, mode: 'live' }, (tx) =>
      tx.any(
        velocityQuery([
          { type: 'EMAIL', normalised: 'user17@example.org' },
          { type: 'PHONE', normalised: '+442017' },
        ]),
      ),
    );
    expect(counts).toEqual([
      { type: 'EMAIL', normalised: 'user17@example.org', last_hour: 1, last_day: 1 },
      { type: 'PHONE', normalised: '+442017', last_hour: ROWS / 20000, last_day: ROWS / 20000 },
    ]);
  });

  it('the hot functions never JIT-compile: their look-ups would pay milliseconds of compilation for microseconds of work', async () => {
    // On a million inquiries the planner's estimate for the velocity probe passed jit_above_cost and
    // every inquiry paid 13-18 ms of compilation (000024); the setting is part of each function.
    const rows = await owner.query(
      `SELECT proname, proconfig FROM pg_proc WHERE proname IN ('tas_presentation_velocity', 'tas_shared_values') ORDER BY proname`,
    );
    expect(rows.rows).toEqual([
      { proname: 'tas_presentation_velocity', proconfig: expect.arrayContaining(['jit=off']) },
      { proname: 'tas_shared_values', proconfig: expect.arrayContaining(['jit=off', 'plan_cache_mode=force_generic_plan']) },
    ]);
  });
  // A returning subject's history: its survivor, members, ledger, testimony and known values.
  const e17 = 'f056ba96-33b8-03f1-3699-0d0fe4d7bee2'; // md5('e17'), the survivor of e18 and e19
  const e18 = 'effa3d61-f5a5-36b2-66a4-9ab381e4ee9c';
  const members = () => [e17, 'effa3d61-f5a5-36b2-66a4-9ab381e4ee9c', '9e46bce9-9da9-6766-92d1-96558a079266'];
  const RETURNING: readonly [string, () => Parameters<Tx['any']>[0] & { sql: string; values: readonly unknown[] }][] = [
    ['the survivor look-up', () => survivorQuery(e17)],
    ['the members look-up', () => membersQuery(e17)],
    ['the prior assessments', () => priorAssessmentsQuery(members(), null)],
    ['the testimony', () => testimonyQuery(members())],
    ['the known values', () => identifiersQuery(members())],
    [
      'the whole history in one statement',
      () => historyStatement(e18, [{ type: 'EMAIL', value: 'user17@example.org', normalised: 'user17@example.org' }], null),
    ],
  ];

  it.each(RETURNING)('%s of a returning subject reads by index, never scanning a large table', async (_name, query) => {
    expect(scansOfLargeTables(await planOf(query()))).toEqual([]);
  });

  it.each(RETURNING)("%s keeps to its indexes as a prepared statement's generic plan too", async (_name, query) => {
    expect(scansOfLargeTables(await genericPlanOf(query()))).toEqual([]);
  });

  it.each([
    ["the audit sealer's work list", () => unsealedRowsQuery(15_000, 1000), 'sealer'],
    ['the shared-values look-up', () => sharedValuesQuery([randomUUID()], [{ type: 'EMAIL', normalised: 'user17@example.org' }]), 'tenant'],
    ['the velocity look-up', () => velocityQuery([{ type: 'PHONE', normalised: '+442017' }]), 'tenant'],
  ] as const)("%s keeps to its indexes as a prepared statement's generic plan too", async (_name, query, as) => {
    expect(scansOfLargeTables(await genericPlanOf(query(), as))).toEqual([]);
  });
});
