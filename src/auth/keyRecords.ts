import type { Db, Tx } from '../platform/db/pool.js';
import * as store from './store.js';
import type { KeyListRow, KeyState, NewKey } from './store.js';

/**
 * Auth's commands on API keys, for tenancy's key administration (mint, list,
 * revoke, rotate) and for what re-checks a key later (a monitor's runs, an
 * open stream). api_keys is auth's table (docs/architecture.md): tenancy
 * decides which key to make or end, auth writes it. Each runs in the
 * caller's transaction, so a rotation's new key and the old one's grace
 * commit together.
 */
export type { KeyListRow, KeyState, NewKey };

/** Stores a freshly minted key (its salt and hash only). */
export async function insertKey(db: Db | Tx, key: NewKey): Promise<{ created_at: string }> {
  return store.insertKey(db, key);
}

/** Revokes one of the tenant's keys now; false when it was already revoked or is not the tenant's. */
export async function revokeKey(tx: Tx, keyId: string): Promise<boolean> {
  return store.revokeKey(tx, keyId);
}

/** Ends a key at `at` (a rotation's grace), keeping an earlier expiry it already had. */
export async function expireKeyAt(tx: Tx, keyId: string, at: string): Promise<string> {
  return store.expireKeyAt(tx, keyId, at);
}

/** The tenant's keys of the current mode, newest first; never the salt or the hash. */
export async function listKeys(tx: Tx): Promise<readonly KeyListRow[]> {
  return store.listKeys(tx);
}

/** One of the tenant's keys that is still valid, or null. */
export async function findActiveKey(tx: Tx, keyId: string): Promise<KeyListRow | null> {
  return store.findActiveKey(tx, keyId);
}

/** Whether one of the tenant's keys is still good, and until when. */
export async function keyStateOf(tx: Tx, keyId: string): Promise<KeyState> {
  return store.keyStateOf(tx, keyId);
}
