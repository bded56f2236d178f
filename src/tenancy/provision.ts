import { randomUUID } from 'node:crypto';
import { withSystem, type Db } from '../platform/db/pool.js';
import { grantDefaultRegistry, insertTenant } from './store.js';
import { NON_ADMIN_SCOPES } from '../schemas/operation.js';
import { mintKey } from './keys.js';

export interface ProvisionedTenant {
  tenant_id: string;
  keys: { live_admin: string; live: string; test_admin: string; test: string };
}

/**
 * Operator provisioning: the tenant, its default registry grants and its first
 * four keys (admin and every non-admin scope, live and test), in one
 * transaction so a failure leaves nothing half-made.
 */
export async function provisionTenant(
  db: Db,
  pepper: string,
  opts: { name: string; investigative: boolean; authorizationRef?: string | null },
): Promise<ProvisionedTenant> {
  const tenantId = randomUUID();
  return withSystem(db, async (tx) => {
    await insertTenant(tx, {
      id: tenantId,
      name: opts.name,
      investigative: opts.investigative,
      authorizationRef: opts.authorizationRef ?? null,
    });
    await grantDefaultRegistry(tx, tenantId, opts.investigative);
    const mint = async (mode: 'live' | 'test', admin: boolean) =>
      (
        await mintKey(tx, pepper, {
          tenantId,
          mode,
          name: admin ? `${mode} admin (provisioned)` : `${mode} (provisioned)`,
          scopes: admin ? ['admin'] : NON_ADMIN_SCOPES,
        })
      ).token;
    return {
      tenant_id: tenantId,
      keys: {
        live_admin: await mint('live', true),
        live: await mint('live', false),
        test_admin: await mint('test', true),
        test: await mint('test', false),
      },
    };
  });
}
