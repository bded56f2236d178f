import type { Db } from '../platform/db/pool.js';
import type { Handler } from '../edge/handler.js';
import type { PolicyCache } from '../policies/cache.js';
import type { RegistryCache } from '../registry/cache.js';
import { createListPolicies, createPublishPolicy } from '../policies/routes.js';
import { createGetEntity, createGetEntityLedger } from '../entities/routes.js';
import { createListArtifactTypes, createListIntents, createListPurposes } from '../registry/routes.js';

/**
 * The policy, registry and entity handlers keyed by operationId exactly as
 * in the operations list (src/schemas/operations*.ts), for app.ts's handler
 * table. The caches are passed in, not made here, so the inquiry path and
 * these handlers share one instance: publishing invalidates the very cache
 * the next inquiry reads.
 */
export function controlPlaneHandlers(deps: { db: Db; policyCache: PolicyCache; registryCache: RegistryCache }): [string, Handler][] {
  const { db } = deps;
  return [
    ['listPolicies', createListPolicies({ db })],
    ['publishPolicy', createPublishPolicy({ db, cache: deps.policyCache, registry: deps.registryCache })],
    ['listArtifactTypes', createListArtifactTypes({ db })],
    ['listIntents', createListIntents({ db })],
    ['listPurposes', createListPurposes({ db })],
    ['getEntity', createGetEntity({ db })],
    ['getEntityLedger', createGetEntityLedger({ db })],
  ];
}
