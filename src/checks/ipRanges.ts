import { BlockList, isIP } from 'node:net';

/**
 * Special-purpose address ranges (IANA IPv4 and IPv6 special-purpose
 * registries, RFC 6890 and successors). An address in any of them is not a
 * host anyone can be on the public internet as. IPv4-mapped IPv6 addresses
 * (`::ffff:10.0.0.1`) are matched against the IPv4 ranges by BlockList itself.
 */
export type IpRange =
  'unspecified' | 'loopback' | 'private' | 'cgnat' | 'link_local' | 'documentation' | 'multicast' | 'reserved' | 'bogon';

type Cidr = readonly [address: string, prefix: number];

const IPV4: Record<Exclude<IpRange, 'bogon'>, readonly Cidr[]> = {
  unspecified: [['0.0.0.0', 8]],
  loopback: [['127.0.0.0', 8]],
  private: [
    ['10.0.0.0', 8],
    ['172.16.0.0', 12],
    ['192.168.0.0', 16],
  ],
  cgnat: [['100.64.0.0', 10]],
  link_local: [['169.254.0.0', 16]],
  documentation: [
    ['192.0.2.0', 24],
    ['198.51.100.0', 24],
    ['203.0.113.0', 24],
  ],
  multicast: [['224.0.0.0', 4]],
  // IETF protocol assignments, the retired 6to4 relay anycast, benchmarking, and class E with broadcast.
  reserved: [
    ['192.0.0.0', 24],
    ['192.88.99.0', 24],
    ['198.18.0.0', 15],
    ['240.0.0.0', 4],
  ],
};

const IPV6: Record<Exclude<IpRange, 'cgnat'>, readonly Cidr[]> = {
  unspecified: [['::', 128]],
  loopback: [['::1', 128]],
  private: [['fc00::', 7]],
  link_local: [['fe80::', 10]],
  documentation: [
    ['2001:db8::', 32],
    ['3fff::', 20],
  ],
  multicast: [['ff00::', 8]],
  // Discard-only, IETF protocol assignments, deprecated site-local.
  reserved: [
    ['100::', 64],
    ['2001::', 23],
    ['fec0::', 10],
  ],
  // Anything outside global unicast 2000::/3 is unallocated; checked last, after the ranges above.
  bogon: [],
};

// IPv4-mapped and NAT64 addresses carry an IPv4 address; they are classified by it, not as bogons.
const EMBEDDED_IPV4: readonly Cidr[] = [
  ['::ffff:0:0', 96],
  ['64:ff9b::', 96],
];

function blockListOf(cidrs: readonly Cidr[], family: 'ipv4' | 'ipv6'): BlockList {
  const list = new BlockList();
  for (const [address, prefix] of cidrs) list.addSubnet(address, prefix, family);
  return list;
}

const V4_LISTS = Object.entries(IPV4).map(([range, cidrs]) => [range as IpRange, blockListOf(cidrs, 'ipv4')] as const);
const V6_LISTS = Object.entries(IPV6).map(([range, cidrs]) => [range as IpRange, blockListOf(cidrs, 'ipv6')] as const);
const GLOBAL_UNICAST = blockListOf([['2000::', 3]], 'ipv6');
const EMBEDDED = blockListOf(EMBEDDED_IPV4, 'ipv6');

/** The special range an address falls in, 'public' when none, null when it is not an IP address. */
export function classifyIp(address: string): IpRange | 'public' | null {
  const family = isIP(address);
  if (family === 0) return null;
  const type = family === 4 ? 'ipv4' : 'ipv6';
  for (const [range, list] of V4_LISTS) if (list.check(address, type)) return range;
  if (family === 4) return 'public';
  for (const [range, list] of V6_LISTS) if (list.check(address, type)) return range;
  if (EMBEDDED.check(address, type)) return 'public';
  return GLOBAL_UNICAST.check(address, type) ? 'public' : 'bogon';
}
