import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRegistryCache } from '../../src/registry/cache.js';
import { RegistryEntryList } from '../../src/registry/schemas.js';
import type { ProvisionedTenant } from '../../src/tenancy/provision.js';
import { ownerClient } from '../support/database.js';
import { bearer, startTestService, type TestService } from '../support/service.js';

let ts: TestService;
let plain: ProvisionedTenant;
beforeAll(async () => {
  ts = await startTestService({}, { workers: false });
  plain = await ts.provision('plain-co', false);
  // A test-mode grant withdrawn, to tell what the test key sees from what the live key sees.
  const c = await ownerClient(ts.dbUrl);
  try {
    await c.query(`DELETE FROM tenant_grants WHERE tenant_id = $1 AND mode = 'test' AND grant_id = 'credit_risk'`, [plain.tenant_id]);
  } finally {
    await c.end();
  }
});
afterAll(async () => ts?.stop());

async function ids(key: string, kind: 'artifact-types' | 'intents' | 'purposes'): Promise<string[]> {
  const res = await fetch(`${ts.base}/v1/registry/${kind}`, { headers: bearer(key) });
  expect(res.status).toBe(200);
  expect(res.headers.get('x-service-audit-id')).toMatch(/^[0-9a-f-]{36}$/);
  return RegistryEntryList.parse(await res.json()).map((e) => e.id);
}

describe('registry listings', () => {
  it('given a non-investigative tenant, then investigation is neither an intent nor a purpose it sees', async () => {
    expect(await ids(plain.keys.live, 'intents')).not.toContain('investigation');
    expect(await ids(plain.keys.live, 'purposes')).not.toContain('investigation');
    expect(await ids(plain.keys.live, 'purposes')).toContain('fraud_prevention');
  });

  it('given the investigative tenant, then investigation is listed', async () => {
    expect(await ids(ts.tenant.keys.live, 'intents')).toContain('investigation');
    expect(await ids(ts.tenant.keys.test, 'purposes')).toContain('investigation');
  });

  it('given a test key, then the test grants, not the live ones', async () => {
    expect(await ids(plain.keys.test, 'purposes')).not.toContain('credit_risk');
    expect(await ids(plain.keys.live, 'purposes')).toContain('credit_risk');
  });

  it('given artifact types, then each says how it is normalised, in id order', async () => {
    const res = await fetch(`${ts.base}/v1/registry/artifact-types`, { headers: bearer(plain.keys.test) });
    const entries = RegistryEntryList.parse(await res.json());
    expect(entries.map((e) => e.id)).toEqual(['ACCOUNT', 'DOMAIN', 'EMAIL', 'IP', 'NAME', 'PHONE', 'URL']);
    expect(entries.find((e) => e.id === 'PHONE')).toMatchObject({ normaliser: 'e164', description: expect.any(String) });
    expect(entries.every((e) => typeof e.normaliser === 'string')).toBe(true);
  });

  it('given intents and purposes, then no normaliser field', async () => {
    const res = await fetch(`${ts.base}/v1/registry/intents`, { headers: bearer(plain.keys.test) });
    const entries = RegistryEntryList.parse(await res.json());
    expect(entries.some((e) => 'normaliser' in e)).toBe(false);
  });

  it('given a key without the registry scope, then 403', async () => {
    const res = await fetch(`${ts.base}/v1/registry/purposes`, { headers: bearer(plain.keys.test_admin) });
    expect(res.status).toBe(403);
    await res.arrayBuffer();
  });
});

describe('the hot-path registry cache', () => {
  it('given a tenant and mode, then its grants by kind', async () => {
    const cache = createRegistryCache({ db: ts.service.db, ttlMs: 1000 });
    const test = await cache.grants({ tenantId: plain.tenant_id, mode: 'test' });
    const live = await cache.grants({ tenantId: plain.tenant_id, mode: 'live' });
    expect(test.artifactTypes.has('EMAIL')).toBe(true);
    expect(test.intents.has('onboarding')).toBe(true);
    expect(test.intents.has('investigation')).toBe(false);
    expect(test.purposes.has('credit_risk')).toBe(false);
    expect(live.purposes.has('credit_risk')).toBe(true);
  });

  it('given concurrent misses, then one shared load', async () => {
    const cache = createRegistryCache({ db: ts.service.db, ttlMs: 1000 });
    const scope = { tenantId: ts.tenant.tenant_id, mode: 'live' as const };
    const [a, b] = await Promise.all([cache.grants(scope), cache.grants(scope)]);
    expect(a).toBe(b);
  });
});
