import { beforeAll, describe, expect, it } from 'vitest';
import { check as ipNetwork } from '../../src/checks/ipNetworkCheck.js';
import { HOSTING_ASNS } from '../../src/checks/hostingAsns.js';
import { ipv6High64, loadNetworks, networkOf } from '../../src/checks/ipNetworks.js';
import { runOn, verdict } from './support.js';

/** The IP network check on the real, pinned data (loaded in the background; awaited here). */
beforeAll(async () => {
  await loadNetworks();
}, 30_000);

describe('ip networks', () => {
  it('looks up the announcing network and the registered country', () => {
    expect(networkOf('86.128.0.1')).toMatchObject({ asn: 2856, country: 'GB' });
    expect(networkOf('8.8.8.8')).toMatchObject({ asn: 15169, country: 'US' });
    expect(networkOf('10.0.0.1')).toMatchObject({ asn: null });
  });

  it('looks up IPv6 addresses too, by their routed prefix, and an IPv4-mapped one as the IPv4 address', () => {
    expect(networkOf('2001:4860:4860::8888')).toMatchObject({ asn: 15169, country: 'US' });
    expect(networkOf('2a01:4f8::1')).toMatchObject({ asn: 24940 });
    expect(networkOf('::ffff:8.8.8.8')).toMatchObject({ asn: 15169 });
    expect(networkOf('2001:db8::1')).toMatchObject({ asn: null });
  });

  it.each([
    ['::1', 0n],
    ['2001:db8::', 0x20010db800000000n],
    ['2001:0db8:0000:0001:0000:0000:0000:0001', 0x20010db800000001n],
    ['::ffff:192.0.2.1', 0n],
    ['fe80::1:2', 0xfe80000000000000n],
  ])('reads the upper 64 bits of %s', (ip, high) => {
    expect(ipv6High64(ip)).toBe(high);
  });

  it.each(['1::2::3', '12345::', '1:2:3:4:5:6:7:8:9', '1:2:3', 'g::1', '::ffff:300.1.1.1'])('refuses %s as an IPv6 address', (ip) => {
    expect(ipv6High64(ip)).toBeNull();
  });

  it('knows the large hosting networks from the maintained list', () => {
    for (const asn of [16509, 14061, 24940, 16276]) expect(HOSTING_ASNS.has(asn)).toBe(true);
    expect(HOSTING_ASNS.has(2856)).toBe(false);
  });
});

describe('ip_network', () => {
  it('a data-centre address weakens', async () => {
    const result = await runOn(ipNetwork, 'IP', '5.9.0.1');
    expect(result.signals).toContainEqual(expect.objectContaining({ kind: 'ip_hosting', disposition: 'weakens' }));
  });

  it('a home broadband address in the claimed country is ordinary', async () => {
    expect(verdict(await runOn(ipNetwork, 'IP', '86.128.0.1', { claim: { country: 'GB' } }))).toBe('neutral');
  });

  it('an address registered in another country than the claimed one weakens a little', async () => {
    const result = await runOn(ipNetwork, 'IP', '86.128.0.1', { claim: { country: 'FR' } });
    expect(result.signals).toContainEqual(expect.objectContaining({ kind: 'ip_country_mismatch', disposition: 'weakens' }));
  });

  it("an address in another country than the email domain's national suffix weakens a little; a bare country code or the same country does not", async () => {
    const kinds = async (value: string) =>
      (
        await runOn(ipNetwork, 'IP', '86.128.0.1', {
          subject: [
            { type: 'IP', value: '86.128.0.1', normalised: '86.128.0.1' },
            { type: 'EMAIL', value, normalised: value },
          ],
        })
      ).signals.map((s) => s.kind);
    expect(await kinds('jean@exemple.com.br')).toContain('ip_country_mismatch');
    expect(await kinds('jane@example.co.uk')).not.toContain('ip_country_mismatch');
    expect(await kinds('jane@startup.io')).not.toContain('ip_country_mismatch');
    expect(await kinds('jane@beispiel.de')).not.toContain('ip_country_mismatch');
  });

  it('an IPv6 data-centre address weakens like an IPv4 one', async () => {
    const result = await runOn(ipNetwork, 'IP', '2a01:4f8::1');
    expect(result.signals).toContainEqual(expect.objectContaining({ kind: 'ip_hosting', disposition: 'weakens' }));
  });

  it('an address no network announces says nothing either way, like an IPv4 one; unreadable values are absences', async () => {
    expect(verdict(await runOn(ipNetwork, 'IP', '2001:db8::1'))).toBe(verdict(await runOn(ipNetwork, 'IP', '10.0.0.1')));
    expect(verdict(await runOn(ipNetwork, 'IP', '2001:db8::1'))).not.toMatch(/weakens|supports/);
    expect(verdict(await runOn(ipNetwork, 'IP', 'not an ip'))).toBe('absence:no_data');
  });
});
