import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateKey } from '../../src/auth/apiKey.js';
import { call } from '../monitors/support.js';
import { bearer, startTestService, type TestService } from '../support/service.js';

/**
 * Issue 48: the limit before authentication refuses only what fails. Behind
 * one address (a proxy not named as trusted, say) one client's flood of bad
 * keys must not lock out another client whose key this process verified
 * lately: that key is still authenticated and answered at once. A key never
 * seen here, or revoked since, is held to the address's wait once the flood
 * varies its prefixes (one prefix's failures hold only that prefix: addressLimit).
 */
let ts: TestService;
beforeAll(async () => {
  ts = await startTestService(
    { TAS_ADDRESS_FAILURES_PER_SEC: '5', TAS_TRUSTED_PROXIES: '127.0.0.1', TAS_RATE_LIMIT_PER_SEC: '1000' },
    { workers: false },
  );
});
afterAll(async () => ts?.stop());

const registry = async (key: string | null, address: string) => {
  const res = await fetch(`${ts.base}/v1/registry/purposes`, {
    headers: { ...(key === null ? {} : bearer(key)), 'x-forwarded-for': address },
  });
  await res.arrayBuffer();
  return res;
};

/**
 * Guessed keys, each with a prefix of its own, sixty at once: more than the
 * address's burst (four times the limit of five) before its bucket refills,
 * so the whole address waits. The last status seen, once all have answered.
 */
async function flood(address: string): Promise<number> {
  const statuses = await Promise.all(Array.from({ length: 60 }, async () => (await registry(generateKey('test').token, address)).status));
  expect(statuses.filter((s) => s === 401).length).toBeGreaterThanOrEqual(20);
  return statuses.includes(429) ? (await registry(generateKey('test').token, address)).status : 401;
}

describe('a known good key past its address limit', () => {
  it('given a key verified lately and its address flooded by another client, then the key is answered at once; a key not seen before waits', async () => {
    const tenant = await ts.provision('behind-one-proxy');
    const minted = await call(ts, 'POST', '/v1/admin/keys', tenant.keys.test_admin, { name: 'unseen', scopes: ['registry'], mode: 'test' });
    const unseen = minted.body.secret as string;
    const shared = '203.0.113.50';
    expect((await registry(tenant.keys.test, shared)).status).toBe(200);

    expect(await flood(shared)).toBe(429);

    const good = await registry(tenant.keys.test, shared);
    expect(good.status).toBe(200);
    const fresh = await registry(unseen, shared);
    expect(fresh.status).toBe(429);
    expect(Number(fresh.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });

  it('given the known good key revoked, then it is no longer let past the blocked address', async () => {
    const tenant = await ts.provision('revoked-behind-proxy');
    const minted = await call(ts, 'POST', '/v1/admin/keys', tenant.keys.test_admin, {
      name: 'soon-revoked',
      scopes: ['registry'],
      mode: 'test',
    });
    const key = minted.body.secret as string;
    const shared = '203.0.113.51';
    expect((await registry(key, shared)).status).toBe(200);
    expect(await flood(shared)).toBe(429);
    expect((await registry(key, shared)).status).toBe(200);

    const del = await fetch(`${ts.base}/v1/admin/keys/${String(minted.body.key_id)}`, {
      method: 'DELETE',
      headers: { ...bearer(tenant.keys.test_admin), 'x-forwarded-for': '198.51.100.77' },
    });
    expect(del.status).toBe(204);
    // The revocation reaches this process's authenticator through the revocation bus.
    let status = 0;
    for (let i = 0; i < 50 && status !== 429; i += 1) {
      status = (await registry(key, shared)).status;
      if (status !== 429) await new Promise((r) => setTimeout(r, 20));
    }
    expect(status).toBe(429);
  });
});
