import type { Db } from '../platform/db/pool.js';
import type { Handler } from '../edge/handler.js';
import type { PolicyCache } from './cache.js';
import type { RegistryCache } from '../registry/index.js';
import type { PolicyIn } from './schemas.js';
import { requirePrincipal } from '../auth/index.js';
import { listPolicyVersions, publishPolicy } from './index.js';

/** POST and GET /v1/admin/policies: HTTP around the policy commands (commands.ts). */
export function createPublishPolicy(deps: { db: Db; cache: PolicyCache; registry: RegistryCache }): Handler {
  return async (ctx) => ({ status: 201, body: await publishPolicy(deps, ctx, requirePrincipal(ctx), ctx.body as PolicyIn) });
}

/** GET /v1/admin/policies: every version, current first. */
export function createListPolicies(deps: { db: Db }): Handler {
  return async (ctx) => {
    const principal = requirePrincipal(ctx);
    ctx.audit.target_kind = 'policy';
    return { status: 200, body: await listPolicyVersions(deps, principal) };
  };
}
