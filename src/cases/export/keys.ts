import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createPrivateKey,
  generateKeyPairSync,
  hkdfSync,
  randomBytes,
  sign,
  type KeyObject,
} from 'node:crypto';
import {
  activeSigningKey,
  insertSigningKey,
  publishedSigningKeys,
  retireActiveSigningKey,
  revokeSigningKey,
  type PublishedKeyRow,
} from './store.js';
import { withSystem, type Db } from '../../platform/db/pool.js';
import type { Jwks } from './bundle.js';
import { PEPPER_ID_BYTES, pepperIdBytes, pepperWithId, peppersOf, purposeKey, ringOf, type Keyring } from '../../auth/index.js';

/**
 * The service's Ed25519 export signing keys. The private key is kept sealed
 * (AES-256-GCM under the pepper's export-sealing key, src/auth/keyring.ts, the
 * kid as associated data, so a sealed key moved onto another row fails to
 * open); the public keys are published as a JWKS, retired ones included, so a
 * bundle signed before a rotation still verifies.
 *
 *   sealed v2 = 2 | pepper id (6) | IV (12) | tag (16) | ciphertext (PKCS#8 DER)
 *   sealed v1 = 1 | IV (12) | tag (16) | ciphertext, under HKDF(pepper, HKDF_SALT, HKDF_INFO):
 *               before keys were derived per purpose; still opened, re-sealed by `tas keys rotate-pepper`.
 */
const VERSION = 2;
const LEGACY_VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;
// Fixed forever: changing either makes every stored key unreadable.
const HKDF_SALT = 'tas-export-signing-key';
const HKDF_INFO = 'aes-256-gcm v1';

/** The v1 (legacy) sealing key: HKDF straight from the pepper. */
function sealingKey(pepper: string): Buffer {
  return Buffer.from(hkdfSync('sha256', pepper, HKDF_SALT, HKDF_INFO, 32));
}

/** Seals under the ring's current pepper. */
export function sealSigningKey(pepper: string | Keyring, kid: string, plain: Buffer): Buffer {
  const current = ringOf(pepper).current;
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', purposeKey(current, 'export-sealing'), iv);
  cipher.setAAD(Buffer.from(kid));
  const body = Buffer.concat([cipher.update(plain), cipher.final()]);
  return Buffer.concat([Buffer.from([VERSION]), pepperIdBytes(current), iv, cipher.getAuthTag(), body]);
}

/** Whether a sealed key is in today's layout under the ring's current pepper (nothing to re-seal). */
export function isSigningKeySealedUnderCurrent(pepper: string | Keyring, sealed: Buffer): boolean {
  return sealed[0] === VERSION && sealed.subarray(1, 1 + PEPPER_ID_BYTES).equals(pepperIdBytes(ringOf(pepper).current));
}

/** The PKCS#8 DER of a sealed key, opened with whichever pepper of the ring sealed it. */
export function unsealSigningKey(pepper: string | Keyring, kid: string, sealed: Buffer): Buffer {
  const ring = ringOf(pepper);
  if (sealed[0] === VERSION) {
    const under = pepperWithId(ring, sealed.subarray(1, 1 + PEPPER_ID_BYTES));
    if (under === null) throw new Error(`export signing key ${kid} was sealed under a pepper this service does not hold`);
    return openWith(purposeKey(under, 'export-sealing'), kid, sealed.subarray(1 + PEPPER_ID_BYTES));
  }
  if (sealed[0] !== LEGACY_VERSION) throw new Error(`export signing key ${kid} is sealed in an unknown format`);
  let failure: unknown;
  for (const p of peppersOf(ring)) {
    try {
      return openWith(sealingKey(p), kid, sealed.subarray(1));
    } catch (error) {
      failure = error;
    }
  }
  throw failure;
}

function openWith(key: Buffer, kid: string, body: Buffer): Buffer {
  const decipher = createDecipheriv('aes-256-gcm', key, body.subarray(0, IV_BYTES));
  decipher.setAAD(Buffer.from(kid));
  decipher.setAuthTag(body.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  return Buffer.concat([decipher.update(body.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
}

export interface SigningKey {
  kid: string;
  privateKey: KeyObject;
}

function newKey(pepper: string | Keyring) {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const jwk = publicKey.export({ format: 'jwk' });
  // The kid is derived from the public key, so it names the key wherever the JWKS is copied.
  const kid = `ek_${createHash('sha256')
    .update(jwk.x ?? '')
    .digest('base64url')
    .slice(0, 22)}`;
  const der = privateKey.export({ format: 'der', type: 'pkcs8' });
  return {
    kid,
    privateKey,
    row: { kid, publicJwk: { ...jwk, kid, use: 'sig', alg: 'EdDSA' }, privateSealed: sealSigningKey(pepper, kid, der) },
  };
}

/** The active signing key, made on first use. Two processes racing both try; the unique index keeps one and the loser reads it. */
export async function activeKey(db: Db, pepper: string | Keyring): Promise<SigningKey> {
  const existing = await withSystem(db, (tx) => activeSigningKey(tx));
  if (existing)
    return {
      kid: existing.kid,
      privateKey: createPrivateKey({ key: unsealSigningKey(pepper, existing.kid, existing.private_sealed), format: 'der', type: 'pkcs8' }),
    };
  const made = newKey(pepper);
  try {
    await withSystem(db, (tx) => insertSigningKey(tx, made.row));
    return { kid: made.kid, privateKey: made.privateKey };
  } catch (error) {
    const again = await withSystem(db, (tx) => activeSigningKey(tx));
    if (!again) throw error;
    return activeKey(db, pepper);
  }
}

/** Retires the active key and makes a new one in one transaction; the old key stays published. */
export async function rotateKey(db: Db, pepper: string | Keyring): Promise<{ kid: string }> {
  const made = newKey(pepper);
  await withSystem(db, async (tx) => {
    await retireActiveSigningKey(tx);
    await insertSigningKey(tx, made.row);
  });
  return { kid: made.kid };
}

export function signManifest(key: SigningKey, manifest: Buffer): Buffer {
  return sign(null, manifest, key.privateKey);
}

/**
 * Revokes a key (a leak): it verifies no bundle any more, whatever its date.
 * The active key is replaced in the same transaction, so exports go on.
 */
export async function revokeKey(db: Db, pepper: string | Keyring, kid: string): Promise<{ revoked: boolean; replacedBy: string | null }> {
  const made = newKey(pepper);
  return withSystem(db, async (tx) => {
    const active = await activeSigningKey(tx);
    if (!(await revokeSigningKey(tx, kid))) return { revoked: false, replacedBy: null };
    if (active?.kid !== kid) return { revoked: true, replacedBy: null };
    await insertSigningKey(tx, made.row);
    return { revoked: true, replacedBy: made.kid };
  });
}

const seconds = (iso: string) => Math.floor(Date.parse(iso) / 1000);

/**
 * A published key with its validity (issue 40): `nbf` from its creation,
 * `exp` from its retirement (absent while it signs), and `revoked_at` when it
 * was revoked. JWK (RFC 7517) lets a set carry such members; `tas export
 * verify` honours them.
 */
export function jwkOf(row: PublishedKeyRow): Jwks['keys'][number] {
  return {
    ...row.public_jwk,
    nbf: seconds(row.created_at),
    ...(row.retired_at !== null ? { exp: seconds(row.retired_at) } : {}),
    ...(row.revoked_at !== null ? { revoked_at: row.revoked_at } : {}),
  };
}

export async function publishedKeys(db: Db): Promise<Jwks> {
  return { keys: (await withSystem(db, (tx) => publishedSigningKeys(tx))).map(jwkOf) };
}
