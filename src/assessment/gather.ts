import type { Principal } from '../auth/index.js';
import { findMaterial, listExtractions } from '../material/index.js';
import { withTenant, type Db, type Tx } from '../platform/db/pool.js';
import { ValidationFailure, type ValidationItem } from '../platform/problems.js';
import type { Subject } from '../schemas/common.js';

/**
 * What an inquiry reasons over beyond the values it wrote out: the
 * identifiers extracted from the material it names, and, when it names only
 * an entity, the values that entity is known by. Both become presentations
 * before the checks are planned, so they are checked like any other value.
 *
 * A material id that is unknown, another tenant's (RLS makes the two the
 * same) or not yet extracted is refused with 422 naming `material_ids[i]`:
 * silently reasoning over less than the caller asked for would be a wrong
 * answer that looks right.
 */

// Bounds on what gathering adds, so a large document or a long-lived entity
// cannot turn one inquiry into hundreds of checks. The stake's budget still
// decides how many of the planned checks run.
const MAX_FROM_MATERIAL = 32;
const MAX_FROM_ENTITY = 16;

export interface MaterialBinding {
  material_id: string;
  binding_id: string;
  type: string;
  value: string;
}

/** What gathering reads of a request (an inquiry's, a probe's): its subject and the material it names. */
export interface GatherableRequest {
  subject: Subject;
  material_ids?: string[];
}

/** The values an entity is known by, most recently first seen first (src/entities `knownValuesOf`); none for an unknown one. */
export type KnownValues = (tx: Tx, entityId: string, limit: number) => Promise<{ type: string; value: string }[]>;

export interface Gathered<B extends GatherableRequest> {
  /** The request with the gathered values appended to its presentations. */
  body: B;
  /** Where each value taken from material sits in it. */
  bindings: MaterialBinding[];
}

export async function gatherSubject<B extends GatherableRequest>(
  db: Db,
  principal: Principal,
  body: B,
  artifactTypes: ReadonlySet<string>,
  knownValues: KnownValues,
): Promise<Gathered<B>> {
  const materialIds = body.material_ids ?? [];
  const entityOnly = (body.subject.presentations ?? []).length === 0 && body.subject.entity_id !== undefined;
  if (materialIds.length === 0 && !entityOnly) return { body, bindings: [] };
  return withTenant(db, principal, async (tx) => {
    const bindings = (await fromMaterial(tx, materialIds)).filter((b) => artifactTypes.has(b.type)).slice(0, MAX_FROM_MATERIAL);
    // An unknown entity gathers nothing here: opening answers 404 for it.
    const known = entityOnly ? await knownValues(tx, body.subject.entity_id!, MAX_FROM_ENTITY) : [];
    const added = [...known, ...bindings.map((b) => ({ type: b.type, value: b.value }))].filter((p) => artifactTypes.has(p.type));
    if (added.length === 0) return { body, bindings };
    const presentations = [...(body.subject.presentations ?? []), ...added];
    return { body: { ...body, subject: { ...body.subject, presentations } }, bindings };
  });
}

async function fromMaterial(tx: Tx, materialIds: readonly string[]): Promise<MaterialBinding[]> {
  const refusals: ValidationItem[] = [];
  const bindings: MaterialBinding[] = [];
  for (const [i, materialId] of materialIds.entries()) {
    const material = await findMaterial(tx, materialId);
    if (material === null) {
      refusals.push({ loc: ['body', 'material_ids', i], msg: 'No such material for this tenant.', type: 'not_found' });
      continue;
    }
    if (material.status !== 'extracted') {
      refusals.push({
        loc: ['body', 'material_ids', i],
        msg: `The material is ${material.status}, not extracted: there is nothing to reason over yet.`,
        type: 'not_extracted',
      });
      continue;
    }
    for (const row of await listExtractions(tx, materialId)) {
      if (row.target_kind === 'artifact' && row.value !== null)
        bindings.push({ material_id: materialId, binding_id: row.binding_id, type: row.type, value: row.value });
    }
  }
  if (refusals.length > 0) throw new ValidationFailure(refusals);
  return bindings;
}
