import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloneDatabase, ownerClient } from '../support/database.js';
import { serviceLoginUrl } from '../support/service.js';
import { FIXTURES } from './tenantRows.js';

/**
 * Issue 40: no way around row-level security. Logged in as the service's own
 * login (tas_app), with tenant A's setting or with none, nothing reaches a row
 * of tenant B: not a role it can become (SET ROLE), not a function it can
 * execute, not a view. Every role, function and relation is enumerated from
 * the catalog, so one added later is checked too. Tenant B's rows exist (the
 * owner writes one in every tenant table), so a zero is a real zero.
 */
let db: Awaited<ReturnType<typeof cloneDatabase>>;
let owner: pg.Client;
let app: pg.Client;
const A = randomUUID();
const B = randomUUID();
const B_KEY = randomUUID();

// Tables of no tenant that the service may read: the registry's catalogue (the same for every tenant).
const SHARED_TABLES = new Set(['registry_catalog']);
// The functions tas_app may call that run with their owner's rights, and why each is narrow.
const NARROW_DOORS = [
  'tas_key_salt(uuid)', // a key's random salt, nothing of its tenant
  'tas_key_verify_any(uuid,bytea[])', // a key's row only against one of its own keyed hashes (needs the key and a pepper; 000065)
  'tas_key_rehash(uuid,bytea,bytea,text)', // replaces a key's hash only for a caller presenting the stored one (000065)
  'tas_key_used(uuid,uuid)', // marks a key of the named tenant only
  'tas_presentation_velocity(text[],text[])', // counts the caller's tenant's inquiries only (tas_current_tenant)
  'tas_session_claim(uuid,bytea)', // a session only against its one-time token's digest
].sort();

beforeAll(async () => {
  db = await cloneDatabase();
  owner = await ownerClient(db.url);
  for (const t of [A, B]) await owner.query(`INSERT INTO tenants (id, name) VALUES ($1, $2)`, [t, `t-${t}`]);
  const tables = (
    await owner.query(`SELECT table_name FROM information_schema.columns WHERE table_schema = 'public' AND column_name = 'tenant_id'`)
  ).rows;
  for (const { table_name: table } of tables) {
    for (const m of ['live', 'test'] as const) await FIXTURES[table]?.(owner, B, m);
  }
  await owner.query(
    `INSERT INTO api_keys (id, tenant_id, mode, name, scopes, salt, hash) VALUES ($1, $2, 'live', 'k', '{admin}', '\\x01', '\\x02')`,
    [B_KEY, B],
  );
  await owner.query(
    `INSERT INTO inquiries (id, tenant_id, mode, status, intent, purpose, request, principal)
    VALUES ($1, $2, 'live', 'concluded', 'i', 'p', '{"presentations":[{"type":"EMAIL","normalised":"b@b.example"}]}', 'k')`,
    [randomUUID(), B],
  );
  app = new pg.Client({ connectionString: serviceLoginUrl(db.url) });
  await app.connect();
});
afterAll(async () => {
  await app?.end();
  await owner?.end();
  await db?.drop();
});

/** Runs `fn` in a transaction of the service login, with A's tenant setting (or none), as `role` (or the login itself). */
async function asApp<T>(role: string | null, tenant: string, fn: () => Promise<T>): Promise<T> {
  await app.query('BEGIN');
  try {
    await app.query(`SELECT set_config('tas.tenant_id', $1, true), set_config('tas.mode', $2, true)`, [
      tenant,
      tenant === '' ? '' : 'live',
    ]);
    if (role !== null) await app.query(`SELECT set_config('role', $1, true)`, [role]);
    return await fn();
  } finally {
    await app.query('ROLLBACK');
  }
}

/** Rows of `relation` that are not tenant A's, as the current role sees them; a refused read counts none. */
async function othersVisible(relation: string, hasTenant: boolean): Promise<number> {
  const filter = hasTenant ? `WHERE tenant_id IS DISTINCT FROM '${A}'` : relation === 'tenants' ? `WHERE id IS DISTINCT FROM '${A}'` : '';
  await app.query('SAVEPOINT probe');
  try {
    const { rows } = await app.query(`SELECT count(*)::int AS n FROM ${pg.escapeIdentifier(relation)} ${filter}`);
    await app.query('RELEASE SAVEPOINT probe');
    return rows[0].n as number;
  } catch (error) {
    await app.query('ROLLBACK TO SAVEPOINT probe');
    if (/permission denied/.test((error as Error).message)) return 0;
    throw error;
  }
}

describe('roles the service login can become', () => {
  it('is tas_service alone (not tas_system, not any role whose policies see every tenant)', async () => {
    const { rows } = await app.query(
      `SELECT rolname FROM pg_roles WHERE pg_has_role(session_user, oid, 'MEMBER') AND rolname <> session_user ORDER BY 1`,
    );
    expect(rows.map((r) => r.rolname)).toEqual(['tas_service']);
  });

  it('SET ROLE to any other role is refused', async () => {
    const { rows } = await owner.query(`SELECT rolname FROM pg_roles WHERE rolname NOT IN ('tas_app', 'tas_service') ORDER BY 1`);
    expect(rows.map((r) => r.rolname)).toEqual(expect.arrayContaining(['tas_system', 'tas_ops', 'tas_definer', 'postgres']));
    for (const { rolname } of rows) {
      await app.query('BEGIN');
      try {
        await expect(app.query(`SET LOCAL ROLE ${pg.escapeIdentifier(rolname)}`), rolname).rejects.toThrow(/permission denied/);
      } finally {
        await app.query('ROLLBACK');
      }
    }
  });

  it("as the login itself or any role it can become, with A's tenant set or none, no relation shows a row that is not A's", async () => {
    const relations = (
      await owner.query(`
      SELECT c.relname, c.relkind, EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'tenant_id' AND NOT a.attisdropped) AS has_tenant
      FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p', 'v', 'm', 'f') ORDER BY 1`)
    ).rows as { relname: string; has_tenant: boolean }[];
    const roles = [
      null,
      ...(
        await app.query(`SELECT rolname FROM pg_roles WHERE pg_has_role(session_user, oid, 'MEMBER') AND rolname <> session_user`)
      ).rows.map((r) => r.rolname as string),
    ];
    for (const role of roles) {
      for (const tenant of [A, '']) {
        const seen = await asApp(role, tenant, async () => {
          const out: Record<string, number> = {};
          for (const r of relations) if (!SHARED_TABLES.has(r.relname)) out[r.relname] = await othersVisible(r.relname, r.has_tenant);
          return out;
        });
        expect(
          Object.entries(seen).filter(([, n]) => n > 0),
          `${role ?? 'tas_app'} with tenant '${tenant}'`,
        ).toEqual([]);
      }
    }
    // The zeros are real: the owner sees B's rows in every tenant table.
    for (const r of relations.filter((x) => x.has_tenant)) {
      const { rows } = await owner.query(`SELECT count(*)::int AS n FROM ${pg.escapeIdentifier(r.relname)} WHERE tenant_id = $1`, [B]);
      expect(rows[0].n, r.relname).toBeGreaterThan(0);
    }
  });

  it('there is no view, and every tenant table is under forced row-level security', async () => {
    const views = await owner.query(
      `SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND c.relkind IN ('v', 'm')`,
    );
    expect(views.rows).toEqual([]);
    const loose = await owner.query(`
      SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND c.relkind = 'r' AND (c.relrowsecurity OR c.relname = 'tenants'
            OR EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'tenant_id'))
        AND NOT (c.relrowsecurity AND c.relforcerowsecurity)`);
    expect(loose.rows).toEqual([]);
  });
});

describe('functions the service login can execute', () => {
  it("those with their owner's rights are the narrow doors only, owned by a role that is no superuser and bypasses nothing, with a pinned search path", async () => {
    const { rows } = await app.query(`
      SELECT p.oid::regprocedure::text AS sig, o.rolsuper, o.rolbypassrls, o.rolcanlogin, p.proconfig
      FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace JOIN pg_roles o ON o.oid = p.proowner
      WHERE n.nspname = 'public' AND p.prosecdef
        AND (has_function_privilege(session_user, p.oid, 'EXECUTE') OR has_function_privilege('tas_service', p.oid, 'EXECUTE'))
      ORDER BY 1`);
    expect(rows.map((r) => r.sig.replaceAll(' ', '')).sort()).toEqual(NARROW_DOORS);
    for (const r of rows) {
      expect({ sig: r.sig, super: r.rolsuper, bypass: r.rolbypassrls, login: r.rolcanlogin }).toEqual({
        sig: r.sig,
        super: false,
        bypass: false,
        login: false,
      });
      expect(r.proconfig, r.sig).toContain('search_path=public, pg_temp');
    }
  });

  it('every SECURITY DEFINER function is owned by tas_definer with a pinned search path', async () => {
    const { rows } = await owner.query(`
      SELECT p.oid::regprocedure::text AS sig, pg_get_userbyid(p.proowner) AS owner, p.proconfig
      FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = 'public' AND p.prosecdef`);
    expect(rows.length).toBeGreaterThan(5);
    for (const r of rows) {
      expect(r.owner, r.sig).toBe('tas_definer');
      expect(r.proconfig, r.sig).toContain('search_path=public, pg_temp');
    }
  });

  it("tas_outbox_forget is the system login's only", async () => {
    const { rows } = await app.query(`
      SELECT has_function_privilege(session_user, p.oid, 'EXECUTE') AS login, has_function_privilege('tas_service', p.oid, 'EXECUTE') AS service
      FROM pg_proc p WHERE p.proname = 'tas_outbox_forget'`);
    expect(rows).toEqual([{ login: false, service: false }]);
  });

  it("tas_key_used with tenant A named cannot mark B's key", async () => {
    await app.query(`SELECT tas_key_used($1, $2)`, [B_KEY, A]);
    const { rows } = await owner.query(`SELECT last_used_at FROM api_keys WHERE id = $1`, [B_KEY]);
    expect(rows[0].last_used_at).toBeNull();
  });

  it("tas_key_verify_any gives B's key row to no one who lacks its hash, tas_key_rehash replaces nothing without it, and tas_key_salt nothing of B", async () => {
    const { rows } = await app.query(`SELECT count(*)::int AS n FROM tas_key_verify_any($1, ARRAY['\\x01'::bytea, '\\x03'::bytea])`, [
      B_KEY,
    ]);
    expect(rows[0].n).toBe(0);
    const moved = await app.query(`SELECT tas_key_rehash($1, '\\x01', '\\x04', 'pk_000000000000') AS moved`, [B_KEY]);
    expect(moved.rows[0].moved).toBe(false);
    const salt = await app.query(`SELECT tas_key_salt($1) AS s`, [B_KEY]);
    expect(Object.keys(salt.rows[0])).toEqual(['s']);
  });

  it("tas_presentation_velocity under A counts none of B's inquiries (and, under B, does count them)", async () => {
    const count = (tenant: string) =>
      asApp(
        'tas_service',
        tenant,
        async () =>
          (await app.query(`SELECT last_day FROM tas_presentation_velocity(ARRAY['EMAIL'], ARRAY['b@b.example'])`)).rows[0]
            .last_day as number,
      );
    expect(await count(A)).toBe(0);
    expect(await count(B)).toBe(1);
  });
});
