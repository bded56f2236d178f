import { requirePrincipal } from '../auth/index.js';
import type { RegistryCache } from '../registry/index.js';
import { findEntities } from './find.js';
import { entityPath } from './paths.js';
import type { Db } from '../platform/db/pool.js';
import type { EntitiesFound, EntityFindOut, EntityFindQuery } from './findSchemas.js';
import type { Handler } from '../edge/handler.js';

/** `findEntities` (src/schemas/operationsEntityFind.ts), the finding extension. */
export function entityFindHandlers(deps: { db: Db; registry: RegistryCache }): [string, Handler][] {
  return [
    [
      'findEntities',
      async (ctx) => {
        ctx.audit.target_kind = 'entity';
        return { status: 200, body: foundBody(await findEntities(deps, requirePrincipal(ctx), ctx.query as EntityFindQuery)) };
      },
    ],
  ];
}

/** The wire's body: each entity found with the address that reads it. */
function foundBody(found: EntitiesFound): EntityFindOut {
  return { ...found, entities: found.entities.map((e) => ({ ...e, entity_url: entityPath(e.entity_id) })) };
}
