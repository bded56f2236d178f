import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { check as ipRange } from '../../src/checks/ipRangeCheck.js';
import { classifyIp } from '../../src/checks/ipRanges.js';
import { runOn, verdict } from './support.js';

describe('ip_range classification', () => {
  it.each([
    ['8.8.8.8', 'public'],
    ['0.1.2.3', 'unspecified'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.32.0.1', 'public'],
    ['192.168.255.255', 'private'],
    ['100.64.0.1', 'cgnat'],
    ['100.128.0.1', 'public'],
    ['127.0.0.1', 'loopback'],
    ['169.254.10.10', 'link_local'],
    ['192.0.2.44', 'documentation'],
    ['198.51.100.1', 'documentation'],
    ['203.0.113.9', 'documentation'],
    ['198.18.5.5', 'reserved'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'reserved'],
    ['2606:4700:4700::1111', 'public'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['fd12:3456::1', 'private'],
    ['fe80::1', 'link_local'],
    ['2001:db8::dead:beef', 'documentation'],
    ['3fff:1::1', 'documentation'],
    ['ff02::1', 'multicast'],
    ['100::1', 'reserved'],
    ['fec0::1', 'reserved'],
    ['4000::1', 'bogon'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:8.8.4.4', 'public'],
    ['not an ip', null],
  ])('given %s, then it is %s', (address, expected) => {
    expect(classifyIp(address)).toBe(expected);
  });

  it('classifies every IPv4 address without throwing', () => {
    fc.assert(fc.property(fc.ipV4(), (address) => classifyIp(address) !== null));
  });

  it('classifies every IPv6 address without throwing', () => {
    fc.assert(fc.property(fc.ipV6(), (address) => classifyIp(address) !== null));
  });
});

describe('ip_range check', () => {
  it.each([
    ['a public address', '8.8.8.8', 'neutral'],
    ['a private address', '192.168.1.20', 'weakens'],
    ['a bracketed loopback IPv6', '[::1]', 'weakens'],
    ['a CGNAT address', ' 100.64.1.1 ', 'weakens'],
    ['garbage', '300.1.1.1', 'absence:no_data'],
  ])('given %s, when checked, then it %s', async (_given, value, expected) => {
    expect(verdict(await runOn(ipRange, 'IP', value))).toBe(expected);
  });
});
