import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { PEPPER_ID_BYTES, pepperIdBytes, pepperWithId, peppersOf, purposeKey, ringOf, type Keyring } from '../auth/index.js';

/**
 * Webhook signing secrets. A secret is `whsec_` followed by the base64 of 32
 * random bytes, the form Standard Webhooks libraries accept as is. We must be
 * able to sign with it later, so it is kept sealed rather than hashed:
 * AES-256-GCM under the pepper's webhook-sealing key (src/auth/keyring.ts).
 * The tenant and endpoint ids are the associated data, so a sealed secret
 * moved onto another row fails to open instead of signing for the wrong one.
 *
 *   sealed v2 = 2 | pepper id (6) | IV (12) | tag (16) | ciphertext
 *   sealed v1 = 1 | IV (12) | tag (16) | ciphertext, under HKDF(pepper, HKDF_SALT, HKDF_INFO):
 *               before keys were derived per purpose; still opened, re-sealed by `tas keys rotate-pepper`.
 */
export const SECRET_PREFIX = 'whsec_';
// 256 bits: the HMAC-SHA256 key size, so the key is as strong as the MAC.
const SECRET_BYTES = 32;
const VERSION = 2;
const LEGACY_VERSION = 1;
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

/** The v1 (legacy) sealing key: HKDF straight from the pepper. */
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

/** Seals under the current pepper (a keyring's `current`). */
export function sealSecret(pepper: string | Keyring, secret: string, ctx: SecretContext): Buffer {
  const current = ringOf(pepper).current;
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', purposeKey(current, 'webhook-sealing'), iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(associatedData(ctx));
  const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return Buffer.concat([Buffer.from([VERSION]), pepperIdBytes(current), iv, cipher.getAuthTag(), ciphertext]);
}

/** Whether a blob is sealed in today's layout under the ring's current pepper (nothing to re-seal). */
export function isSealedUnderCurrent(pepper: string | Keyring, sealed: Buffer): boolean {
  return sealed[0] === VERSION && sealed.subarray(1, 1 + PEPPER_ID_BYTES).equals(pepperIdBytes(ringOf(pepper).current));
}

/** Throws when the blob was not sealed by a pepper of the ring for this very endpoint. */
export function openSecret(pepper: string | Keyring, sealed: Buffer, ctx: SecretContext): string {
  const ring = ringOf(pepper);
  if (sealed[0] === VERSION && sealed.length > 1 + PEPPER_ID_BYTES + IV_BYTES + TAG_BYTES) {
    const under = pepperWithId(ring, sealed.subarray(1, 1 + PEPPER_ID_BYTES));
    if (under === null) throw new Error('sealed webhook secret was sealed under a pepper this service does not hold');
    return openWith(purposeKey(under, 'webhook-sealing'), sealed.subarray(1 + PEPPER_ID_BYTES), ctx);
  }
  if (sealed[0] === LEGACY_VERSION && sealed.length > 1 + IV_BYTES + TAG_BYTES) {
    let failure: unknown;
    for (const p of peppersOf(ring)) {
      try {
        return openWith(sealingKey(p), sealed.subarray(1), ctx);
      } catch (error) {
        failure = error;
      }
    }
    throw failure;
  }
  throw new Error('sealed webhook secret has an unknown layout');
}

function openWith(key: Buffer, body: Buffer, ctx: SecretContext): string {
  const iv = body.subarray(0, IV_BYTES);
  const tag = body.subarray(IV_BYTES, IV_BYTES + TAG_BYTES);
  const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  decipher.setAAD(associatedData(ctx));
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(body.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
}
