import { sql } from 'slonik';
import { z } from 'zod';
import type { Tx } from '../platform/db/pool.js';

/** Whether the tenant may open cases (rule C01): investigative (KYB) and with an authorization record on file. */
export async function tenantMayInvestigate(tx: Tx, tenantId: string): Promise<boolean> {
  const row = await tx.maybeOne(sql.type(z.object({ investigative: z.boolean(), authorized: z.boolean() }))`
    SELECT investigative, authorization_ref IS NOT NULL AS authorized FROM tenants WHERE id = ${tenantId}`);
  return row !== null && row.investigative && row.authorized;
}
