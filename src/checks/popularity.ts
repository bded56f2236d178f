import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { basename } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { fileURLToPath } from 'node:url';
import { asciiHost } from './hosts.js';
import type { DataSource } from './types.js';

/**
 * A ranked popularity list: how widely the web links to (or visits) a site.
 * The service ships the Majestic Million's top 15,000 (CC BY 3.0,
 * src/checks/data/popularity/README.md); an operator points
 * `TAS_POPULARITY_LIST` at a larger or fresher list in one of the formats
 * such lists are published in:
 *
 * - `majestic`: Majestic's CSV, a header naming `GlobalRank` and `Domain`;
 * - `crux`: a Chrome UX Report top list, header `origin,rank`, where the
 *   rank is a bucket (1000, 5000, 10000...) and an origin is a scheme and
 *   host (`https://www.example.com`);
 * - `ranked`: `rank,domain` lines with no header (Tranco, Cisco Umbrella).
 *
 * Only ranks up to RANK_CEILING are kept: the facts a rank gives are tiers
 * up to it (sitePopularityCheck.ts), and a million names held as strings
 * would cost more memory than everything else the checks load together.
 * A name's `www.` is its site's front door, so `www.example.com` is listed as
 * `example.com`; where a name is listed twice, its best rank stands.
 */

export const RANK_CEILING = 100_000;

export type ListFormat = 'majestic' | 'crux' | 'ranked';

export interface PopularityList {
  /** `popularity:<file name>@<sha256 prefix>`: recorded with every assessment whose evidence read the list. */
  snapshot: string;
  format: ListFormat;
  /** Site name (lower-case ASCII, no `www.`) to its rank (1 is the most popular). */
  ranks: ReadonlyMap<string, number>;
}

export const SHIPPED_POPULARITY_LIST = fileURLToPath(new URL('./data/popularity/majestic-million-top15000-2026-03.csv', import.meta.url));

export const POPULARITY_SOURCE: DataSource = {
  name: 'Majestic Million, Majestic-12 Ltd (top 15,000, or the list TAS_POPULARITY_LIST names)',
  version: '2026-03',
  licence: 'CC-BY-3.0',
};

interface Columns {
  format: ListFormat;
  rank: number;
  name: number;
}

/** What the first line says of the file's layout; a first line that is a ranked row is no header. */
export function columnsOf(firstLine: string): { columns: Columns; header: boolean } {
  const cells = firstLine.split(',').map((c) => c.trim().toLowerCase());
  const at = (name: string) => cells.indexOf(name);
  if (at('globalrank') >= 0 && at('domain') >= 0)
    return { columns: { format: 'majestic', rank: at('globalrank'), name: at('domain') }, header: true };
  if (at('origin') >= 0 && at('rank') >= 0) return { columns: { format: 'crux', rank: at('rank'), name: at('origin') }, header: true };
  return { columns: { format: 'ranked', rank: 0, name: 1 }, header: false };
}

/** The site a listed name stands for: an origin's host, lower-case ASCII, without `www.`; null when it names no host. */
export function listedSite(name: string): string | null {
  const host = name.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '').replace(/[/:].*$/, '');
  const ascii = asciiHost(host);
  if (ascii === null || !ascii.includes('.')) return null;
  return ascii.startsWith('www.') ? ascii.slice(4) : ascii;
}

/**
 * One row: the site and its rank; null for a blank line or a rank beyond
 * RANK_CEILING (not kept, so its name is not even read: most of a million
 * rows are such). Throws on a malformed row.
 */
export function parseRow(line: string, columns: Columns): [string, number] | null {
  if (line.trim() === '') return null;
  const cells = line.split(',', Math.max(columns.rank, columns.name) + 1);
  const rank = Number(cells[columns.rank]?.trim());
  if (!Number.isInteger(rank) || rank < 1) throw new Error('is not a rank and a domain name');
  if (rank > RANK_CEILING) return null;
  const site = listedSite(cells[columns.name]?.trim() ?? '');
  if (site === null) throw new Error('is not a rank and a domain name');
  return [site, rank];
}

/** What a list file has given so far: its layout once the first line is read, and the ranks kept. */
class ListReader {
  columns: Columns | undefined;
  readonly ranks = new Map<string, number>();
  private lineNumber = 0;

  constructor(private readonly name: string) {}

  take(line: string): void {
    this.lineNumber += 1;
    if (this.columns === undefined) {
      const read = columnsOf(line);
      this.columns = read.columns;
      if (read.header) return;
    }
    let row: [string, number] | null;
    try {
      row = parseRow(line.endsWith('\r') ? line.slice(0, -1) : line, this.columns);
    } catch (error) {
      throw new Error(`popularity list ${this.name}, line ${this.lineNumber}: ${(error as Error).message}`, { cause: error });
    }
    if (row === null) return;
    const [site, rank] = row;
    const known = this.ranks.get(site);
    if (known === undefined || rank < known) this.ranks.set(site, rank);
  }
}

/**
 * Reads a list file once, keeping ranks up to RANK_CEILING, and hashes its
 * bytes in the same pass. Lines are split from each chunk and read in a
 * plain loop: an await per line (readline, an async generator) costs more
 * than the whole parse on a million-row list. A malformed row fails the
 * load with its line number.
 */
export async function readPopularityList(path: string): Promise<PopularityList> {
  const name = basename(path);
  const hash = createHash('sha256');
  const decoder = new StringDecoder('utf8');
  const reader = new ListReader(name);
  let carry = '';
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) {
    hash.update(chunk as Buffer);
    const lines = (carry + decoder.write(chunk as Buffer)).split('\n');
    carry = lines.pop()!;
    for (const line of lines) reader.take(line);
  }
  const last = carry + decoder.end();
  if (last !== '') reader.take(last);
  if (reader.columns === undefined || reader.ranks.size === 0) throw new Error(`popularity list ${name}: no ranked names`);
  return { snapshot: `popularity:${name}@${hash.digest('hex').slice(0, 12)}`, format: reader.columns.format, ranks: reader.ranks };
}

const loads = new Map<string, Promise<PopularityList>>();

/** The list at `path` (the shipped one when none is given), read once per process however many checks ask. */
export function popularityList(path: string = SHIPPED_POPULARITY_LIST): Promise<PopularityList> {
  let load = loads.get(path);
  if (load === undefined) {
    load = readPopularityList(path);
    loads.set(path, load);
    // A failed load is not cached: the next start-up reads the file again.
    load.catch(() => loads.delete(path));
  }
  return load;
}

/** The rank of a site (as siteOf gives it), or undefined when the list does not rank it within RANK_CEILING. */
export function rankOf(list: PopularityList, site: string): number | undefined {
  return list.ranks.get(site.startsWith('www.') ? site.slice(4) : site);
}
