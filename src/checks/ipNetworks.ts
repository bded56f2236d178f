import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { DataSource } from './types.js';

/**
 * Which network announces an IPv4 address (its AS number and organisation)
 * and in which country the address is registered, offline, from the
 * @ip-location-db packages (RouteViews and DB-IP, CC-BY-4.0 with
 * attribution; whois country data, CC0), pinned in package.json.
 *
 * About 410,000 ranges, kept as sorted typed arrays and searched by binary
 * search: O(log n) per look-up. The files are read in the background after
 * start-up, in a worker thread, so neither start-up nor any call waits for
 * them; until they are in, the check reports an absence. IPv6 is not loaded
 * yet (an absence too).
 */
const require = createRequire(import.meta.url);
const asnDir = dirname(require.resolve('@ip-location-db/asn/package.json'));
const countryDir = dirname(require.resolve('@ip-location-db/geo-whois-asn-country/package.json'));
const versionOf = (dir: string) => (require(join(dir, 'package.json')) as { version: string }).version;

export const NETWORK_SOURCES: readonly DataSource[] = [
  { name: '@ip-location-db/asn (RouteViews, DB-IP)', version: versionOf(asnDir), licence: 'CC-BY-4.0' },
  { name: '@ip-location-db/geo-whois-asn-country', version: versionOf(countryDir), licence: 'CC0-1.0' },
];

interface RangeTable {
  starts: Uint32Array;
  ends: Uint32Array;
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
let loading: Promise<void> | null = null;

/**
 * Starts reading the data (once) in a worker thread, which parses the files
 * into typed arrays, transfers them here and exits, so neither the event loop
 * nor the resident memory pays for the parsing. Resolves when the data is in.
 */
export function loadNetworks(): Promise<void> {
  loading ??= new Promise<void>((resolve, reject) => {
    const worker = new Worker(new URL('./data/ipNetworksWorker.mjs', import.meta.url), {
      workerData: { asnPath: join(asnDir, 'asn-ipv4-num.csv'), countryPath: join(countryDir, 'geo-whois-asn-country-ipv4-num.csv') },
    });
    worker.unref();
    worker.once('message', (tables: { asn: RangeTable; country: RangeTable }) => {
      asnTable = tables.asn;
      countryTable = tables.country;
      resolve();
    });
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (asnTable === null) reject(new Error(`the network data worker exited (code ${code}) before answering`));
    });
  });
  return loading;
}

export function networksReady(): boolean {
  return asnTable !== null && countryTable !== null;
}

function find(table: RangeTable, ip: number): number {
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

/** The network and country of an IPv4 address; null when the data is not in yet or the address is not IPv4. */
export function networkOf(ip: string): IpNetwork | null {
  const n = ipv4Number(ip);
  if (n === null || asnTable === null || countryTable === null) return null;
  const a = find(asnTable, n);
  const c = find(countryTable, n);
  return {
    asn: a === -1 ? null : asnTable.numbers[a]!,
    organisation: a === -1 ? null : asnTable.labels[asnTable.labelOf[a]!] ?? null,
    country: c === -1 ? null : countryTable.labels[countryTable.labelOf[c]!] ?? null,
  };
}
