import { randomUUID } from 'node:crypto';
import type pg from 'pg';
// @ts-expect-error node-postgres ships no types for its value serialiser, the one it sends bound values through.
import { prepareValue } from 'pg/lib/utils.js';
import { sql } from 'slonik';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listAuditEntries, type AuditListQuery } from '../../src/audit/listing.js';
import { auditPartitionsAhead } from '../../src/audit/partitions.js';
import { appendAuditBatch, type AuditRecord } from '../../src/audit/store.js';
import { createDb, withTenant, type Db, type Tx } from '../../src/platform/db/pool.js';
import { cloneDatabase, ownerClient } from '../support/database.js';
import { nodesOf, type PlanNode } from '../support/plans.js';

/**
 * A cursor page of the audit list finds its cursor's row in that row's month
 * only (000090): the cursor carries the row's time, and a bare v7 id its own.
 * Every statement the listing runs is caught and explained as the tenant,
 * with the values it ran with, as a custom and as a generic plan.
 */
let clone: Awaited<ReturnType<typeof cloneDatabase>>;
let db: Db;
let owner: pg.Client;
const tenant = randomUUID();
const principal = { tenantId: tenant, mode: 'live' as const, keyId: randomUUID(), scopes: new Set(['admin']), label: 'key:x' };

function row(occurredAt: string, auditId: string = randomUUID()): AuditRecord {
  return {
    audit_id: auditId,
    occurred_at: occurredAt,
    tenant_id: tenant,
    mode: 'live',
    principal: 'key:x',
    action: 'test',
    target_kind: null,
    target_id: null,
    status: 200,
    rule: null,
    purpose: null,
    cost_amount: null,
    cost_currency: null,
    request_id: null,
  };
}

/** A UUIDv7 whose own time is `at` (RFC 9562: 48 bits of milliseconds, then version 7). */
function v7At(at: string): string {
  const hex = Date.parse(at).toString(16).padStart(12, '0') + '7' + randomUUID().replaceAll('-', '').slice(13);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

type Statement = { sql: string; values: readonly unknown[] };

/** The listing run on a pool that keeps every statement its transaction runs. */
async function listed(query: AuditListQuery): Promise<{ page: Awaited<ReturnType<typeof listAuditEntries>>; statements: Statement[] }> {
  const statements: Statement[] = [];
  const catching = new Proxy(db, {
    get(target, property, receiver) {
      if (property !== 'transaction') return Reflect.get(target, property, receiver);
      return (handler: Parameters<Db['transaction']>[0]) =>
        target.transaction((tx) =>
          handler(
            new Proxy(tx, {
              get(t, p, r) {
                const value = Reflect.get(t, p, r);
                if (typeof value !== 'function') return value;
                return (...args: unknown[]) => {
                  const token = args[0] as Partial<Statement> | undefined;
                  if (typeof token?.sql === 'string') statements.push({ sql: token.sql, values: token.values ?? [] });
                  return (value as (...a: unknown[]) => unknown).apply(t, args);
                };
              },
            }),
          ),
        );
    },
  });
  const page = await listAuditEntries({ db: catching }, principal, query);
  return { page, statements: statements.filter((s) => /\baudit_log\b/.test(s.sql)) };
}

/** The audit_log partitions a plan looks a row up in by its audit_id (the cursor's look-up). */
function lookedUpById(nodes: (PlanNode & { 'Index Cond'?: string; Filter?: string })[]): string[] {
  return nodes
    .filter((n) => /^audit_log_(p\d{4}_\d{2}|default)$/.test(n['Relation Name'] ?? ''))
    .filter((n) => /audit_id/.test(`${n['Index Cond'] ?? ''} ${n.Filter ?? ''}`))
    .filter((n) => n['Actual Loops'] !== 0)
    .map((n) => n['Relation Name']!);
}

async function customPlan(s: Statement): Promise<PlanNode[]> {
  const rows = await withTenant(db, principal, (tx: Tx) =>
    tx.any(
      sql.unsafe`EXPLAIN (ANALYZE, FORMAT JSON) ${{ ...sql.unsafe`x`, sql: s.sql, values: s.values } as ReturnType<typeof sql.unsafe>}`,
    ),
  );
  return nodesOf((rows[0] as { 'QUERY PLAN': { Plan: PlanNode }[] })['QUERY PLAN'][0]!.Plan);
}

/** As a prepared statement's generic plan (the service runs repeated statements prepared), pruned when it starts. */
async function genericPlan(s: Statement): Promise<PlanNode[]> {
  await owner.query('BEGIN');
  try {
    await owner.query(
      `SELECT set_config('role', 'tas_service', true), set_config('tas.tenant_id', $1, true), set_config('tas.mode', 'live', true)`,
      [tenant],
    );
    await owner.query('SET LOCAL plan_cache_mode = force_generic_plan');
    await owner.query(`PREPARE cursor_plan AS ${s.sql.replace(/\$slonik_(\d+)/g, '$$$1')}`);
    const args = s.values.map((v) => (v === null ? 'NULL' : owner.escapeLiteral(String(prepareValue(v))))).join(', ');
    const rows = await owner.query(`EXPLAIN (ANALYZE, FORMAT JSON) EXECUTE cursor_plan${args ? `(${args})` : ''}`);
    return nodesOf((rows.rows[0] as { 'QUERY PLAN': { Plan: PlanNode }[] })['QUERY PLAN'][0]!.Plan);
  } finally {
    await owner.query('ROLLBACK');
    await owner.query('DEALLOCATE ALL');
  }
}

async function partitionsLookedUp(statements: Statement[]): Promise<{ custom: string[]; generic: string[] }> {
  const custom: string[] = [];
  const generic: string[] = [];
  for (const s of statements) {
    custom.push(...lookedUpById(await customPlan(s)));
    generic.push(...lookedUpById(await genericPlan(s)));
  }
  return { custom, generic };
}

const FEB_ID = v7At('2020-02-14T10:00:00.000Z');

beforeAll(async () => {
  clone = await cloneDatabase();
  db = await createDb(clone.url);
  owner = await ownerClient(clone.url);
  await owner.query('INSERT INTO tenants (id, name) VALUES ($1, $2)', [tenant, 'cursor']);
  // January and February 2020, this month and three ahead, and DEFAULT: seven months to probe.
  await auditPartitionsAhead(db, 1, '2020-01-15');
  await appendAuditBatch(db, [
    row('2020-01-10T10:00:00.000Z'),
    row('2020-01-11T10:00:00.000Z'),
    row('2020-02-14T10:00:00.000Z', FEB_ID),
    row('2020-02-15T10:00:00.000Z'),
    row(new Date(Date.now() - 2000).toISOString()),
    row(new Date(Date.now() - 1000).toISOString()),
  ]);
  await owner.query('ANALYZE audit_log');
});
afterAll(async () => {
  await owner?.end();
  await db?.end();
  await clone?.drop();
});

describe('a cursor page of the audit list', () => {
  it("looks its cursor's row up in that row's month only, and goes on from it", async () => {
    const all = await listed({ limit: 10 });
    expect(all.page.entries).toHaveLength(6);
    const first = await listed({ limit: 3 });
    expect(first.page.next?.after).toBeDefined();
    const next = await listed({ ...first.page.next!, limit: 3 });
    expect(next.page.entries.map((e) => e.audit_id)).toEqual(all.page.entries.slice(3).map((e) => e.audit_id));
    // The cursor's row (the third, of February 2020) is looked up in February's partition only.
    expect(all.page.entries[2]!.audit_id).toBe(FEB_ID);
    expect(await partitionsLookedUp(next.statements)).toEqual({ custom: ['audit_log_p2020_02'], generic: ['audit_log_p2020_02'] });
  });

  it("reads a bare v7 audit_id's own time the same way, and still takes any other id", async () => {
    const bare = await listed({ limit: 3, after: FEB_ID });
    expect(bare.page.entries).toHaveLength(3);
    expect(await partitionsLookedUp(bare.statements)).toEqual({ custom: ['audit_log_p2020_02'], generic: ['audit_log_p2020_02'] });
    const first = (await listed({ limit: 1 })).page.entries[0]!;
    const v4 = await listed({ limit: 10, after: first.audit_id });
    expect(v4.page.entries).toHaveLength(5);
  });

  it('refuses a cursor of no row the tenant can see, and one that is not a cursor, with 422', async () => {
    await expect(listed({ limit: 3, after: `${FEB_ID}.${Date.parse('2020-03-01T00:00:00Z')}` })).rejects.toMatchObject({
      name: 'ValidationFailure',
    });
    await expect(listed({ limit: 3, after: v7At('2020-02-14T10:00:00.000Z') })).rejects.toMatchObject({ name: 'ValidationFailure' });
    await expect(listed({ limit: 3, after: 'not-a-cursor' })).rejects.toMatchObject({ name: 'ValidationFailure' });
  });
});
