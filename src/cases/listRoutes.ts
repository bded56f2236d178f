import { requirePrincipal } from '../auth/index.js';
import { listCases } from './list.js';
import type { Db } from '../platform/db/pool.js';
import type { CaseListQuery } from './listSchemas.js';
import type { Handler } from '../edge/handler.js';

/** `listCases` (src/schemas/operationsCaseList.ts), the listing extension. */
export function caseListHandlers(deps: { db: Db }): [string, Handler][] {
  return [
    ['listCases', async (ctx) => ({ status: 200, body: await listCases(deps.db, requirePrincipal(ctx), ctx.query as CaseListQuery) })],
  ];
}
