import { isIP } from 'node:net';

/**
 * The address a call came from, for the limit before authentication
 * (issue 40). The peer of the TCP connection, unless that peer is a proxy the
 * operator named (TAS_TRUSTED_PROXIES): then the rightmost address of
 * X-Forwarded-For that is not itself a named proxy. A client can write any
 * X-Forwarded-For it likes, so the header is read only from a named proxy,
 * and only from its right end (what the proxies appended).
 */
export function clientAddressOf(peer: string, forwardedFor: string | undefined, trustedProxies: ReadonlySet<string>): string {
  const from = normalise(peer);
  if (!trustedProxies.has(from) || forwardedFor === undefined) return from;
  const hops = forwardedFor
    .split(',')
    .map((h) => normalise(h.trim()))
    .filter((h) => isIP(h) !== 0);
  for (let i = hops.length - 1; i >= 0; i -= 1) if (!trustedProxies.has(hops[i]!)) return hops[i]!;
  return from;
}

/** One spelling per address: IPv4-mapped IPv6 as IPv4, lower case, no brackets or zone. */
export function normalise(address: string): string {
  const bare = address
    .replace(/^\[|\]$/g, '')
    .replace(/%.*$/, '')
    .toLowerCase();
  if (isIP(bare) !== 6) return bare;
  // The URL parser writes every IPv6 address one way (compressed, IPv4-mapped in hex).
  const compressed = new URL(`http://[${bare}]/`).hostname.slice(1, -1);
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(compressed);
  if (!mapped) return compressed;
  const [hi, lo] = [Number.parseInt(mapped[1]!, 16), Number.parseInt(mapped[2]!, 16)];
  return [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
}

/** TAS_TRUSTED_PROXIES: comma-separated addresses; empty means none. */
export function trustedProxiesOf(setting: string): ReadonlySet<string> {
  return new Set(
    setting
      .split(',')
      .map((a) => a.trim())
      .filter((a) => a !== '')
      .map(normalise),
  );
}
