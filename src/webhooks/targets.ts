import { lookup as dnsLookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { classifyIp } from '../checks/ipRanges.js';

/**
 * The SSRF guard for webhook targets (rule W01). A delivery is an HTTP
 * request made from inside our network to an address a tenant chose, so
 * outside test mode a target must be https and every address its host
 * resolves to must be public: not loopback, private (RFC 1918, fc00::/7),
 * link-local (169.254/16, fe80::/10, which holds the cloud metadata service),
 * CGNAT, unspecified, multicast, documentation or reserved. A test-mode key
 * may also use http and loopback, so a developer can point it at a local
 * receiver; it never reaches private or metadata addresses either.
 *
 * The check runs at registration and again before every send, and the send
 * connects to the very address checked here: a host that resolves to a public
 * address for the check and to a private one a moment later (DNS rebinding)
 * never gets a connection to the second.
 */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

export type LookupAll = (hostname: string) => Promise<ResolvedAddress[]>;

export interface TargetOptions {
  /** Test mode: http and loopback targets are allowed too. */
  allowInsecure: boolean;
  /** Resolves a host name to all its addresses; the system resolver by default (tests substitute it). */
  lookup?: LookupAll;
}

export type TargetRefusal = 'scheme' | 'credentials' | 'unresolvable' | 'forbidden_address';

export type TargetVerdict =
  | { ok: true; url: URL; address: ResolvedAddress }
  | { ok: false; reason: TargetRefusal };

// Named on their own as well, though the ranges above already cover both: they are what an attacker aims for.
const METADATA_ADDRESSES = new Set(['169.254.169.254', 'fd00:ec2::254']);

// NAT64 addresses carry an IPv4 address in their last 32 bits; that address is what gets reached.
const NAT64 = new BlockList();
NAT64.addSubnet('64:ff9b::', 96, 'ipv6');

export const systemLookup: LookupAll = async (hostname) => {
  const found = await dnsLookup(hostname, { all: true, verbatim: true });
  return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

export async function checkTarget(raw: string, opts: TargetOptions): Promise<TargetVerdict> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'scheme' };
  }
  if (url.protocol !== 'https:' && !(opts.allowInsecure && url.protocol === 'http:')) return { ok: false, reason: 'scheme' };
  // Credentials in a URL would sit in clear in our table and logs; a receiver authenticates us by signature.
  if (url.username || url.password) return { ok: false, reason: 'credentials' };
  const addresses = await resolve(hostOf(url), opts.lookup ?? systemLookup);
  if (addresses.length === 0) return { ok: false, reason: 'unresolvable' };
  // Every address must pass, not just the first: the connection could be made to any of them.
  if (addresses.some((a) => isForbiddenAddress(a.address, opts.allowInsecure))) return { ok: false, reason: 'forbidden_address' };
  return { ok: true, url, address: addresses[0]! };
}

/** True when a connection to this address must not be made (loopback is allowed in test mode only). */
export function isForbiddenAddress(address: string, allowLoopback = false): boolean {
  const bare = address.replace(/^\[|\]$/g, '').toLowerCase();
  if (METADATA_ADDRESSES.has(bare)) return true;
  const range = classifyIp(bare);
  if (range === null) return true;
  if (range === 'public' && isIP(bare) === 6 && NAT64.check(bare, 'ipv6')) {
    return isForbiddenAddress(embeddedIpv4(bare), allowLoopback);
  }
  return !(range === 'public' || (allowLoopback && range === 'loopback'));
}

/** The URL's host without IPv6 brackets. */
function hostOf(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '');
}

async function resolve(host: string, lookup: LookupAll): Promise<ResolvedAddress[]> {
  const literal = isIP(host);
  if (literal !== 0) return [{ address: host, family: literal === 6 ? 6 : 4 }];
  try {
    return await lookup(host);
  } catch {
    return [];
  }
}

/** The last 32 bits of an IPv6 address as dotted IPv4. */
function embeddedIpv4(v6: string): string {
  const [head = '', tail = ''] = v6.split('::');
  const parse = (part: string) => (part === '' ? [] : part.split(':'));
  const tailGroups = parse(tail).flatMap((g) => (g.includes('.') ? dottedToGroups(g) : [g]));
  const headGroups = parse(head);
  const groups = [...headGroups, ...Array(8 - headGroups.length - tailGroups.length).fill('0'), ...tailGroups];
  const hi = Number.parseInt(groups[6] ?? '0', 16);
  const lo = Number.parseInt(groups[7] ?? '0', 16);
  return [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
}

function dottedToGroups(dotted: string): string[] {
  const [a = 0, b = 0, c = 0, d = 0] = dotted.split('.').map(Number);
  return [((a << 8) | b).toString(16), ((c << 8) | d).toString(16)];
}
