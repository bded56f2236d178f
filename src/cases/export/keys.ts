import { createCipheriv, createDecipheriv, createHash, createPrivateKey, generateKeyPairSync, hkdfSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { activeSigningKey, insertSigningKey, publishedSigningKeys, retireActiveSigningKey, revokeSigningKey, type PublishedKeyRow } from '../../db/exports.js';
import { withSystem, type Db } from '../../db/pool.js';
import type { Jwks } from './bundle.js';

/**
 * The service's Ed25519 export signing keys. The private key is kept sealed
 * (AES-256-GCM under a key derived with HKDF-SHA256 from the key pepper, the
 * kid as associated data, so a sealed key moved onto another row fails to
 * open); the public keys are published as a JWKS, retired ones included, so a
 * bundle signed before a rotation still verifies.
 *
 *   sealed = version (1 byte) | IV (12) | tag (16) | ciphertext (PKCS#8 DER)
 */
const VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;
// Fixed forever: changing either makes every stored key unreadable.
const HKDF_SALT = 'tas-export-signing-key';
const HKDF_INFO = 'aes-256-gcm v1';

function sealingKey(pepper: string): Buffer {
  return Buffer.from(hkdfSync('sha256', pepper, HKDF_SALT, HKDF_INFO, 32));
}

function seal(pepper: string, kid: string, plain: Buffer): Buffer {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', sealingKey(pepper), iv);
  cipher.setAAD(Buffer.from(kid));
  const body = Buffer.concat([cipher.update(plain), cipher.final()]);
  return Buffer.concat([Buffer.from([VERSION]), iv, cipher.getAuthTag(), body]);
}

function unseal(pepper: string, kid: string, sealed: Buffer): Buffer {
  if (sealed[0] !== VERSION) throw new Error(`export signing key ${kid} is sealed in an unknown format`);
  const iv = sealed.subarray(1, 1 + IV_BYTES);
  const tag = sealed.subarray(1 + IV_BYTES, 1 + IV_BYTES + TAG_BYTES);
  const decipher = createDecipheriv('aes-256-gcm', sealingKey(pepper), iv);
  decipher.setAAD(Buffer.from(kid));
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(sealed.subarray(1 + IV_BYTES + TAG_BYTES)), decipher.final()]);
}

export interface SigningKey { kid: string; privateKey: KeyObject }

function newKey(pepper: string) {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const jwk = publicKey.export({ format: 'jwk' });
  // The kid is derived from the public key, so it names the key wherever the JWKS is copied.
  const kid = `ek_${createHash('sha256').update(jwk.x ?? '').digest('base64url').slice(0, 22)}`;
  const der = privateKey.export({ format: 'der', type: 'pkcs8' });
  return { kid, privateKey, row: { kid, publicJwk: { ...jwk, kid, use: 'sig', alg: 'EdDSA' }, privateSealed: seal(pepper, kid, der) } };
}

/** The active signing key, made on first use. Two processes racing both try; the unique index keeps one and the loser reads it. */
export async function activeKey(db: Db, pepper: string): Promise<SigningKey> {
  const existing = await withSystem(db, (tx) => activeSigningKey(tx));
  if (existing) return { kid: existing.kid, privateKey: createPrivateKey({ key: unseal(pepper, existing.kid, existing.private_sealed), format: 'der', type: 'pkcs8' }) };
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
export async function rotateKey(db: Db, pepper: string): Promise<{ kid: string }> {
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
export async function revokeKey(db: Db, pepper: string, kid: string): Promise<{ revoked: boolean; replacedBy: string | null }> {
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
