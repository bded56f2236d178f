import type { Db } from '../platform/db/pool.js';
import type { Handler } from '../edge/handler.js';
import { requirePrincipal } from '../auth/index.js';
import { listRegistry, type RegistryKind } from './index.js';

/** GET /v1/registry/*: HTTP around the registry reads (entries.ts). */
function createListRegistry(deps: { db: Db }, kind: RegistryKind): Handler {
  return async (ctx) => {
    const principal = requirePrincipal(ctx);
    ctx.audit.target_kind = 'registry';
    ctx.audit.target_id = kind;
    return { status: 200, body: await listRegistry(deps, principal, kind) };
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
