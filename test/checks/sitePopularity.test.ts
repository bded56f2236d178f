import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RANK_CEILING, columnsOf, listedSite, parseRow, popularityList, rankOf, readPopularityList } from '../../src/checks/popularity.js';
import { popularityCheck, tierOf } from '../../src/checks/sitePopularityCheck.js';
import { onlySignal, runOn } from './support.js';

const dir = mkdtempSync(join(tmpdir(), 'tas-popularity-'));
function listFile(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

describe('a popularity list: its formats, as pure functions', () => {
  it.each([
    ['GlobalRank,TldRank,Domain,TLD,RefSubNets', 'majestic', true],
    ['origin,rank', 'crux', true],
    ['1,google.com', 'ranked', false],
  ])('given the first line %s, then the format is %s (header: %s)', (line, format, header) => {
    const read = columnsOf(line);
    expect(read.columns.format).toBe(format);
    expect(read.header).toBe(header);
  });

  it.each([
    ['https://www.example.com', 'example.com'],
    ['http://Shop.Example.co.uk:8443', 'shop.example.co.uk'],
    ['www.bücher.de', 'xn--bcher-kva.de'],
    ['localhost', null],
    ['', null],
  ])('given the listed name %s, then the site is %s', (name, site) => {
    expect(listedSite(name)).toBe(site);
  });

  it('given a row that is not a rank and a name, then it throws; a blank line is skipped', () => {
    const columns = columnsOf('1,a.com').columns;
    expect(parseRow('7,example.org', columns)).toEqual(['example.org', 7]);
    expect(parseRow('', columns)).toBeNull();
    expect(() => parseRow('x,example.org', columns)).toThrow(/not a rank/);
    expect(() => parseRow('0,example.org', columns)).toThrow(/not a rank/);
  });

  it.each([
    [1, 'site_rank_top_1000'],
    [1000, 'site_rank_top_1000'],
    [1001, 'site_rank_top_10000'],
    [10_001, 'site_rank_top_100000'],
    [RANK_CEILING + 1, null],
  ])('given rank %d, then the tier is %s', (rank, kind) => {
    expect(tierOf(rank)?.kind ?? null).toBe(kind);
  });
});

describe('reading a list file', () => {
  it('given a Chrome UX Report top list, then origins become sites and a name listed twice keeps its best rank', async () => {
    const list = await readPopularityList(
      listFile('crux.csv', 'origin,rank\nhttps://www.shop.test-a.com,1000\nhttps://shop.test-a.com,5000\nhttps://b.org,10000\n'),
    );
    expect(list.format).toBe('crux');
    expect(rankOf(list, 'shop.test-a.com')).toBe(1000);
    expect(rankOf(list, 'b.org')).toBe(10000);
    expect(list.snapshot).toMatch(/^popularity:crux\.csv@[0-9a-f]{12}$/);
  });

  it('given rank,domain lines, then ranks beyond the ceiling are not kept', async () => {
    const list = await readPopularityList(listFile('ranked.csv', `1,a.com\n${RANK_CEILING + 1},b.com\n`));
    expect(rankOf(list, 'a.com')).toBe(1);
    expect(rankOf(list, 'b.com')).toBeUndefined();
  });

  it('given a malformed row, then the load fails naming the file and the line, not the row', async () => {
    await expect(readPopularityList(listFile('bad.csv', '1,a.com\n2,secret-row-text\n'))).rejects.toThrow(
      /^popularity list bad\.csv, line 2: is not a rank and a domain name$/,
    );
  });

  it('given two lists with different content, then their snapshots differ', async () => {
    const one = await readPopularityList(listFile('same.csv', '1,a.com\n'));
    const two = await readPopularityList(listFile('same2.csv', '1,b.com\n'));
    expect(one.snapshot.split('@')[1]).not.toBe(two.snapshot.split('@')[1]);
  });
});

// The shipped list, as the service reads it when no other is set.
const check = popularityCheck(await popularityList());

describe('site_popularity on the shipped list', () => {
  it.each([
    ['DOMAIN', 'github.com', 'site_rank_top_1000', 'supports'],
    ['DOMAIN', 'www.github.com', 'site_rank_top_1000', 'supports'],
    ['URL', 'https://www.siemens.com/global/en.html', 'site_rank_top_1000', 'supports'],
    ['URL', 'https://www.lse.ac.uk/study', 'site_rank_top_10000', 'supports'],
    // A name below a ranked site, and a site on a ranked platform, do not share the rank.
    ['DOMAIN', 'someone.github.io', 'site_rank_not_inherited', 'neutral'],
    ['URL', 'https://paypal-login.web.app/', 'site_rank_not_inherited', 'neutral'],
    ['URL', 'https://sites.google.com/view/my-wallet', 'site_rank_not_inherited', 'neutral'],
    ['DOMAIN', 'login.github.com', 'site_rank_not_inherited', 'neutral'],
    ['DOMAIN', 'acme-widgets.co.uk', 'site_unranked', 'neutral'],
    ['DOMAIN', '192.0.2.1', 'site_unranked', 'neutral'],
  ])('given %s %s, then the fact is %s (%s)', async (type, value, kind, disposition) => {
    const signal = onlySignal(await runOn(check, type, value));
    expect(signal).toMatchObject({ kind, disposition });
    expect(signal.statement).not.toMatch(/majestic/i);
  });

  it('given a presentation with no host, then the absence names what could not be read', async () => {
    const result = await runOn(check, 'URL', 'mailto:x');
    expect(result.absences).toEqual([expect.objectContaining({ kind: 'no_data', reason: expect.stringMatching(/popularity ranking/) })]);
  });
});
