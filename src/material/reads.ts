import { findMaterial, listExtractions } from './store.js';
import { withTenant, type Db } from '../platform/db/pool.js';
import { ServiceProblem } from '../platform/problems.js';
import type { MaterialJob } from './extraction.js';
import { extractionOut, materialOut } from './out.js';
import type { ExtractionOut, MaterialOut } from './schemas.js';
import type { Principal } from '../auth/index.js';

/**
 * Reading material and its extraction. Unknown, or another tenant's or
 * mode's: the same not-found. A read that finds the material still
 * `received` queues its extraction again (a queue that lost the job, say),
 * which is harmless: the job id is the material id and the command ignores
 * material it already finished.
 */
export interface MaterialReadDeps {
  db: Db;
  enqueueExtraction: (job: MaterialJob) => Promise<void>;
}

const notFound = () => new ServiceProblem('not-found', 'No such material.');

export async function viewMaterial(deps: MaterialReadDeps, principal: Principal, id: string): Promise<MaterialOut> {
  const row = await withTenant(deps.db, principal, (tx) => findMaterial(tx, id));
  if (!row) throw notFound();
  if (row.status === 'received') await deps.enqueueExtraction({ materialId: id, tenantId: principal.tenantId, mode: principal.mode });
  return materialOut(row);
}

export async function viewExtraction(deps: Pick<MaterialReadDeps, 'db'>, principal: Principal, id: string): Promise<ExtractionOut> {
  const found = await withTenant(deps.db, principal, async (tx) => {
    const row = await findMaterial(tx, id);
    return row ? { row, items: await listExtractions(tx, id) } : null;
  });
  if (!found) throw notFound();
  return extractionOut(found.row, found.items);
}
