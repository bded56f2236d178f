import { sql } from 'slonik';
import { z } from 'zod';
import type { Db } from './pool.js';

/**
 * What a deployment's database says about itself: which database it is (to
 * bind a Redis prefix to it) and what the service's login could do if a bug
 * stepped out of its SET LOCAL ROLE. Read at start-up and by `tas doctor`.
 */

const Identity = z.object({ system_identifier: z.string(), datname: z.string(), oid: z.string() });

/**
 * This database, named so that no other database anywhere shares the name:
 * the cluster's system identifier (kept by a physical replica and across a
 * failover, new after initdb), the database's name and its oid (new when the
 * database is dropped and made again).
 */
export async function databaseIdentity(db: Db): Promise<string> {
  const row = await db.one(sql.type(Identity)`
    SELECT c.system_identifier::text AS system_identifier, d.datname, d.oid::text AS oid
    FROM pg_control_system() c, pg_database d
    WHERE d.datname = current_database()`);
  return `postgres:${row.system_identifier}/${row.datname}/${row.oid}`;
}

export const LoginPowers = z.object({
  login: z.string(),
  superuser: z.boolean(),
  bypassrls: z.boolean(),
  owns: z.boolean(),
  crosses: z.boolean(),
});
export type LoginPowers = z.infer<typeof LoginPowers>;

/** The session login's powers beyond tas_app's: superuser, BYPASSRLS, owner of a table, or able to become tas_system. */
export async function loginPowers(db: Db): Promise<LoginPowers> {
  return db.one(sql.type(LoginPowers)`
    SELECT session_user::text AS login, r.rolsuper AS superuser, r.rolbypassrls AS bypassrls,
           EXISTS (SELECT 1 FROM pg_tables t WHERE t.schemaname = 'public' AND t.tableowner = session_user) AS owns,
           EXISTS (SELECT 1 FROM pg_roles s WHERE s.rolname = 'tas_system' AND pg_has_role(session_user, s.oid, 'MEMBER')) AS crosses
    FROM pg_roles r WHERE r.rolname = session_user`);
}
