import { createCipheriv, createHmac, hkdfSync, randomBytes, randomUUID } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateKey, hashKey, legacyHashKey, newSalt } from '../../src/auth/apiKey.js';
import { createAuthenticator } from '../../src/auth/authenticate.js';
import { pepperId, purposeKey } from '../../src/auth/keyring.js';
import { rotatePepper } from '../../src/auth/rotatePepper.js';
import { activeKey } from '../../src/cases/export/keys.js';
import { resealSigningKeys } from '../../src/cases/index.js';
import { resealWebhookSecrets } from '../../src/webhooks/index.js';
import { ConfigError, loadConfig } from '../../src/platform/config.js';
import { insertKey } from '../../src/auth/store.js';
import { createDb, type Db } from '../../src/platform/db/pool.js';
import { mintKey } from '../../src/tenancy/keys.js';
import { generateWebhookSecret, openSecret, sealSecret } from '../../src/webhooks/secret.js';
import { cloneDatabase, ownerClient } from '../support/database.js';

/**
 * Issue 40, "one pepper for everything, with no rotation": keys are derived
 * per purpose from the pepper and name it by id, `tas keys rotate-pepper`
 * re-seals in place, API keys made under the old pepper keep verifying and
 * move to the new one on use, and the service refuses the public development
 * pepper unless it is told it runs for development or tests.
 */
const DEV_PEPPER = 'tas-development-pepper-do-not-use-in-production';
const OLD = randomBytes(24).toString('hex');
const NEW = randomBytes(24).toString('hex');
/** Each capability re-seals its own rows; `tas keys rotate-pepper` hands the same two commands in (src/cli/operator.ts). */
const RESEALERS = { webhookSecrets: resealWebhookSecrets, exportKeys: resealSigningKeys };

describe('the pepper at start-up', () => {
  it('is refused when it is the development one, outside development and test and beyond this machine', () => {
    for (const env of [
      { NODE_ENV: 'production' },
      { NODE_ENV: 'production', TAS_KEY_PEPPER: DEV_PEPPER },
      // NODE_ENV unset is development, but a deployment that forgot it listens beyond the machine or reaches a database elsewhere.
      { HOST: '0.0.0.0' },
      { TAS_KEY_PEPPER: DEV_PEPPER, HOST: '10.0.0.5' },
      { DATABASE_URL: 'postgres://tas_app@db.internal:5432/tas' },
    ]) {
      expect(() => loadConfig(env), JSON.stringify(Object.keys(env))).toThrow(ConfigError);
      expect(() => loadConfig(env)).toThrow(/refusing to start on the public development key pepper: set TAS_KEY_PEPPER/);
    }
  });

  it('is accepted in explicit development and test, and when it is set; the previous one joins the keyring', () => {
    expect(loadConfig({ NODE_ENV: 'test' }).keyring).toEqual({ current: DEV_PEPPER, previous: null });
    expect(loadConfig({ NODE_ENV: 'development' }).keyPepper).toBe(DEV_PEPPER);
    // Unset: development, the default `npm start` and `tas` share, on a developer's machine (loopback edge and database).
    expect(loadConfig({}).NODE_ENV).toBe('development');
    expect(loadConfig({}).keyPepper).toBe(DEV_PEPPER);
    expect(loadConfig({ HOST: '::1', DATABASE_URL: 'postgres://tas_app@localhost/tas' }).keyPepper).toBe(DEV_PEPPER);
    expect(loadConfig({ NODE_ENV: 'production', TAS_KEY_PEPPER: NEW, TAS_KEY_PEPPER_PREVIOUS: OLD }).keyring).toEqual({
      current: NEW,
      previous: OLD,
    });
  });
});

describe('keys derived per purpose', () => {
  it('gives each purpose its own key, none of them the pepper, and an API key hash no longer keyed by the pepper itself', () => {
    const keys = (['api-keys', 'webhook-sealing', 'export-sealing'] as const).map((p) => purposeKey(NEW, p).toString('hex'));
    expect(new Set(keys).size).toBe(3);
    expect(purposeKey(OLD, 'api-keys').equals(purposeKey(NEW, 'api-keys'))).toBe(false);
    const salt = newSalt();
    expect(hashKey(NEW, salt, 't').equals(createHmac('sha256', NEW).update(salt).update('t').digest())).toBe(false);
    expect(pepperId(NEW)).toMatch(/^pk_[0-9a-f]{12}$/);
    expect(pepperId(NEW)).not.toBe(pepperId(OLD));
  });
});

/** A secret sealed the way the service did before keys were derived per purpose (layout v1). */
function legacySeal(pepper: string, secret: string, tenantId: string, endpointId: string): Buffer {
  const key = Buffer.from(hkdfSync('sha256', pepper, 'tas-webhook-secret', 'aes-256-gcm v1', 32));
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: 16 });
  cipher.setAAD(Buffer.from(`webhook_endpoints:${tenantId}:${endpointId}`));
  const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return Buffer.concat([Buffer.from([1]), iv, cipher.getAuthTag(), body]);
}

describe('tas keys rotate-pepper', () => {
  let database: { url: string; drop: () => Promise<void> };
  let owner: pg.Client;
  let db: Db;
  const tenantId = randomUUID();

  beforeAll(async () => {
    database = await cloneDatabase();
    owner = await ownerClient(database.url);
    db = await createDb(database.url);
    await owner.query(`INSERT INTO tenants (id, name) VALUES ($1, 'pepper')`, [tenantId]);
  });

  afterAll(async () => {
    await db?.end();
    await owner?.end();
    await database?.drop();
  });

  async function insertEndpoint(sealed: Buffer, id = randomUUID()): Promise<string> {
    await owner.query(
      `INSERT INTO webhook_endpoints (id, tenant_id, mode, url, event_types, secret_sealed) VALUES ($1, $2, 'test', 'https://example.com/h', '{assessment.revised}', $3)`,
      [id, tenantId, sealed],
    );
    return id;
  }

  async function pepperKidOf(keyId: string): Promise<string | null> {
    return (await owner.query(`SELECT pepper_kid FROM api_keys WHERE id = $1`, [keyId])).rows[0].pepper_kid;
  }

  it('re-seals webhook secrets and the export key in place, and API keys made under the old pepper verify and move on use', async () => {
    // Made under the old pepper: a key hashed before derivation per purpose, one hashed after, a secret of each seal layout, the export key.
    const legacy = generateKey('test');
    const salt = newSalt();
    await insertKey(db, {
      id: legacy.keyId,
      tenantId,
      mode: 'test',
      name: 'legacy',
      scopes: ['inquiries'],
      salt,
      hash: legacyHashKey(OLD, salt, legacy.token),
      expiresAt: null,
    });
    const derived = await mintKey(db, OLD, { tenantId, mode: 'test', name: 'derived', scopes: ['inquiries'] });
    expect(await pepperKidOf(derived.keyId)).toBe(pepperId(OLD));
    const secrets = [generateWebhookSecret(), generateWebhookSecret()];
    const ids = [randomUUID(), randomUUID()];
    await insertEndpoint(legacySeal(OLD, secrets[0]!, tenantId, ids[0]!), ids[0]);
    await insertEndpoint(sealSecret(OLD, secrets[1]!, { tenantId, endpointId: ids[1]! }), ids[1]);
    const exportKey = await activeKey(db, OLD);

    const ring = { current: NEW, previous: OLD };
    const report = await rotatePepper(db, ring, RESEALERS);
    expect(report).toEqual({
      pepperId: pepperId(NEW),
      webhookSecrets: { resealed: 2, current: 0 },
      exportKeys: { resealed: 1, current: 0 },
      apiKeysWaiting: 2,
      unopenable: [],
    });

    // Sealed material now opens under the new pepper alone, to the same secrets and key.
    const rows = (await owner.query(`SELECT id, secret_sealed FROM webhook_endpoints WHERE tenant_id = $1`, [tenantId])).rows as {
      id: string;
      secret_sealed: Buffer;
    }[];
    for (const [i, id] of ids.entries()) {
      const row = rows.find((r) => r.id === id)!;
      expect(openSecret(NEW, row.secret_sealed, { tenantId, endpointId: id })).toBe(secrets[i]);
      expect(() => openSecret(OLD, row.secret_sealed, { tenantId, endpointId: id })).toThrow(/pepper this service does not hold/);
    }
    const reopened = await activeKey(db, NEW);
    expect(reopened.kid).toBe(exportKey.kid);
    expect(
      reopened.privateKey.export({ format: 'der', type: 'pkcs8' }).equals(exportKey.privateKey.export({ format: 'der', type: 'pkcs8' })),
    ).toBe(true);

    // Both API keys verify while the ring holds the old pepper, and are hashed again under the new one on that use.
    const rotating = createAuthenticator({ db, pepper: ring });
    expect((await rotating.authenticate(`Bearer ${legacy.token}`)).ok).toBe(true);
    expect((await rotating.authenticate(`Bearer ${derived.token}`)).ok).toBe(true);
    await expect.poll(() => pepperKidOf(legacy.keyId)).toBe(pepperId(NEW));
    await expect.poll(() => pepperKidOf(derived.keyId)).toBe(pepperId(NEW));

    // The old pepper can go: nothing waits on it, the new pepper alone verifies both keys, the old alone neither.
    expect(await rotatePepper(db, ring, RESEALERS)).toMatchObject({
      webhookSecrets: { resealed: 0, current: 2 },
      exportKeys: { resealed: 0, current: 1 },
      apiKeysWaiting: 0,
    });
    const after = createAuthenticator({ db, pepper: NEW });
    expect((await after.authenticate(`Bearer ${legacy.token}`)).ok).toBe(true);
    expect((await after.authenticate(`Bearer ${derived.token}`)).ok).toBe(true);
    expect(await createAuthenticator({ db, pepper: OLD }).authenticate(`Bearer ${derived.token}`)).toEqual({
      ok: false,
      reason: 'unknown',
    });
  });

  it('names a row no pepper of the ring opens, and leaves it as it was', async () => {
    const stranger = randomBytes(24).toString('hex');
    const id = await insertEndpoint(sealSecret(stranger, generateWebhookSecret(), { tenantId, endpointId: randomUUID() }));
    const report = await rotatePepper(db, { current: NEW, previous: OLD }, RESEALERS);
    expect(report.unopenable).toEqual([`webhook endpoint ${id}`]);
  });
});
