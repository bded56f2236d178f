import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Webhook signing secrets. A secret is `whsec_` followed by the base64 of 32
 * random bytes, the form Standard Webhooks libraries accept as is. We must be
 * able to sign with it later, so it is kept sealed rather than hashed:
 * AES-256-GCM under a key derived (HKDF-SHA256) from the service's key pepper.
 * The tenant and endpoint ids are the associated data, so a sealed secret
 * moved onto another row fails to open instead of signing for the wrong one.
 *
 *   sealed = version (1 byte) | IV (12) | tag (16) | ciphertext
 */
export const SECRET_PREFIX = 'whsec_';
// 256 bits: the HMAC-SHA256 key size, so the key is as strong as the MAC.
const SECRET_BYTES = 32;
const VERSION = 1;
// GCM's standard nonce size; random per seal, and a tenant seals a handful of secrets, far from the birthday bound.
const IV_BYTES = 12;
const TAG_BYTES = 16;
// Fixed forever: changing either makes every stored secret unreadable.
const HKDF_SALT = 'tas-webhook-secret';
const HKDF_INFO = 'aes-256-gcm v1';

export interface SecretContext {
  tenantId: string;
  endpointId: string;
}

export function generateWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(SECRET_BYTES).toString('base64');
}

/** The HMAC key bytes of a `whsec_...` secret. */
export function secretKeyBytes(secret: string): Buffer {
  if (!secret.startsWith(SECRET_PREFIX)) throw new Error('webhook secret must start with whsec_');
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
  if (key.length < 24) throw new Error('webhook secret is too short');
  return key;
}

const keyCache = new Map<string, Buffer>();

function sealingKey(pepper: string): Buffer {
  let key = keyCache.get(pepper);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', pepper, HKDF_SALT, HKDF_INFO, 32));
    keyCache.set(pepper, key);
  }
  return key;
}

function associatedData(ctx: SecretContext): Buffer {
  return Buffer.from(`webhook_endpoints:${ctx.tenantId}:${ctx.endpointId}`, 'utf8');
}

export function sealSecret(pepper: string, secret: string, ctx: SecretContext): Buffer {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', sealingKey(pepper), iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(associatedData(ctx));
  const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return Buffer.concat([Buffer.from([VERSION]), iv, cipher.getAuthTag(), ciphertext]);
}

/** Throws when the blob was not sealed by this pepper for this very endpoint. */
export function openSecret(pepper: string, sealed: Buffer, ctx: SecretContext): string {
  if (sealed.length <= 1 + IV_BYTES + TAG_BYTES || sealed[0] !== VERSION) throw new Error('sealed webhook secret has an unknown layout');
  const iv = sealed.subarray(1, 1 + IV_BYTES);
  const tag = sealed.subarray(1 + IV_BYTES, 1 + IV_BYTES + TAG_BYTES);
  const decipher = createDecipheriv('aes-256-gcm', sealingKey(pepper), iv, { authTagLength: TAG_BYTES });
  decipher.setAAD(associatedData(ctx));
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(sealed.subarray(1 + IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
}
