import { sql } from 'slonik';
import { z } from 'zod';
import type { Db, Mode, Tx } from '../platform/db/pool.js';

/** One function per query on api_keys; the connection comes first. */
const KeyRow = z.object({
  id: z.string(),
  tenant_id: z.string(),
  mode: z.enum(['live', 'test']),
  name: z.string(),
  scopes: z.array(z.string()),
  expires_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
});
export type KeyRow = z.infer<typeof KeyRow>;

/** A key's salt by its id (000035: random bytes, nothing of its tenant), or null for no such key. */
export async function keySalt(db: Db | Tx, keyId: string): Promise<Buffer | null> {
  return db.maybeOneFirst(
    sql.type(z.object({ salt: z.instanceof(Buffer) }))`SELECT s AS salt FROM tas_key_salt(${keyId}::uuid) AS s WHERE s IS NOT NULL`,
  );
}

const VerifiedKeyRow = KeyRow.extend({ hash: z.instanceof(Buffer), pepper_kid: z.string().nullable() });
export type VerifiedKeyRow = z.infer<typeof VerifiedKeyRow>;

/**
 * The key's row, only when one of `hashes` is its stored keyed hash (the caller
 * holds the key and a pepper; 000065), with the hash that matched.
 */
export async function verifyKey(db: Db | Tx, keyId: string, hashes: readonly Buffer[]): Promise<VerifiedKeyRow | null> {
  return db.maybeOne(sql.type(VerifiedKeyRow)`
    SELECT id, tenant_id, mode, name, scopes, expires_at, revoked_at, hash, pepper_kid
    FROM tas_key_verify_any(${keyId}::uuid, ARRAY[${sql.join(
      hashes.map((h) => sql.binary(h)),
      sql.fragment`, `,
    )}]::bytea[])`);
}

/** Replaces a key's hash made under an earlier pepper with the current one (rehash on use; 000065). */
export async function rehashKey(db: Db | Tx, keyId: string, from: Buffer, to: Buffer, pepperKid: string): Promise<boolean> {
  return db.oneFirst(sql.type(z.object({ moved: z.boolean() }))`
    SELECT tas_key_rehash(${keyId}::uuid, ${sql.binary(from)}, ${sql.binary(to)}, ${pepperKid}) AS moved`);
}

export interface NewKey {
  id: string;
  tenantId: string;
  mode: Mode;
  name: string;
  scopes: readonly string[];
  salt: Buffer;
  hash: Buffer;
  /** The id of the pepper `hash` was made under (src/auth/keyring.ts). */
  pepperKid?: string | null;
  expiresAt: string | null;
}

export async function insertKey(db: Db | Tx, key: NewKey): Promise<{ created_at: string }> {
  return db.one(sql.type(z.object({ created_at: z.string() }))`
    INSERT INTO api_keys (id, tenant_id, mode, name, scopes, salt, hash, pepper_kid, expires_at)
    VALUES (${key.id}, ${key.tenantId}, ${key.mode}, ${key.name}, ${sql.array([...key.scopes], 'text')},
            ${sql.binary(key.salt)}, ${sql.binary(key.hash)}, ${key.pepperKid ?? null}, ${key.expiresAt})
    RETURNING created_at`);
}

export async function revokeKey(tx: Tx, keyId: string): Promise<boolean> {
  const row = await tx.maybeOne(sql.type(z.object({ id: z.string() }))`
    UPDATE api_keys SET revoked_at = now() WHERE id = ${keyId} AND revoked_at IS NULL RETURNING id`);
  return row !== null;
}

const KeyListRow = z.object({
  id: z.string(),
  mode: z.enum(['live', 'test']),
  name: z.string(),
  scopes: z.array(z.string()),
  created_at: z.string(),
  expires_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
  last_used_at: z.string().nullable(),
});
export type KeyListRow = z.infer<typeof KeyListRow>;

/** The tenant's keys of the current mode (RLS), newest first; never the salt or the hash. */
export async function listKeys(tx: Tx): Promise<readonly KeyListRow[]> {
  return tx.any(sql.type(KeyListRow)`
    SELECT id, mode, name, scopes, created_at, expires_at, revoked_at, last_used_at FROM api_keys ORDER BY created_at DESC, id`);
}

/** One of the tenant's keys of the current mode (RLS) that is still valid, or null. */
export async function findActiveKey(tx: Tx, keyId: string): Promise<KeyListRow | null> {
  return tx.maybeOne(sql.type(KeyListRow)`
    SELECT id, mode, name, scopes, created_at, expires_at, revoked_at, last_used_at FROM api_keys
    WHERE id = ${keyId} AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())`);
}

export type KeyState = { kind: 'active'; expiresAt: string | null } | { kind: 'revoked' } | { kind: 'expired' };

/** Whether one of the tenant's keys (RLS) is still good, and until when: what an open stream re-checks. */
export async function keyStateOf(tx: Tx, keyId: string): Promise<KeyState> {
  const row = await tx.maybeOne(sql.type(z.object({ revoked: z.boolean(), expired: z.boolean(), expires_at: z.string().nullable() }))`
    SELECT revoked_at IS NOT NULL AS revoked, coalesce(expires_at <= now(), false) AS expired, expires_at
    FROM api_keys WHERE id = ${keyId}`);
  if (row === null || row.revoked) return { kind: 'revoked' };
  if (row.expired) return { kind: 'expired' };
  return { kind: 'active', expiresAt: row.expires_at };
}

/** Ends a key at `at` (its grace period), keeping an earlier expiry it already had. */
export async function expireKeyAt(tx: Tx, keyId: string, at: string): Promise<string> {
  return tx.oneFirst(sql.type(z.object({ expires_at: z.string() }))`
    UPDATE api_keys SET expires_at = LEAST(COALESCE(expires_at, ${at}::timestamptz), ${at}::timestamptz)
    WHERE id = ${keyId} RETURNING expires_at`);
}

/** Marks a key used now (at most once a minute; 000015), named with its tenant (000035). */
export async function markKeyUsed(db: Db | Tx, keyId: string, tenantId: string): Promise<void> {
  await db.query(sql.unsafe`SELECT tas_key_used(${keyId}, ${tenantId})`);
}
