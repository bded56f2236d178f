import { sql } from 'slonik';
import { z } from 'zod';
import type { Keyring } from '../../auth/index.js';
import type { Tx } from '../../platform/db/pool.js';
import { isSigningKeySealedUnderCurrent, sealSigningKey, unsealSigningKey } from './keys.js';

/** How the export signing keys stood against the ring's current pepper, once re-sealed. */
export interface SigningKeysResealed {
  resealed: number;
  current: number;
  /** Keys no pepper of the ring opens, named by kid for the operator. */
  unopenable: string[];
}

const SigningKeyRow = z.object({ kid: z.string(), private_sealed: z.instanceof(Buffer) });

/**
 * Pepper rotation's part in cases (`tas keys rotate-pepper`): every export
 * signing key sealed under an earlier pepper is opened with the ring and
 * sealed again under the current one, in place, with a compare-and-set.
 * Runs in the caller's system transaction.
 */
export async function resealSigningKeys(tx: Tx, ring: Keyring): Promise<SigningKeysResealed> {
  const count: SigningKeysResealed = { resealed: 0, current: 0, unopenable: [] };
  for (const row of await tx.any(sql.type(SigningKeyRow)`SELECT kid, private_sealed FROM export_signing_keys ORDER BY kid`)) {
    if (isSigningKeySealedUnderCurrent(ring, row.private_sealed)) {
      count.current += 1;
      continue;
    }
    let plain: Buffer;
    try {
      plain = unsealSigningKey(ring, row.kid, row.private_sealed);
    } catch {
      count.unopenable.push(`export signing key ${row.kid}`);
      continue;
    }
    await tx.query(sql.unsafe`UPDATE export_signing_keys SET private_sealed = ${sql.binary(sealSigningKey(ring, row.kid, plain))}
      WHERE kid = ${row.kid} AND private_sealed = ${sql.binary(row.private_sealed)}`);
    count.resealed += 1;
  }
  return count;
}
