import { sql } from 'slonik';
import { z } from 'zod';
import type { Tx } from '../platform/db/pool.js';

/**
 * One function per query on the tenant's registry grants. Grants are rows of
 * `tenant_grants` (row-level security limits them to the calling tenant and
 * mode) drawn from the shared `registry_catalog`, which supplies the wording.
 */
export const REGISTRY_KINDS = ['artifact_type', 'intent', 'purpose'] as const;
export type RegistryKind = (typeof REGISTRY_KINDS)[number];

const EntryRow = z.object({ id: z.string(), description: z.string() });
export type RegistryEntryRow = z.infer<typeof EntryRow>;

/** What the tenant may use of one kind, with the catalog's description, by id. */
export async function listGrantedEntries(tx: Tx, kind: RegistryKind): Promise<readonly RegistryEntryRow[]> {
  return tx.any(sql.type(EntryRow)`
    SELECT c.id, c.description
    FROM tenant_grants g
    JOIN registry_catalog c ON c.kind = g.kind AND c.id = g.grant_id
    WHERE g.kind = ${kind}
    ORDER BY c.id`);
}

const GrantRow = z.object({ kind: z.enum(REGISTRY_KINDS), id: z.string() });
export type GrantRow = z.infer<typeof GrantRow>;

/** Every grant of the tenant, all kinds, ids only: what the inquiry hot path checks against. */
export async function listGrantedIds(tx: Tx): Promise<readonly GrantRow[]> {
  return tx.any(sql.type(GrantRow)`SELECT kind, grant_id AS id FROM tenant_grants`);
}
