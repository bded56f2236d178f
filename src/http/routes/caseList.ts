import { requirePrincipal } from '../../auth/principal.js';
import { listCases } from '../../cases/list.js';
import type { Db } from '../../db/pool.js';
import type { CaseListQuery } from '../../schemas/caseList.js';
import type { Handler } from '../handler.js';

/** `listCases` (src/schemas/operationsCaseList.ts), the listing extension. */
export function caseListHandlers(deps: { db: Db }): [string, Handler][] {
  return [
    ['listCases', async (ctx) => ({ status: 200, body: await listCases(deps.db, requirePrincipal(ctx), ctx.query as CaseListQuery) })],
  ];
}
