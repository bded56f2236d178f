import { listGrantedEntries, type RegistryKind } from './store.js';
import { withTenant, type Db } from '../platform/db/pool.js';
import type { Handler } from '../edge/handler.js';
import type { RegistryEntryOut } from './schemas.js';
import { requirePrincipal } from '../auth/index.js';

/**
 * Registry reads: exactly what the calling tenant may present, use and
 * declare in the key's mode, never the whole catalog (SPEC "Registry").
 * They read the database, not the hot-path cache, so a grant the operator
 * just made is listed at once.
 */

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

function createListRegistry(deps: { db: Db }, kind: RegistryKind): Handler {
  return async (ctx) => {
    const principal = requirePrincipal(ctx);
    ctx.audit.target_kind = 'registry';
    ctx.audit.target_id = kind;
    const rows = await withTenant(deps.db, principal, (tx) => listGrantedEntries(tx, kind));
    const body: RegistryEntryOut[] = rows.map((row) =>
      kind === 'artifact_type'
        ? { id: row.id, description: row.description, normaliser: NORMALISERS[row.id] ?? DEFAULT_NORMALISER }
        : { id: row.id, description: row.description },
    );
    return { status: 200, body };
  };
}

/** GET /v1/registry/artifact-types */
export function createListArtifactTypes(deps: { db: Db }): Handler {
  return createListRegistry(deps, 'artifact_type');
}

/** GET /v1/registry/intents */
export function createListIntents(deps: { db: Db }): Handler {
  return createListRegistry(deps, 'intent');
}

/** GET /v1/registry/purposes */
export function createListPurposes(deps: { db: Db }): Handler {
  return createListRegistry(deps, 'purpose');
}
