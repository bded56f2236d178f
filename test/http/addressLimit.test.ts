import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateKey } from '../../src/auth/apiKey.js';
import { presentedPrefix } from '../../src/edge/addressGuard.js';
import { clientAddressOf, normalise, trustedProxiesOf } from '../../src/edge/clientAddress.js';
import { call } from '../monitors/support.js';
import { bearer, startTestService, type TestService } from '../support/service.js';

/**
 * Issue 40: anonymous traffic is throttled per client address before any key
 * is looked up (429 with Retry-After), the address taken from
 * X-Forwarded-For only where the operator named the proxy; and a tenant's
 * keys together have a rate limit of their own beside each key's.
 */
let ts: TestService;
beforeAll(async () => {
  ts = await startTestService(
    {
      TAS_ADDRESS_FAILURES_PER_SEC: '5',
      TAS_TRUSTED_PROXIES: '127.0.0.1',
      TAS_TENANT_RATE_LIMIT_PER_SEC: '8',
      TAS_RATE_LIMIT_PER_SEC: '1000',
    },
    { workers: false },
  );
});
afterAll(async () => ts?.stop());

const registry = (key: string | null, forwardedFor: string) =>
  fetch(`${ts.base}/v1/registry/purposes`, {
    headers: { ...(key === null ? {} : bearer(key)), 'x-forwarded-for': forwardedFor },
  });

describe('the limit before authentication', () => {
  it('given a flood of one bad key from one client, then 429 with Retry-After once over the limit for that key, while another key at that address and another address are untouched', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 15; i += 1) {
      const res = await registry('tas_test_guessed', '203.0.113.7');
      statuses.push(res.status);
      if (res.status === 429) expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      await res.arrayBuffer();
    }
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses.at(-1)).toBe(429);
    // A key this process never verified, behind the same address: its prefix has failed nothing, so it is looked up.
    const unseen = (await ts.provision('unseen-behind-a-careless-client')).keys.test;
    const sameAddress = await registry(unseen, '203.0.113.7');
    expect(sameAddress.status).toBe(200);
    await sameAddress.arrayBuffer();
    const other = await registry(ts.tenant.keys.test, '203.0.113.8');
    expect(other.status).toBe(200);
  });

  it('given a revoked key retried from one address, then only that prefix waits: a guessed key of another prefix is still looked up (401)', async () => {
    const address = '203.0.113.21';
    const revoked = generateKey('test').token;
    const statuses: number[] = [];
    for (let i = 0; i < 15; i += 1) {
      const res = await registry(revoked, address);
      statuses.push(res.status);
      await res.arrayBuffer();
    }
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses.at(-1)).toBe(429);
    const another = await registry(generateKey('test').token, address);
    expect(another.status).toBe(401);
  });

  it('given guessed keys whose prefix changes on every call, then the whole address waits past four times the limit, a key not seen here too', async () => {
    const address = '203.0.113.22';
    // Sixty at once: more than the address's burst of twenty before its bucket refills.
    const statuses = await Promise.all(
      Array.from({ length: 60 }, async () => {
        const res = await registry(generateKey('test').token, address);
        await res.arrayBuffer();
        return res.status;
      }),
    );
    expect(statuses.filter((s) => s === 401).length).toBeGreaterThanOrEqual(20);
    expect(statuses).toContain(429);
    const unseen = (await ts.provision('unseen-behind-a-guesser')).keys.test;
    const refused = await registry(unseen, address);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    await refused.arrayBuffer();
  });

  it.each([
    ['a key', 'Bearer tas_live_AbCdEfGhIjK', 'tas_live_AbCd'],
    ['a test key, scheme in any case', 'bearer tas_test_0123xyz', 'tas_test_0123'],
    ['no header', undefined, '-'],
    ['another scheme', 'Basic dXNlcjpwYXNz', '-'],
    ['garbage after Bearer', 'Bearer tas_live_', '-'],
  ])('reads the prefix %s presents', (_name, header, prefix) => {
    expect(presentedPrefix(header)).toBe(prefix);
  });

  it('given a good key, then its calls never count against its address: bad keys after them still get five 401s before the 429', async () => {
    const address = '198.51.100.9';
    // A tenant of its own, whose eight calls here stay within its rate of eight a second (a burst of as many).
    const good = (await ts.provision('good-key-at-a-flooded-address')).keys.test;
    for (let i = 0; i < 6; i += 1) {
      const res = await registry(good, address);
      expect(res.status).toBe(200);
      await res.arrayBuffer();
    }
    // Six good calls from this address, more than its five failures: had they counted, the first bad key would be refused.
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < 15; i += 1) {
      last = await registry('tas_test_guessed', address);
      statuses.push(last.status);
      await last.arrayBuffer();
    }
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(last!.status).toBe(429);
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // Now the address waits, but not for a key this process verified lately (issue 48, test/http/fairAddress.test.ts).
    const known = await registry(good, address);
    expect(known.status).toBe(200);
    await known.arrayBuffer();
    const elsewhere = await registry(good, '198.51.100.10');
    expect(elsewhere.status).toBe(200);
  });
});

describe('the address of a call', () => {
  const proxies = trustedProxiesOf('10.0.0.1, 10.0.0.2');
  it.each([
    ['a peer that is no named proxy: the header is ignored', '198.51.100.1', '203.0.113.7', '198.51.100.1'],
    ['a named proxy: the rightmost address that is not a proxy', '10.0.0.1', '1.1.1.1, 203.0.113.7, 10.0.0.2', '203.0.113.7'],
    ['a named proxy without the header: the proxy', '10.0.0.1', undefined, '10.0.0.1'],
    ['an IPv4-mapped peer', '0000:0000:0000:0000:0000:ffff:7f00:0001', undefined, '127.0.0.1'],
  ])('given %s', (_name, peer, header, expected) => {
    expect(clientAddressOf(peer, header, proxies)).toBe(expected);
  });
  it('writes IPv6 one way', () => expect(normalise('2001:DB8:0:0:0:0:0:1')).toBe('2001:db8::1'));
});

describe('the per-tenant limit', () => {
  it("given two keys of one tenant, then together they are held to the tenant's rate, and another tenant is not", async () => {
    // A tenant of its own: its bucket is full, whatever the tests before spent of the default tenant's.
    const tenant = await ts.provision('two-keys');
    const minted = await call(ts, 'POST', '/v1/admin/keys', tenant.keys.test_admin, {
      name: 'second',
      scopes: ['registry'],
      mode: 'test',
    });
    const keys = [tenant.keys.test, minted.body.secret as string];
    const statuses: number[] = [];
    let tenantRefusal = '';
    for (let i = 0; i < 16; i += 1) {
      const res = await registry(keys[i % 2]!, '192.0.2.10');
      statuses.push(res.status);
      const text = await res.text();
      if (res.status === 429) {
        tenantRefusal = text;
        expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      }
    }
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    expect(tenantRefusal).toContain('tenant');
    const other = await ts.provision('other-tenant');
    const res = await registry(other.keys.test, '192.0.2.11');
    expect(res.status).toBe(200);
  });
});
