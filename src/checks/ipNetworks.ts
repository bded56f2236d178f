import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { DataSource } from './types.js';

/**
 * Which network announces an IP address (its AS number and organisation)
 * and in which country the address is registered, offline, from the
 * @ip-location-db packages (RouteViews and DB-IP, CC-BY-4.0 with
 * attribution; whois country data, CC0), pinned in package.json.
 *
 * About 410,000 IPv4 ranges and the IPv6 ones, kept as sorted typed arrays
 * and searched by binary search: O(log n) per look-up. IPv6 ranges are kept
 * by their upper 64 bits (routed prefixes are /64 or shorter). The files are
 * read in the background after start-up, in a worker thread, so neither
 * start-up nor any call waits for them; until they are in, the check reports
 * an absence.
 */
const require = createRequire(import.meta.url);
const asnDir = dirname(require.resolve('@ip-location-db/asn/package.json'));
const countryDir = dirname(require.resolve('@ip-location-db/geo-whois-asn-country/package.json'));
const versionOf = (dir: string) => (require(join(dir, 'package.json')) as { version: string }).version;

export const NETWORK_SOURCES: readonly DataSource[] = [
  { name: '@ip-location-db/asn (RouteViews, DB-IP)', version: versionOf(asnDir), licence: 'CC-BY-4.0' },
  { name: '@ip-location-db/geo-whois-asn-country', version: versionOf(countryDir), licence: 'CC0-1.0' },
];

interface RangeTable<Bound extends Uint32Array | BigUint64Array = Uint32Array> {
  starts: Bound;
  ends: Bound;
  /** The AS number of each range (0 in the country table). */
  numbers: Uint32Array;
  /** Each range's label (organisation or country) as an index into `labels`. */
  labelOf: Uint32Array;
  labels: string[];
}

export interface IpNetwork {
  asn: number | null;
  organisation: string | null;
  country: string | null;
}

let asnTable: RangeTable | null = null;
let countryTable: RangeTable | null = null;
let asn6Table: RangeTable<BigUint64Array> | null = null;
let country6Table: RangeTable<BigUint64Array> | null = null;
let loading: Promise<void> | null = null;

/**
 * Starts reading the data (once) in a worker thread, which parses the files
 * into typed arrays, transfers them here and exits, so neither the event loop
 * nor the resident memory pays for the parsing. Resolves when the data is in.
 */
export function loadNetworks(): Promise<void> {
  loading ??= new Promise<void>((resolve, reject) => {
    const worker = new Worker(new URL('./data/ipNetworksWorker.mjs', import.meta.url), {
      workerData: {
        asnPath: join(asnDir, 'asn-ipv4-num.csv'),
        countryPath: join(countryDir, 'geo-whois-asn-country-ipv4-num.csv'),
        asn6Path: join(asnDir, 'asn-ipv6-num.csv'),
        country6Path: join(countryDir, 'geo-whois-asn-country-ipv6-num.csv'),
      },
    });
    worker.unref();
    worker.once(
      'message',
      (tables: { asn: RangeTable; country: RangeTable; asn6: RangeTable<BigUint64Array>; country6: RangeTable<BigUint64Array> }) => {
        asnTable = tables.asn;
        countryTable = tables.country;
        asn6Table = tables.asn6;
        country6Table = tables.country6;
        resolve();
      },
    );
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (asnTable === null) reject(new Error(`the network data worker exited (code ${code}) before answering`));
    });
  });
  return loading;
}

export function networksReady(): boolean {
  return asnTable !== null && countryTable !== null && asn6Table !== null && country6Table !== null;
}

function find<Bound extends Uint32Array | BigUint64Array>(table: RangeTable<Bound>, ip: Bound[number]): number {
  let lo = 0;
  let hi = table.starts.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    if (table.starts[mid]! > ip) hi = mid - 1;
    else if (table.ends[mid]! < ip) lo = mid + 1;
    else return mid;
  }
  return -1;
}

function ipv4Number(ip: string): number | null {
  const parts = ip.split('.');
  if (parts.length !== 4) return null;
  let n = 0;
  for (const part of parts) {
    const octet = Number(part);
    if (!/^\d{1,3}$/.test(part) || octet > 255) return null;
    n = n * 256 + octet;
  }
  return n;
}

/**
 * The upper 64 bits of an IPv6 address written in any RFC 4291 form
 * (`2001:db8::1`, `::ffff:192.0.2.1`), or null when it is not one.
 */
export function ipv6High64(ip: string): bigint | null {
  const halves = ip.toLowerCase().split('::');
  if (halves.length > 2) return null;
  const groupsOf = (part: string) => (part === '' ? [] : part.split(':'));
  const head = groupsOf(halves[0]!);
  const tail = halves.length === 2 ? groupsOf(halves[1]!) : [];
  // An embedded IPv4 address at the end stands for the last two groups.
  const last = tail.length > 0 ? tail : head;
  if (last.length > 0 && last[last.length - 1]!.includes('.')) {
    const v4 = ipv4Number(last.pop()!);
    if (v4 === null) return null;
    last.push((v4 >>> 16).toString(16), (v4 & 0xffff).toString(16));
  }
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...tail];
  if (groups.some((g) => !/^[0-9a-f]{1,4}$/.test(g))) return null;
  return groups.slice(0, 4).reduce((high, g) => (high << 16n) | BigInt(parseInt(g, 16)), 0n);
}

function answer<Bound extends Uint32Array | BigUint64Array>(
  asn: RangeTable<Bound>,
  country: RangeTable<Bound>,
  n: Bound[number],
): IpNetwork {
  const a = find(asn, n);
  const c = find(country, n);
  return {
    asn: a === -1 ? null : asn.numbers[a]!,
    organisation: a === -1 ? null : (asn.labels[asn.labelOf[a]!] ?? null),
    country: c === -1 ? null : (country.labels[country.labelOf[c]!] ?? null),
  };
}

/** The network and country of an IPv4 or IPv6 address; null when the data is not in yet or the value is not an address. */
export function networkOf(ip: string): IpNetwork | null {
  // An IPv4-mapped address (::ffff:a.b.c.d) is the IPv4 address it carries.
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  if (mapped) return networkOf(mapped[1]!);
  if (ip.includes(':')) {
    const high = ipv6High64(ip);
    return high === null || asn6Table === null || country6Table === null ? null : answer(asn6Table, country6Table, high);
  }
  const n = ipv4Number(ip);
  return n === null || asnTable === null || countryTable === null ? null : answer(asnTable, countryTable, n);
}
