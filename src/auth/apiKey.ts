import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { crc32 } from 'node:zlib';
import type { Mode } from '../platform/db/pool.js';
import { peppersOf, pepperId, purposeKey, type Keyring } from './keyring.js';

/**
 * API key tokens (rule I11).
 *
 *   tas_live_<key id: 22 base62><secret: 33 base62><checksum: 6 base62>
 *
 * The key id is the row's uuid, public like a username. The secret is 192
 * random bits. The checksum (CRC-32 of everything before it) lets the edge
 * reject a mistyped or truncated key without touching the database. Only
 * HMAC-SHA256(K, salt || token) is stored, with a random salt per key, where K
 * is the pepper's API-key key (src/auth/keyring.ts) and the row names the
 * pepper (pepper_kid). Hashes made before derivation per purpose used the
 * pepper itself as K (pepper_kid NULL); they still verify and are hashed again
 * on their next use.
 */
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const ID_CHARS = 22; // 62^22 > 2^128
const SECRET_BYTES = 24;
const SECRET_CHARS = 33; // 62^33 > 2^192
const CHECKSUM_CHARS = 6; // 62^6 > 2^32
const TOKEN_PATTERN = /^tas_(live|test)_([0-9A-Za-z]{61})$/;

export interface ParsedKey {
  mode: Mode;
  keyId: string;
  token: string;
}

export function generateKey(mode: Mode, keyId: string = randomUUID()): { token: string; keyId: string } {
  const idPart = encodeBase62(Buffer.from(keyId.replaceAll('-', ''), 'hex'), ID_CHARS);
  const secretPart = encodeBase62(randomBytes(SECRET_BYTES), SECRET_CHARS);
  const body = `tas_${mode}_${idPart}${secretPart}`;
  return { token: body + checksumOf(body), keyId };
}

/**
 * The public start of a key's token (what KeyOut calls `prefix`), rebuilt from
 * its id: the token begins with the mode and the encoded id, so the prefix
 * needs no secret and nothing stored beyond the id.
 */
export function keyPrefixOf(mode: Mode, keyId: string): string {
  return `tas_${mode}_${encodeBase62(Buffer.from(keyId.replaceAll('-', ''), 'hex'), ID_CHARS)}`.slice(0, KEY_PREFIX_CHARS);
}

/** How much of a token is public: `tas_live_` and four characters of the id. */
export const KEY_PREFIX_CHARS = 13;

/** Parses a presented token; null when its shape or checksum is wrong. */
export function parseKey(token: string): ParsedKey | null {
  const match = TOKEN_PATTERN.exec(token);
  if (!match) return null;
  const payload = match[2]!;
  const body = token.slice(0, token.length - CHECKSUM_CHARS);
  if (checksumOf(body) !== token.slice(-CHECKSUM_CHARS)) return null;
  const idBytes = decodeBase62(payload.slice(0, ID_CHARS), 16);
  if (!idBytes) return null;
  return { mode: match[1] as Mode, keyId: formatUuid(idBytes), token };
}

export function newSalt(): Buffer {
  return randomBytes(16);
}

export function hashKey(pepper: string, salt: Buffer, token: string): Buffer {
  return createHmac('sha256', purposeKey(pepper, 'api-keys')).update(salt).update(token).digest();
}

/** The hash before keys were derived per purpose: the pepper itself as the HMAC key. */
export function legacyHashKey(pepper: string, salt: Buffer, token: string): Buffer {
  return createHmac('sha256', pepper).update(salt).update(token).digest();
}

export interface KeyHashCandidate {
  hash: Buffer;
  /** The pepper id a hash of this kind is stored with; null for the legacy derivation. */
  pepperKid: string | null;
}

/**
 * Every hash a stored key may have under the ring, the current pepper's first
 * (the one to keep): its derived hash, its legacy hash, then the previous
 * pepper's. At most four, what tas_key_verify_any accepts (000065).
 */
export function keyHashCandidates(ring: Keyring, salt: Buffer, token: string): KeyHashCandidate[] {
  return peppersOf(ring).flatMap((p) => [
    { hash: hashKey(p, salt, token), pepperKid: pepperId(p) },
    { hash: legacyHashKey(p, salt, token), pepperKid: null },
  ]);
}

export function verifyKeyHash(pepper: string, salt: Buffer, token: string, stored: Buffer): boolean {
  const candidate = hashKey(pepper, salt, token);
  return candidate.length === stored.length && timingSafeEqual(candidate, stored);
}

function checksumOf(body: string): string {
  const buf = Buffer.alloc(4);
  buf.writeUInt32BE(crc32(body));
  return encodeBase62(buf, CHECKSUM_CHARS);
}

function encodeBase62(bytes: Buffer, width: number): string {
  let n = BigInt(`0x${bytes.toString('hex') || '0'}`);
  let out = '';
  while (n > 0n) {
    out = ALPHABET[Number(n % 62n)] + out;
    n /= 62n;
  }
  return out.padStart(width, '0');
}

function decodeBase62(text: string, byteLength: number): Buffer | null {
  let n = 0n;
  for (const ch of text) n = n * 62n + BigInt(ALPHABET.indexOf(ch));
  const hex = n.toString(16).padStart(byteLength * 2, '0');
  return hex.length === byteLength * 2 ? Buffer.from(hex, 'hex') : null;
}

function formatUuid(bytes: Buffer): string {
  const h = bytes.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
