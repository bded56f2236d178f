import { generateKey, hashKey, newSalt } from '../auth/index.js';
import { pepperId } from '../auth/index.js';
import { insertKey } from '../auth/index.js';
import type { Db, Mode, Tx } from '../platform/db/pool.js';

export interface MintedKey {
  keyId: string;
  token: string;
  createdAt: string;
}

export interface MintRequest {
  tenantId: string;
  mode: Mode;
  name: string;
  scopes: readonly string[];
  expiresAt?: string | null;
}

/** Creates a key and returns its token; the token is never stored and cannot be shown again. */
export async function mintKey(db: Db | Tx, pepper: string, req: MintRequest): Promise<MintedKey> {
  const { token, keyId } = generateKey(req.mode);
  const salt = newSalt();
  const { created_at } = await insertKey(db, {
    id: keyId,
    tenantId: req.tenantId,
    mode: req.mode,
    name: req.name,
    scopes: [...new Set(req.scopes)].sort(),
    salt,
    hash: hashKey(pepper, salt, token),
    pepperKid: pepperId(pepper),
    expiresAt: req.expiresAt ?? null,
  });
  return { keyId, token, createdAt: created_at };
}
