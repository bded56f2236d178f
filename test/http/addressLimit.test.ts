import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
  it('given a flood of bad keys from one client, then 429 with Retry-After once over the limit, for a good key too, while another client is untouched', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 15; i += 1) {
      const res = await registry('tas_test_guessed', '203.0.113.7');
      statuses.push(res.status);
      if (res.status === 429) expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      await res.arrayBuffer();
    }
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses.at(-1)).toBe(429);
    const blockedGood = await registry(ts.tenant.keys.test, '203.0.113.7');
    expect(blockedGood.status).toBe(429);
    expect(Number(blockedGood.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    const other = await registry(ts.tenant.keys.test, '203.0.113.8');
    expect(other.status).toBe(200);
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
