import { sql } from 'slonik';
import { z } from 'zod';
import { withSystem, type Db, type Tx } from '../platform/db/pool.js';
import { pepperId, type Keyring } from './keyring.js';

/**
 * `tas keys rotate-pepper`: everything sealed under an earlier pepper (or the
 * derivation before keys were derived per purpose) is opened with the ring and
 * sealed again under the current pepper, in place, one row at a time with a
 * compare-and-set, so it can run beside serving processes and be run again.
 *
 * Auth writes none of those rows: each capability that seals rows re-seals its
 * own (webhooks its endpoints' secrets, cases its export signing keys), and
 * the caller hands their commands in, so auth imports neither. All of it runs
 * in one system transaction.
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

/** A capability's command that seals its own rows again under the ring's current pepper, in the given transaction. */
export type Resealer = (tx: Tx, ring: Keyring) => Promise<{ resealed: number; current: number; unopenable: string[] }>;

export interface Resealers {
  webhookSecrets: Resealer;
  exportKeys: Resealer;
}

export async function rotatePepper(db: Db, ring: Keyring, reseal: Resealers): Promise<PepperRotationReport> {
  return withSystem(db, async (tx) => {
    const webhooks = await reseal.webhookSecrets(tx, ring);
    const exportKeys = await reseal.exportKeys(tx, ring);
    const current = pepperId(ring.current);
    return {
      pepperId: current,
      webhookSecrets: { resealed: webhooks.resealed, current: webhooks.current },
      exportKeys: { resealed: exportKeys.resealed, current: exportKeys.current },
      apiKeysWaiting: await apiKeysWaiting(tx, current),
      unopenable: [...webhooks.unopenable, ...exportKeys.unopenable],
    };
  });
}

async function apiKeysWaiting(tx: Tx, current: string): Promise<number> {
  return tx.oneFirst(sql.type(z.object({ n: z.number() }))`
    SELECT count(*)::int AS n FROM api_keys
    WHERE pepper_kid IS DISTINCT FROM ${current} AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())`);
}
