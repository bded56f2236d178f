import { sql } from 'slonik';
import { z } from 'zod';
import type { Db, Mode, Tx } from '../platform/db/pool.js';

export async function insertTenant(
  tx: Db | Tx,
  t: { id: string; name: string; investigative: boolean; authorizationRef: string | null },
): Promise<void> {
  await tx.query(sql.unsafe`
    INSERT INTO tenants (id, name, investigative, authorization_ref)
    VALUES (${t.id}, ${t.name}, ${t.investigative}, ${t.authorizationRef})`);
}

export async function tenantExists(db: Db | Tx, name: string): Promise<boolean> {
  return db.exists(sql.unsafe`SELECT 1 FROM tenants WHERE name = ${name}`);
}

export async function countTenants(db: Db | Tx): Promise<number> {
  return db.oneFirst(sql.type(z.object({ n: z.number() }))`SELECT count(*)::int AS n FROM tenants`);
}

/**
 * Grants every catalog entry to the tenant in both modes, except investigation
 * intents and purposes, which only an investigative (KYB) tenant receives.
 */
export async function grantDefaultRegistry(tx: Db | Tx, tenantId: string, investigative: boolean): Promise<void> {
  for (const mode of ['live', 'test'] as const satisfies readonly Mode[]) {
    await tx.query(sql.unsafe`
      INSERT INTO tenant_grants (tenant_id, mode, kind, grant_id)
      SELECT ${tenantId}, ${mode}, kind, id FROM registry_catalog
      WHERE ${investigative} OR id <> 'investigation'`);
  }
}

export async function tenantIsInvestigative(tx: Tx, tenantId: string): Promise<boolean> {
  return tx.oneFirst(sql.type(z.object({ investigative: z.boolean() }))`
    SELECT investigative FROM tenants WHERE id = ${tenantId}`);
}

/** The id of the tenant with this name, or null (names are unique: tenants_name_key). */
export async function tenantIdByName(db: Db | Tx, name: string): Promise<string | null> {
  return db.maybeOneFirst(sql.type(z.object({ id: z.string() }))`SELECT id FROM tenants WHERE name = ${name}`);
}
