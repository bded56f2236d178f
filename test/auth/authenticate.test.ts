import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateKey, hashKey, newSalt } from '../../src/auth/apiKey.js';
import { createAuthenticator } from '../../src/auth/authenticate.js';
import { createDb, type Db } from '../../src/platform/db/pool.js';
import { insertKey } from '../../src/auth/store.js';
import { countingDb } from '../support/countingDb.js';
import { cloneDatabase, ownerClient } from '../support/database.js';

/**
 * The in-process key cache on the hot path: concurrent calls with a key not
 * in memory share one look-up, and a look-up under way when the key is
 * forgotten (revoked) is answered but not kept.
 */
const PEPPER = 'test-pepper-for-the-authenticator';
let database: { url: string; drop: () => Promise<void> };
let owner: pg.Client;
let db: Db;
let tenantId: string;

beforeAll(async () => {
  database = await cloneDatabase();
  owner = await ownerClient(database.url);
  db = await createDb(database.url);
  tenantId = randomUUID();
  await owner.query(`INSERT INTO tenants (id, name) VALUES ($1, 'auth')`, [tenantId]);
});

afterAll(async () => {
  await db?.end();
  await owner?.end();
  await database?.drop();
});

async function mintKey(): Promise<{ token: string; keyId: string }> {
  const { token, keyId } = generateKey('test');
  const salt = newSalt();
  await insertKey(db, {
    id: keyId,
    tenantId,
    mode: 'test',
    name: 'k',
    scopes: ['inquiries'],
    salt,
    hash: hashKey(PEPPER, salt, token),
    expiresAt: null,
  });
  return { token, keyId };
}

describe('the authenticator', () => {
  it('looks a key up once for many concurrent calls', async () => {
    const { token } = await mintKey();
    const counting = countingDb(db, 'maybeOne');
    const auth = createAuthenticator({ db: counting.db, pepper: PEPPER });
    const outcomes = await Promise.all(Array.from({ length: 20 }, () => auth.authenticate(`Bearer ${token}`)));
    expect(outcomes.every((o) => o.ok)).toBe(true);
    expect(counting.calls()).toBe(1);
  });

  it('does not keep a look-up that was under way when the key was forgotten', async () => {
    const { token, keyId } = await mintKey();
    const counting = countingDb(db, 'maybeOne');
    const auth = createAuthenticator({ db: counting.db, pepper: PEPPER });
    const release = counting.hold();
    const during = auth.authenticate(`Bearer ${token}`);
    await expect.poll(() => counting.answered()).toBe(1);
    // The key is revoked and forgotten while that look-up's answer (still valid) is on its way.
    await owner.query(`UPDATE api_keys SET revoked_at = now() WHERE id = $1`, [keyId]);
    auth.forget(keyId);
    release();
    expect((await during).ok).toBe(true);
    expect(await auth.authenticate(`Bearer ${token}`)).toEqual({ ok: false, reason: 'revoked' });
    expect(counting.calls()).toBe(2);
  });
});
