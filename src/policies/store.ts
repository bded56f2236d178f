import { sql } from 'slonik';
import { z } from 'zod';
import { PolicyIn } from './schemas.js';
import type { Mode, Tx } from '../platform/db/pool.js';
import { jsonb } from '../platform/db/jsonb.js';

/**
 * One function per query on `policies` (append-only versions; the highest
 * version is current). Every function runs inside `withTenant`, so row-level
 * security already limits it to the calling tenant and mode.
 */
const PolicyRow = z.object({
  version: z.number().int().min(1),
  body: PolicyIn,
  created_at: z.string(),
  created_by: z.string(),
});
export type PolicyRow = z.infer<typeof PolicyRow>;

/**
 * Publishes the next version. Two admins publishing at once must not both
 * read the same maximum: a transaction-scoped advisory lock per tenant and
 * mode serialises publishers (the primary key would otherwise turn the race
 * into a failed call). The lock ends with the caller's transaction, after the
 * audit row, so the next publisher sees this version committed.
 */
export async function insertPolicy(tx: Tx, scope: { tenantId: string; mode: Mode }, body: PolicyIn, createdBy: string): Promise<PolicyRow> {
  await tx.query(sql.unsafe`
    SELECT pg_advisory_xact_lock(hashtextextended(${`tas.policies:${scope.tenantId}:${scope.mode}`}, 0))`);
  return tx.one(sql.type(PolicyRow)`
    INSERT INTO policies (tenant_id, mode, version, body, created_by)
    SELECT ${scope.tenantId}, ${scope.mode}, COALESCE(MAX(version), 0) + 1, ${jsonb(body)}, ${createdBy}
    FROM policies
    RETURNING version, body, created_at, created_by`);
}

/** The current (highest) version, or null before the tenant's first publication. */
export async function currentPolicy(tx: Tx): Promise<PolicyRow | null> {
  return tx.maybeOne(sql.type(PolicyRow)`
    SELECT version, body, created_at, created_by
    FROM policies ORDER BY version DESC LIMIT 1`);
}

/** Every version, current first. */
export async function listPolicies(tx: Tx): Promise<readonly PolicyRow[]> {
  return tx.any(sql.type(PolicyRow)`
    SELECT version, body, created_at, created_by
    FROM policies ORDER BY version DESC`);
}
