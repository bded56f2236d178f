import { beforeAll, describe, expect, it } from 'vitest';
import { check as ipNetwork } from '../../src/checks/ipNetworkCheck.js';
import { HOSTING_ASNS } from '../../src/checks/hostingAsns.js';
import { loadNetworks, networkOf } from '../../src/checks/ipNetworks.js';
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

  it('IPv6 and unreadable values are absences, not evidence', async () => {
    expect(verdict(await runOn(ipNetwork, 'IP', '2001:db8::1'))).toBe('absence:no_data');
    expect(verdict(await runOn(ipNetwork, 'IP', 'not an ip'))).toBe('absence:no_data');
  });
});
