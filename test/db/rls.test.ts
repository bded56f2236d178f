import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type pg from 'pg';
import { cloneDatabase, ownerClient } from '../support/database.js';
import { FIXTURES } from './tenantRows.js';

/**
 * Row-level security: as the service role with tenant A's setting, no row of
 * tenant B is visible in any tenant-owned table, in either mode. Fixtures are
 * written as the owner; every table with a tenant_id column must have one
 * here, so a new table cannot slip through untested.
 */
let db: Awaited<ReturnType<typeof cloneDatabase>>;
let owner: pg.Client;
const A = randomUUID();
const B = randomUUID();

let tenantTables: string[] = [];

beforeAll(async () => {
  db = await cloneDatabase();
  owner = await ownerClient(db.url);
  for (const t of [A, B]) await owner.query(`INSERT INTO tenants (id, name) VALUES ($1, $2)`, [t, `t-${t}`]);
  const res = await owner.query(
    `SELECT table_name FROM information_schema.columns WHERE table_schema = 'public' AND column_name = 'tenant_id' ORDER BY 1`,
  );
  tenantTables = res.rows.map((r) => r.table_name as string);
  for (const table of tenantTables) {
    const fixture = FIXTURES[table];
    if (!fixture) continue;
    for (const t of [A, B]) for (const m of ['live', 'test'] as const) await fixture(owner, t, m);
  }
});

afterAll(async () => {
  await owner?.end();
  await db?.drop();
});

async function visibleAs(tenant: string, mode: string, table: string): Promise<{ tenant_id: string; mode: string }[]> {
  await owner.query('BEGIN');
  try {
    await owner.query(
      `SELECT set_config('role', 'tas_service', true), set_config('tas.tenant_id', $1, true), set_config('tas.mode', $2, true)`,
      [tenant, mode],
    );
    return (await owner.query(`SELECT tenant_id::text, mode FROM ${table}`)).rows;
  } finally {
    await owner.query('ROLLBACK');
  }
}

describe('row-level security', () => {
  it('every tenant-owned table has a fixture in this test', () => {
    expect(tenantTables.length).toBeGreaterThan(10);
    expect(tenantTables.filter((t) => !FIXTURES[t])).toEqual([]);
  });

  it('as tenant A in live mode, every table shows only A live rows, and some of them', async () => {
    for (const table of tenantTables) {
      const rows = await visibleAs(A, 'live', table);
      expect(rows.length, table).toBeGreaterThan(0);
      expect(
        rows.filter((r) => r.tenant_id !== A || r.mode !== 'live'),
        table,
      ).toEqual([]);
    }
  });

  it('without a tenant setting, the service role sees no tenant rows at all', async () => {
    for (const table of tenantTables) expect(await visibleAs('', '', table), table).toEqual([]);
  });

  it('the service role cannot update or delete the audit trail', async () => {
    await owner.query('BEGIN');
    try {
      await owner.query(
        `SELECT set_config('role', 'tas_service', true), set_config('tas.tenant_id', $1, true), set_config('tas.mode', 'live', true)`,
        [A],
      );
      await expect(owner.query(`UPDATE audit_log SET status = 500`)).rejects.toThrow(/permission denied/);
    } finally {
      await owner.query('ROLLBACK');
    }
    await owner.query('BEGIN');
    try {
      await owner.query(`SELECT set_config('role', 'tas_service', true)`);
      await expect(owner.query(`DELETE FROM audit_log`)).rejects.toThrow(/permission denied/);
    } finally {
      await owner.query('ROLLBACK');
    }
  });

  it.each(['inquiries', 'entities', 'audit_log', 'actors', 'outbox'])(
    'as tenant A, the service role cannot write a %s row for another tenant or for no tenant at all (000025 left these tables without a foreign key)',
    async (table) => {
      const insert: Record<string, string> = {
        inquiries: `INSERT INTO inquiries (id, tenant_id, mode, status, intent, purpose, request, principal) VALUES (gen_random_uuid(), $1, 'live', 'concluded', 'i', 'p', '{}', 'k')`,
        entities: `INSERT INTO entities (id, tenant_id, mode) VALUES (gen_random_uuid(), $1, 'live')`,
        audit_log: `INSERT INTO audit_log (audit_id, occurred_at, tenant_id, mode, principal, action, status) VALUES (gen_random_uuid(), now(), $1, 'live', 'p', 'a', 200)`,
        actors: `INSERT INTO actors (id, tenant_id, mode, kind, machine_version, snapshot, version) VALUES (gen_random_uuid(), $1, 'live', 'inquiry', 1, '{}', 1)`,
        outbox: `INSERT INTO outbox (tenant_id, mode, kind, payload) VALUES ($1, 'live', 'publish', '{}')`,
      };
      for (const other of [B, randomUUID()]) {
        await owner.query('BEGIN');
        try {
          await owner.query(
            `SELECT set_config('role', 'tas_service', true), set_config('tas.tenant_id', $1, true), set_config('tas.mode', 'live', true)`,
            [A],
          );
          await expect(owner.query(insert[table]!, [other])).rejects.toThrow(/row-level security|permission denied/);
        } finally {
          await owner.query('ROLLBACK');
        }
      }
    },
  );
});
