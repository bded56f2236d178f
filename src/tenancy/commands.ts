import type { Tx } from '../platform/db/pool.js';
import { tenantIsInvestigative as investigative } from './store.js';

/**
 * What a tenant is, for the capabilities that decide by it: whether it was
 * provisioned as investigative (cases and their material, testimony kept
 * about a person). Runs in the caller's transaction.
 */
export async function tenantIsInvestigative(tx: Tx, tenantId: string): Promise<boolean> {
  return investigative(tx, tenantId);
}
