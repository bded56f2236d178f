import { listGrantedEntries, type RegistryKind } from './store.js';
import { withTenant, type Db } from '../platform/db/pool.js';
import type { GrantScope } from './cache.js';
import type { RegistryEntryOut } from './schemas.js';

/**
 * Registry reads: exactly what the calling tenant may present, use and
 * declare in the key's mode, never the whole catalog (SPEC "Registry").
 * They read the database, not the hot-path cache, so a grant the operator
 * just made is listed at once.
 */

export type { RegistryKind };

/**
 * How each built-in artifact type is normalised before entities are matched
 * (src/checks/normalise.ts), named so a tenant can predict which presented
 * values are "the same".
 */
const NORMALISERS: Record<string, string> = {
  EMAIL: 'trim_lowercase',
  PHONE: 'e164',
  DOMAIN: 'registrable_domain',
  URL: 'whatwg_url',
  IP: 'ip_canonical',
  NAME: 'nfc_collapse_whitespace',
  ACCOUNT: 'trim',
};
// A type registered beyond the built-in ones keeps its value, trimmed.
const DEFAULT_NORMALISER = 'trim';

/** The entries of one kind granted to the caller's tenant and mode. */
export async function listRegistry(deps: { db: Db }, scope: GrantScope, kind: RegistryKind): Promise<RegistryEntryOut[]> {
  const rows = await withTenant(deps.db, scope, (tx) => listGrantedEntries(tx, kind));
  return rows.map((row) =>
    kind === 'artifact_type'
      ? { id: row.id, description: row.description, normaliser: NORMALISERS[row.id] ?? DEFAULT_NORMALISER }
      : { id: row.id, description: row.description },
  );
}
