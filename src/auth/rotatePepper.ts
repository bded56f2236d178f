import { sql } from 'slonik';
import { z } from 'zod';
import { isSigningKeySealedUnderCurrent, sealSigningKey, unsealSigningKey } from '../cases/index.js';
import { withSystem, type Db, type Tx } from '../platform/db/pool.js';
import { isSealedUnderCurrent, openSecret, sealSecret } from '../webhooks/index.js';
import { pepperId, type Keyring } from './keyring.js';

/**
 * `tas keys rotate-pepper`: everything sealed under an earlier pepper (or the
 * derivation before keys were derived per purpose) is opened with the ring and
 * sealed again under the current pepper, in place, one row at a time with a
 * compare-and-set, so it can run beside serving processes and be run again.
 *
 * API key hashes cannot be re-made without the keys (only their hashes are
 * stored): they move to the current pepper on their next use (000065), and
 * the report counts those still waiting, so the operator knows when the
 * previous pepper can be dropped.
 */
export interface PepperRotationReport {
  pepperId: string;
  webhookSecrets: { resealed: number; current: number };
  exportKeys: { resealed: number; current: number };
  /** API keys still hashed under an earlier pepper (revoked and expired ones not counted). */
  apiKeysWaiting: number;
  /** Rows no pepper of the ring opens: sealed under a pepper the operator no longer holds. */
  unopenable: string[];
}

const EndpointRow = z.object({
  id: z.string(),
  tenant_id: z.string(),
  secret_sealed: z.instanceof(Buffer),
  previous_secret_sealed: z.instanceof(Buffer).nullable(),
});
const SigningKeyRow = z.object({ kid: z.string(), private_sealed: z.instanceof(Buffer) });

export async function rotatePepper(db: Db, ring: Keyring): Promise<PepperRotationReport> {
  const report: PepperRotationReport = {
    pepperId: pepperId(ring.current),
    webhookSecrets: { resealed: 0, current: 0 },
    exportKeys: { resealed: 0, current: 0 },
    apiKeysWaiting: 0,
    unopenable: [],
  };
  await withSystem(db, async (tx) => {
    for (const row of await tx.any(
      sql.type(EndpointRow)`SELECT id, tenant_id, secret_sealed, previous_secret_sealed FROM webhook_endpoints ORDER BY id`,
    )) {
      await resealEndpoint(tx, ring, row, report);
    }
    for (const row of await tx.any(sql.type(SigningKeyRow)`SELECT kid, private_sealed FROM export_signing_keys ORDER BY kid`)) {
      if (isSigningKeySealedUnderCurrent(ring, row.private_sealed)) {
        report.exportKeys.current += 1;
        continue;
      }
      let plain: Buffer;
      try {
        plain = unsealSigningKey(ring, row.kid, row.private_sealed);
      } catch {
        report.unopenable.push(`export signing key ${row.kid}`);
        continue;
      }
      await tx.query(sql.unsafe`UPDATE export_signing_keys SET private_sealed = ${sql.binary(sealSigningKey(ring, row.kid, plain))}
        WHERE kid = ${row.kid} AND private_sealed = ${sql.binary(row.private_sealed)}`);
      report.exportKeys.resealed += 1;
    }
    report.apiKeysWaiting = await tx.oneFirst(sql.type(z.object({ n: z.number() }))`
      SELECT count(*)::int AS n FROM api_keys
      WHERE pepper_kid IS DISTINCT FROM ${report.pepperId} AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())`);
  });
  return report;
}

async function resealEndpoint(tx: Tx, ring: Keyring, row: z.infer<typeof EndpointRow>, report: PepperRotationReport): Promise<void> {
  const ctx = { tenantId: row.tenant_id, endpointId: row.id };
  const blobs = [row.secret_sealed, row.previous_secret_sealed].filter((b): b is Buffer => b !== null);
  if (blobs.every((b) => isSealedUnderCurrent(ring, b))) {
    report.webhookSecrets.current += 1;
    return;
  }
  let sealed: Buffer[];
  try {
    sealed = blobs.map((b) => (isSealedUnderCurrent(ring, b) ? b : sealSecret(ring, openSecret(ring, b, ctx), ctx)));
  } catch {
    report.unopenable.push(`webhook endpoint ${row.id}`);
    return;
  }
  await tx.query(sql.unsafe`
    UPDATE webhook_endpoints SET secret_sealed = ${sql.binary(sealed[0]!)},
      previous_secret_sealed = ${sealed[1] === undefined ? null : sql.binary(sealed[1])}
    WHERE id = ${row.id} AND secret_sealed = ${sql.binary(row.secret_sealed)}
      AND previous_secret_sealed IS NOT DISTINCT FROM ${row.previous_secret_sealed === null ? null : sql.binary(row.previous_secret_sealed)}`);
  report.webhookSecrets.resealed += 1;
}
