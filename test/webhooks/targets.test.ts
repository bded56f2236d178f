import { describe, expect, it } from 'vitest';
import { checkTarget, isForbiddenAddress, systemLookup, type LookupAll } from '../../src/webhooks/targets.js';

// A resolver of our own for names that must not depend on the network; `localhost` uses the system's.
const fixtures: Record<string, string[]> = {
  'hooks.example.com': ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
  'rebind.example.com': ['93.184.215.14', '10.0.0.7'],
  'metadata.example.com': ['169.254.169.254'],
};
const fixtureLookup: LookupAll = (host) => {
  const found = fixtures[host];
  if (!found) return Promise.reject(Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' }));
  return Promise.resolve(found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })));
};
const lookup: LookupAll = (host) => (host === 'localhost' ? systemLookup(host) : fixtureLookup(host));

describe('checkTarget', () => {
  it.each([
    // url, test mode, verdict
    ['https://hooks.example.com/tas', false, 'ok'],
    ['https://93.184.215.14:8443/tas', false, 'ok'],
    ['https://[2606:2800:21f:cb07:6820:80da:af6b:8b2c]/tas', false, 'ok'],
    ['http://hooks.example.com/tas', false, 'scheme'],
    ['ftp://hooks.example.com/tas', true, 'scheme'],
    ['https://user:pw@hooks.example.com/tas', false, 'credentials'],
    ['https://127.0.0.1/tas', false, 'forbidden_address'],
    ['https://2130706433/tas', false, 'forbidden_address'],
    ['https://10.1.2.3/tas', false, 'forbidden_address'],
    ['https://172.16.0.1/tas', false, 'forbidden_address'],
    ['https://192.168.1.1/tas', false, 'forbidden_address'],
    ['https://100.64.0.1/tas', false, 'forbidden_address'],
    ['https://169.254.169.254/latest/meta-data', false, 'forbidden_address'],
    ['https://0.0.0.0/tas', false, 'forbidden_address'],
    ['https://224.0.0.1/tas', false, 'forbidden_address'],
    ['https://[::1]/tas', false, 'forbidden_address'],
    ['https://[::]/tas', false, 'forbidden_address'],
    ['https://[fe80::1]/tas', false, 'forbidden_address'],
    ['https://[fd00:ec2::254]/tas', false, 'forbidden_address'],
    ['https://[::ffff:127.0.0.1]/tas', false, 'forbidden_address'],
    ['https://[64:ff9b::a9fe:a9fe]/tas', false, 'forbidden_address'],
    ['https://[2002:7f00:1::1]/tas', false, 'forbidden_address'],
    ['https://[2002:c0a8:101::1]/tas', false, 'forbidden_address'],
    ['https://[2001:0:4136:e378:8000:63bf:80ff:fffe]/tas', false, 'forbidden_address'],
    ['https://localhost/tas', false, 'forbidden_address'],
    ['https://rebind.example.com/tas', false, 'forbidden_address'],
    ['https://metadata.example.com/tas', false, 'forbidden_address'],
    ['https://nowhere.example.com/tas', false, 'unresolvable'],
    // Test mode: http and loopback for local receivers, and nothing else private.
    ['http://127.0.0.1:8080/tas', true, 'ok'],
    ['http://localhost:8080/tas', true, 'ok'],
    ['http://[::1]:8080/tas', true, 'ok'],
    ['http://10.1.2.3/tas', true, 'forbidden_address'],
    ['http://169.254.169.254/latest/meta-data', true, 'forbidden_address'],
    ['http://metadata.example.com/tas', true, 'forbidden_address'],
  ])('given %s (test mode %s), then %s', async (url, allowInsecure, expected) => {
    const verdict = await checkTarget(url, { allowInsecure, lookup });
    expect(verdict.ok ? 'ok' : verdict.reason).toBe(expected);
  });

  it('given a public host, then the address to connect to is one that was checked', async () => {
    const verdict = await checkTarget('https://hooks.example.com/tas', { allowInsecure: false, lookup });
    expect(verdict).toMatchObject({ ok: true, address: { address: '93.184.215.14', family: 4 } });
  });
});

describe('isForbiddenAddress', () => {
  it.each([
    ['8.8.8.8', false],
    ['64:ff9b::808:808', false],
    ['64:ff9b::10.0.0.1', true],
    // 6to4: the relay delivers to the IPv4 in bits 16-47.
    ['2002:7f00:1::1', true],
    ['2002:a00:1::', true],
    ['2002:a9fe:a9fe::1', true],
    ['2002:808:808::1', false],
    // Teredo: server in bits 32-63, client inverted in the last 32 bits; either private is refused.
    ['2001:0:a00:1::', true],
    ['2001:0:808:808:0:0:80ff:fffe', true],
    // NAT64 written in hexadecimal.
    ['64:ff9b::7f00:1', true],
    ['64:ff9b::c0a8:101', true],
    ['198.18.0.1', true],
    ['not-an-ip', true],
  ])('given %s, then forbidden is %s', (address, expected) => {
    expect(isForbiddenAddress(address)).toBe(expected);
  });
});
