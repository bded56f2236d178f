import type { Db } from '../platform/db/pool.js';
import type { Handler } from '../edge/handler.js';
import { requirePrincipal } from '../auth/index.js';
// Not through index.ts: the views read the inquiry's assessment shape (src/inquiries), which itself reads entities.
import { entityLedger, viewEntity } from './views.js';
import { ledgerPath } from './paths.js';

/** GET /v1/entities/{entity_id} and its ledger: HTTP around the entity views (views.ts). */

/** GET /v1/entities/{entity_id} */
export function createGetEntity(deps: { db: Db }): Handler {
  return async (ctx) => {
    const entity = await viewEntity(deps, ctx, requirePrincipal(ctx), ctx.params.entity_id!);
    return { status: 200, body: { ...entity, ledger_url: ledgerPath(entity.entity_id) } };
  };
}

/** GET /v1/entities/{entity_id}/ledger: every assessment of the entity and of those merged into it, in order. */
export function createGetEntityLedger(deps: { db: Db }): Handler {
  return async (ctx) => ({ status: 200, body: await entityLedger(deps, ctx, requirePrincipal(ctx), ctx.params.entity_id!) });
}
