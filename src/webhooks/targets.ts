import { lookup as dnsLookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { classifyIp } from '../checks/ipRanges.js';

/**
 * The SSRF guard for webhook targets (rule W01). A delivery is an HTTP
 * request made from inside our network to an address a tenant chose, so
 * outside test mode a target must be https and every address its host
 * resolves to must be public: not loopback, private (RFC 1918, fc00::/7),
 * link-local (169.254/16, fe80::/10, which holds the cloud metadata service),
 * CGNAT, unspecified, multicast, documentation or reserved. Where the
 * operator allows it (TAS_WEBHOOKS_ALLOW_LOOPBACK, on in development only),
 * a test-mode key may also use http and loopback, so a developer can point it
 * at a local receiver; it never reaches private or metadata addresses either.
 * A tenant's mode alone never opens loopback: on a shared deployment it would
 * make the workers a port scanner of their own host (issue 40).
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
  /** http and loopback targets are allowed too (see insecureTargetsPolicy). */
  allowInsecure: boolean;
  /** Resolves a host name to all its addresses; the system resolver by default (tests substitute it). */
  lookup?: LookupAll;
}

export type TargetRefusal = 'scheme' | 'credentials' | 'unresolvable' | 'forbidden_address';

export type TargetVerdict = { ok: true; url: URL; address: ResolvedAddress } | { ok: false; reason: TargetRefusal };

// Named on their own as well, though the ranges above already cover both: they are what an attacker aims for.
const METADATA_ADDRESSES = new Set(['169.254.169.254', 'fd00:ec2::254']);

/**
 * IPv6 forms that carry an IPv4 address which is what the packets finally
 * reach: NAT64 (64:ff9b::/96, the IPv4 in the last 32 bits), 6to4
 * (2002::/16, the relay sends to the IPv4 in bits 16-47) and Teredo
 * (2001::/32, the server in bits 32-63 and the client, inverted, in the last
 * 32 bits). Such an address is refused like any IPv4 it embeds (rule W01).
 */
const NAT64 = new BlockList();
NAT64.addSubnet('64:ff9b::', 96, 'ipv6');
const SIX_TO_FOUR = new BlockList();
SIX_TO_FOUR.addSubnet('2002::', 16, 'ipv6');
const TEREDO = new BlockList();
TEREDO.addSubnet('2001::', 32, 'ipv6');

export const systemLookup: LookupAll = async (hostname) => {
  const found = await dnsLookup(hostname, { all: true, verbatim: true });
  return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

/**
 * Which keys may register and be sent to http and loopback targets: test-mode
 * keys, and only where the operator allowed it. The one place the rule lives,
 * used by the routes and by the delivery worker alike.
 */
export function insecureTargetsPolicy(operatorAllows: boolean): (mode: 'live' | 'test') => boolean {
  return (mode) => operatorAllows && mode === 'test';
}

/**
 * The guard for any other outbound request whose address a third party chose
 * (an RDAP redirect): https, no credentials, public addresses only, whatever
 * the operator allows for webhooks.
 */
export async function isPublicHttpsTarget(url: URL): Promise<boolean> {
  return (await checkTarget(url.href, { allowInsecure: false })).ok;
}

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
  if (isIP(bare) === 6 && embeddedIpv4s(bare).some((v4) => isForbiddenAddress(v4, allowLoopback))) return true;
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

/** The IPv4 addresses an IPv6 address leads to (NAT64, 6to4, Teredo); none for other addresses. */
export function embeddedIpv4s(v6: string): string[] {
  const groups = ipv6Groups(v6);
  if (NAT64.check(v6, 'ipv6')) return [ipv4Of(groups[6]!, groups[7]!)];
  if (SIX_TO_FOUR.check(v6, 'ipv6')) return [ipv4Of(groups[1]!, groups[2]!)];
  if (TEREDO.check(v6, 'ipv6')) return [ipv4Of(groups[2]!, groups[3]!), ipv4Of(~groups[6]! & 0xffff, ~groups[7]! & 0xffff)];
  return [];
}

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, a dotted tail converted). */
function ipv6Groups(v6: string): number[] {
  const [head = '', tail = ''] = v6.split('::');
  const parse = (part: string) => (part === '' ? [] : part.split(':').flatMap((g) => (g.includes('.') ? dottedToGroups(g) : [g])));
  const headGroups = parse(head);
  const tailGroups = v6.includes('::') ? parse(tail) : [];
  const zeros = new Array<string>(8 - headGroups.length - tailGroups.length).fill('0');
  return [...headGroups, ...zeros, ...tailGroups].map((g) => Number.parseInt(g, 16));
}

function ipv4Of(hi: number, lo: number): string {
  return [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
}

function dottedToGroups(dotted: string): string[] {
  const [a = 0, b = 0, c = 0, d = 0] = dotted.split('.').map(Number);
  return [((a << 8) | b).toString(16), ((c << 8) | d).toString(16)];
}
