import { sql } from 'slonik';
import type { Principal } from '../auth/index.js';
import { normalisePresented } from '../checks/normalise.js';
import { withTenant, type Db } from '../platform/db/pool.js';
import { ValidationFailure } from '../platform/problems.js';
import type { RegistryCache } from '../registry/index.js';
import { EntityFound, type EntitiesFound, type EntityFindQuery } from './findSchemas.js';

/**
 * The tenant's entities that carry a presented value (issue 38's finding
 * extension). The value is normalised by the very function an inquiry's
 * presentations pass through before resolution (src/checks/normalise.ts,
 * with `country` in the place of `claim.country`), so what an inquiry would
 * resolve to is what is found. Row-level security keeps the look-up to the
 * key's tenant and mode: another tenant's entity carrying the same value is
 * never found, and nothing tells that it exists.
 *
 * An unregistered type is refused as an inquiry would refuse it (rule I15,
 * naming `type`; the edge adds where the registered ones are listed).
 */
export async function findEntities(
  deps: { db: Db; registry: RegistryCache },
  principal: Principal,
  query: EntityFindQuery,
): Promise<EntitiesFound> {
  const grants = await deps.registry.grants(principal);
  if (!grants.artifactTypes.has(query.type))
    throw ValidationFailure.rule('I15', ['query', 'type'], 'Not an artifact type registered to this tenant (rule I15).');
  const [presented] = normalisePresented([{ type: query.type, value: query.value }], query.country);
  const normalised = presented!.normalised;
  const rows = await withTenant(deps.db, principal, (tx) =>
    tx.any(sql.type(EntityFound)`
    WITH hits AS (
      (SELECT entity_id, 'anchor' AS held_as, first_seen_at FROM entity_identifiers WHERE type = ${query.type} AND normalised = ${normalised})
      UNION ALL
      (SELECT entity_id, 'link' AS held_as, first_seen_at FROM entity_links WHERE type = ${query.type} AND normalised = ${normalised})
    ), owners AS (
      -- Merges keep merged_into one hop deep: the survivor is the entity or the one it was merged into.
      SELECT DISTINCT ON (COALESCE(e.merged_into, e.id)) COALESCE(e.merged_into, e.id) AS entity_id, h.held_as, h.first_seen_at
      FROM hits h JOIN entities e ON e.id = h.entity_id
      ORDER BY COALESCE(e.merged_into, e.id), h.held_as, h.first_seen_at
    )
    SELECT entity_id, held_as, first_seen_at
    FROM owners
    ORDER BY held_as, first_seen_at, entity_id
    LIMIT ${query.limit}`),
  );
  return { type: query.type, normalised, entities: [...rows] };
}
