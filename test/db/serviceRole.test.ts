import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { checkServiceLogin, PreflightError } from '../../src/platform/preflight.js';
import { cloneDatabase, ownerClient } from '../support/database.js';
import { serviceLoginUrl } from '../support/service.js';

/**
 * The service's login (tas_app, 000009) cannot step past row-level security:
 * it is no superuser, has no BYPASSRLS, owns no table, and on its own (without
 * SET LOCAL ROLE, or after RESET ROLE) may read nothing at all.
 */
let db: Awaited<ReturnType<typeof cloneDatabase>>;
let app: pg.Client;
let owner: pg.Client;

beforeAll(async () => {
  db = await cloneDatabase();
  owner = await ownerClient(db.url);
  app = new pg.Client({ connectionString: serviceLoginUrl(db.url) });
  await app.connect();
});
afterAll(async () => {
  await app.end();
  await owner.end();
  await db.drop();
});

describe('the service login role', () => {
  it('is not a superuser, cannot bypass RLS and owns no table', async () => {
    const { rows } = await app.query(`
      SELECT r.rolsuper, r.rolbypassrls,
             (SELECT count(*)::int FROM pg_tables t WHERE t.schemaname = 'public' AND t.tableowner = session_user) AS owned
      FROM pg_roles r WHERE r.rolname = session_user`);
    expect(rows[0]).toEqual({ rolsuper: false, rolbypassrls: false, owned: 0 });
  });

  it('reads nothing without choosing a role', async () => {
    await expect(app.query('SELECT count(*) FROM tenants')).rejects.toThrow(/permission denied/);
    await expect(app.query('SELECT count(*) FROM audit_log')).rejects.toThrow(/permission denied/);
  });

  it('reads nothing after RESET ROLE inside a tenant transaction', async () => {
    await app.query('BEGIN');
    try {
      await app.query(`SELECT set_config('role', 'tas_service', true)`);
      await app.query('RESET ROLE');
      await expect(app.query('SELECT count(*) FROM api_keys')).rejects.toThrow(/permission denied/);
    } finally {
      await app.query('ROLLBACK');
    }
  });

  it('cannot become a superuser or the owner', async () => {
    await expect(app.query('SET ROLE postgres')).rejects.toThrow(/permission denied/);
  });

  it('may still verify a key before the tenant is known (the narrow look-up function)', async () => {
    const { rows } = await app.query(`SELECT tas_key_salt('00000000-0000-0000-0000-000000000000') AS salt,
      (SELECT count(*)::int FROM tas_key_verify_any('00000000-0000-0000-0000-000000000000', ARRAY['\\x00'::bytea])) AS n`);
    expect(rows[0]).toEqual({ salt: null, n: 0 });
  });

  it('every table under row-level security has a policy for the system role too', async () => {
    const { rows } = await owner.query(`
      SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND c.relkind = 'r' AND c.relrowsecurity
        AND NOT EXISTS (SELECT 1 FROM pg_policies p WHERE p.tablename = c.relname AND 'tas_system' = ANY (p.roles))`);
    expect(rows.map((r) => r.relname)).toEqual([]);
  });
});

describe('checkServiceLogin (pure)', () => {
  const powers = (p: Partial<{ superuser: boolean; bypassrls: boolean; owns: boolean }>) => () =>
    Promise.resolve({
      superuser: false,
      bypassrls: false,
      owns: false,
      ...p,
    });

  it.each([
    ['a superuser', { superuser: true }],
    ['a BYPASSRLS role', { bypassrls: true }],
    ['the tables owner', { owns: true }],
  ])('given %s in production, then start-up is refused', async (_name, p) => {
    await expect(checkServiceLogin(powers(p), true, () => undefined)).rejects.toBeInstanceOf(PreflightError);
  });

  it('given a superuser outside production, then a warning and no refusal', async () => {
    const warnings: string[] = [];
    await checkServiceLogin(powers({ superuser: true }), false, (m) => warnings.push(m));
    expect(warnings).toHaveLength(1);
  });

  it('given tas_app, then nothing to say', async () => {
    const warnings: string[] = [];
    await checkServiceLogin(powers({}), true, (m) => warnings.push(m));
    expect(warnings).toEqual([]);
  });
});
