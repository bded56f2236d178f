import { sql } from 'slonik';
import { z } from 'zod';
import type { Keyring } from '../auth/index.js';
import type { Tx } from '../platform/db/pool.js';
import { isSealedUnderCurrent, openSecret, sealSecret } from './secret.js';

/** How a capability's sealed rows stood against the ring's current pepper, once re-sealed. */
export interface ResealCount {
  resealed: number;
  current: number;
  /** Rows no pepper of the ring opens, named for the operator (never their contents). */
  unopenable: string[];
}

const EndpointRow = z.object({
  id: z.string(),
  tenant_id: z.string(),
  secret_sealed: z.instanceof(Buffer),
  previous_secret_sealed: z.instanceof(Buffer).nullable(),
});
type EndpointRow = z.infer<typeof EndpointRow>;

/**
 * Pepper rotation's part in webhooks (`tas keys rotate-pepper`): every
 * endpoint's secrets sealed under an earlier pepper are opened with the ring
 * and sealed again under the current one, in place, with a compare-and-set,
 * so it can run beside serving processes and be run again. Runs in the
 * caller's system transaction.
 */
export async function resealWebhookSecrets(tx: Tx, ring: Keyring): Promise<ResealCount> {
  const count: ResealCount = { resealed: 0, current: 0, unopenable: [] };
  const rows = await tx.any(
    sql.type(EndpointRow)`SELECT id, tenant_id, secret_sealed, previous_secret_sealed FROM webhook_endpoints ORDER BY id`,
  );
  for (const row of rows) await resealEndpoint(tx, ring, row, count);
  return count;
}

async function resealEndpoint(tx: Tx, ring: Keyring, row: EndpointRow, count: ResealCount): Promise<void> {
  const ctx = { tenantId: row.tenant_id, endpointId: row.id };
  const blobs = [row.secret_sealed, row.previous_secret_sealed].filter((b): b is Buffer => b !== null);
  if (blobs.every((b) => isSealedUnderCurrent(ring, b))) {
    count.current += 1;
    return;
  }
  let sealed: Buffer[];
  try {
    sealed = blobs.map((b) => (isSealedUnderCurrent(ring, b) ? b : sealSecret(ring, openSecret(ring, b, ctx), ctx)));
  } catch {
    count.unopenable.push(`webhook endpoint ${row.id}`);
    return;
  }
  await tx.query(sql.unsafe`
    UPDATE webhook_endpoints SET secret_sealed = ${sql.binary(sealed[0]!)},
      previous_secret_sealed = ${sealed[1] === undefined ? null : sql.binary(sealed[1])}
    WHERE id = ${row.id} AND secret_sealed = ${sql.binary(row.secret_sealed)}
      AND previous_secret_sealed IS NOT DISTINCT FROM ${row.previous_secret_sealed === null ? null : sql.binary(row.previous_secret_sealed)}`);
  count.resealed += 1;
}
