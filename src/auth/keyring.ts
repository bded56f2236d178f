import { createHmac, hkdfSync } from 'node:crypto';
import type { Keyring } from '../platform/config.js';

export type { Keyring };

/**
 * The keys the service derives from its pepper, one per purpose (issue 40).
 *
 * Glossary:
 *   pepper      the operator's secret (TAS_KEY_PEPPER); never used as a key itself.
 *   pepper id   `pk_` and 12 hex characters derived from a pepper: public, names
 *               which pepper made a stored hash or a sealed blob, and lets a
 *               blob sealed under an earlier pepper be opened while it rotates.
 *   purpose     what a derived key is for: API key hashes, webhook secret
 *               sealing, export signing key sealing. A key of one purpose says
 *               nothing of another's.
 *   keyring     the current pepper and, while it rotates, the previous one
 *               (TAS_KEY_PEPPER_PREVIOUS). New hashes and seals always use the
 *               current one; the previous one only opens and verifies.
 *
 * Derivation: HKDF-SHA256(pepper, salt = "tas-key-derivation", info =
 * "tas/<purpose>/v2"), 32 bytes. Fixed forever: changing a label makes every
 * stored hash and sealed blob of that purpose unreadable.
 */
export type KeyPurpose = 'api-keys' | 'webhook-sealing' | 'export-sealing';

const HKDF_SALT = 'tas-key-derivation';
// 6 bytes: enough that two peppers an operator ever holds do not collide, short in a blob header.
export const PEPPER_ID_BYTES = 6;

const derived = new Map<string, Buffer>();

/** The key of one purpose under one pepper (cached: HKDF once per pepper and purpose). */
export function purposeKey(pepper: string, purpose: KeyPurpose): Buffer {
  const cacheKey = `${purpose}\u0000${pepper}`;
  let key = derived.get(cacheKey);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', pepper, HKDF_SALT, `tas/${purpose}/v2`, 32));
    derived.set(cacheKey, key);
  }
  return key;
}

/** The pepper's public id bytes: an HMAC of a fixed label, which reveals nothing of the pepper. */
export function pepperIdBytes(pepper: string): Buffer {
  return createHmac('sha256', pepper).update('tas/pepper-id').digest().subarray(0, PEPPER_ID_BYTES);
}

export function pepperId(pepper: string): string {
  return `pk_${pepperIdBytes(pepper).toString('hex')}`;
}

/** A keyring from a bare pepper (one pepper, nothing rotating) or a keyring itself. */
export function ringOf(pepper: string | Keyring): Keyring {
  return typeof pepper === 'string' ? { current: pepper, previous: null } : pepper;
}

/** The keyring's peppers, current first. */
export function peppersOf(ring: Keyring): string[] {
  return ring.previous === null || ring.previous === ring.current ? [ring.current] : [ring.current, ring.previous];
}

/** The ring's pepper with the given id bytes, or null when it holds no such pepper. */
export function pepperWithId(ring: Keyring, id: Buffer): string | null {
  return peppersOf(ring).find((p) => pepperIdBytes(p).equals(id)) ?? null;
}
