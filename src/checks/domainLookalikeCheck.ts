import { domainToUnicode } from 'node:url';
import { answerAboutHost } from './hostAnswer.js';
import { hostMemo } from './hostMemo.js';
import { OFFLINE, PUBLIC_FACT, absent, defineCheck, neutral, weakens, type SignalAnswer } from './evidence.js';
import { viewHost, type HostView } from './hosts.js';
import { spelledDomainIn } from './spelledDomain.js';
import { disguisedName, type NameIndex } from './disguisedName.js';
import { createTypoWindowIndex, type Window } from './typoWindows.js';
import { buildCharTrie, childOf, type TrieNode } from './charTrie.js';
import { isChanceMatch, isOrdinaryWord, isWordRun } from './wordRuns.js';
import { PLACE_NAMES_SOURCE } from './placeNames.js';
import { COMMON_FREE_MAIL, FREE_MAIL_SOURCE } from './emailDomains.js';
import { BRAND_DOMAINS, BRAND_SOURCES, KNOWN_SITES, OWN_SITES_ELSEWHERE } from './brandDomains.js';
import { POPULARITY_SOURCE, popularityList, rankOf, type PopularityList } from './popularity.js';
import type { CheckDiscoveryConfig } from './registry.js';
import type { CheckDefinition } from './types.js';
import { CONFUSABLES_SOURCE, confusableSkeleton, damerauLevenshtein } from './stringDistance.js';
import { ENGLISH_WORDS_SOURCE } from './englishWords.js';

/**
 * Whether a domain imitates a well-known one: a typo of its name (edit
 * distance on the registrable label), a name that reads the same (`paypa1`),
 * the name embedded as a token (`paypal-login`, a combosquat), the whole
 * well-known domain used as a sub-domain of another
 * (`paypal.com.verify.example`), or the name as a site on a shared hosting
 * platform (`paypal-login.web.app`), or below a well-known site that hosts its
 * users' pages without being listed as a platform
 * (`secure-paypal-com.weebly.com`). Sharing a name under another suffix
 * (`amazon.de`) is not held against the subject: large brands own many
 * country domains. A brand's own domain and its sub-domains are never
 * flagged; that the site is established is the established_site check's fact.
 *
 * The well-known domains are about 3,600 brands built from maintained data
 * (src/checks/brandDomains.ts) plus the large free-mail providers. With that
 * many names, ordinary words collide, so the rules are strict:
 * - a typo is an inserted, dropped or swapped character of a name of five
 *   characters or more (below seven, a different letter in the same place is
 *   usually a different word: `notion` is not `motion`), one substituted
 *   character from seven when it is a neighbouring key or a look-alike
 *   (`blnance`), any two edits from ten; a name that is itself an ordinary
 *   word is never anyone's typo, and a letter added before or after a brand
 *   named by a word (`imailbox`) makes another word, not a typo;
 * - a combosquat needs a distinctive name (not an English word: `paypal`,
 *   `coinbase`) beside other words: as a token of four characters or more
 *   (`paypal-login`), run together with them from six (`binancebonus`), or
 *   misspelt inside them from eight (`login-blnance` is a token typo,
 *   `myetherwalletd` a run-together one). Brands named by a common word
 *   (`apple`, `orange`) are still caught as typos, confusables, sub-domain
 *   and platform imitations, but not as combosquats: `apple-farm` and
 *   `orange-juice` are ordinary businesses.
 * A name written in disguise beside other words (`paypa1-login`,
 * `amaz0nsecurity`) is a confusable, whatever kind of name it is
 * (src/checks/disguisedName.ts): no honest shop spells `amaz0n`.
 * Names are compared as a reader sees them: an internationalised label
 * (`xn--...`) is decoded and its accents and other marks removed first, so
 * `myetherwállet` is compared as `myetherwallet`.
 * The English words come from the word-list package (MIT); country names,
 * which it lacks, count as ordinary words too (src/checks/placeNames.ts).
 */
interface KnownDomain {
  domain: string;
  label: string;
  skeleton: string;
}

// When a name has several domains (google.com, google.be), .com and then the shortest stands for it in statements.
const byPreference = (a: string, b: string) =>
  Number(!a.endsWith('.com')) - Number(!b.endsWith('.com')) || a.length - b.length || (a < b ? -1 : 1);
const KNOWN: readonly KnownDomain[] = [...new Set([...BRAND_DOMAINS, ...COMMON_FREE_MAIL])].sort(byPreference).map((domain) => {
  const label = viewHost(domain).label ?? domain;
  return { domain, label, skeleton: confusableSkeleton(label) };
});

const BY_DOMAIN: ReadonlyMap<string, KnownDomain> = new Map(KNOWN.map((k) => [k.domain, k]));
const firstBy = (key: (k: KnownDomain) => string, from: readonly KnownDomain[]) => {
  const map = new Map<string, KnownDomain>();
  for (const k of from) if (!map.has(key(k))) map.set(key(k), k);
  return map;
};
/** Whether the registrable domain is one of the well-known domains itself (a brand's or a large mail provider's). */
export const isWellKnownDomain = (registrable: string): boolean => BY_DOMAIN.has(registrable);
const BY_LABEL: ReadonlyMap<string, KnownDomain> = firstBy((k) => k.label, KNOWN);
const BY_SKELETON: ReadonlyMap<string, KnownDomain> = firstBy(
  (k) => k.skeleton,
  KNOWN.filter((k) => k.label.length >= 4),
);
const RANK: ReadonlyMap<KnownDomain, number> = new Map(KNOWN.map((k, i) => [k, i]));
const BRANDS: ReadonlySet<string> = new Set(BRAND_DOMAINS);

/** Every string one deletion away from `text`. */
function deletions(text: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += 1) out.push(deletion(text, i));
  return out;
}

const deletion = (text: string, at: number) => text.slice(0, at) + text.slice(at + 1);

// A mail provider that no brand source names and whose name is an ordinary word (`casino.com`,
// `doctor.com`, `lawyer.com`: webmail services of the early web) is no name a typo imitates: one
// letter from it is another word or another company (`casio.com`). Brands named by a word (`apple`)
// stay, since people know them by that name and a typo of it fools them.
const isTypoTarget = (k: KnownDomain) => BRANDS.has(k.domain) || !isOrdinaryWord(k.label);
// Typos are looked for only among names of similar length (an edit changes the length by at most
// two, counted in code points).
interface TypoTarget {
  known: KnownDomain;
  length: number;
  /** Which of the 64 histogram buckets (see histogram) the label uses, as two 32-bit masks. */
  low: number;
  high: number;
}
const TYPO_TARGETS: readonly TypoTarget[] = KNOWN.map((known) => ({
  known,
  length: Array.from(known.label).length,
  ...bucketMasks(known.label),
})).filter((t) => t.length >= 5 && isTypoTarget(t.known));
// Below this many characters a name is a typo only at one edit (isTypoOf).
const ONE_EDIT_NAME = 10;
// A label one edit (inserted, dropped, swapped or substituted character) from such a name meets it
// once each has dropped at most one character: the label itself or one of its deletions is the name
// or one of the name's. So those names are indexed under themselves and their deletions, and a
// look-up reads a dozen keys, not the thousand names of similar length.
const ONE_EDIT_TARGETS: ReadonlyMap<string, readonly TypoTarget[]> = (() => {
  const index = new Map<string, TypoTarget[]>();
  for (const target of TYPO_TARGETS) {
    const label = target.known.label;
    if (label.length >= ONE_EDIT_NAME) continue;
    for (let at = -1; at < label.length; at += 1) {
      const key = at === -1 ? label : deletion(label, at);
      const list = index.get(key);
      // A doubled letter gives one deletion twice (`google`): the name is listed under it once.
      if (list === undefined) index.set(key, [target]);
      else if (list[list.length - 1] !== target) list.push(target);
    }
  }
  return index;
})();
// Longer names allow two edits, too many spellings to index: they are bucketed by length and a
// look-up reads five buckets, filtered by their character counts (HISTOGRAMS).
const TWO_EDIT_TARGETS_BY_LENGTH: ReadonlyMap<number, readonly TypoTarget[]> = (() => {
  const buckets = new Map<number, TypoTarget[]>();
  for (const target of TYPO_TARGETS) {
    if (target.known.label.length < ONE_EDIT_NAME) continue;
    const bucket = buckets.get(target.length);
    if (bucket) bucket.push(target);
    else buckets.set(target.length, [target]);
  }
  return buckets;
})();
// Names are looked for run together only at the lengths that names of letters have.
const LETTER_NAME_LENGTHS: ReadonlySet<number> = new Set(KNOWN.filter((k) => /^[a-z]+$/.test(k.label)).map((k) => k.label.length));
const DISGUISE_INDEX: NameIndex<KnownDomain> = {
  bySkeleton: (skeleton) => BY_SKELETON.get(skeleton),
  labels: buildCharTrie([...BY_LABEL].filter(([label]) => LETTER_NAME_LENGTHS.has(label.length))),
};
const MIN_EMBEDDED_NAME = 4;
// Run together with other words, a name needs more letters to be told from chance: six to be found as
// it is, eight to be found misspelt (shorter windows are one letter from some brand by chance).
const MIN_RUN_TOGETHER_NAME = 6;
const MIN_RUN_TOGETHER_TYPO = 8;
const DISTINCTIVE: readonly KnownDomain[] = KNOWN.filter(
  (k) => k.label.length >= MIN_RUN_TOGETHER_NAME && /^[a-z0-9]+$/.test(k.label) && !isOrdinaryWord(k.label),
);
const DISTINCTIVE_BY_LABEL: ReadonlyMap<string, KnownDomain> = firstBy((k) => k.label, DISTINCTIVE);
/** The well-known domain whose distinctive name (not an ordinary word, six letters or more) is exactly `name`, or null. */
export const domainOfDistinctiveName = (name: string): string | null => DISTINCTIVE_BY_LABEL.get(name)?.domain ?? null;
const DISTINCTIVE_NAMES: TrieNode<KnownDomain> = buildCharTrie(DISTINCTIVE_BY_LABEL);

// Only names of letters are looked for misspelt inside a label: inside `mail2wendy` an edit of
// `mail2web` is another word after the digit.
const TYPO_NAMES: readonly KnownDomain[] = DISTINCTIVE.filter((k) => k.label.length >= MIN_RUN_TOGETHER_TYPO && /^[a-z]+$/.test(k.label));
const TYPO_WINDOWS = createTypoWindowIndex(TYPO_NAMES, (k) => k.label);
const MAX_TYPO_WINDOW = Math.max(0, ...DISTINCTIVE.map((k) => k.label.length)) + 1;

export type Resemblance =
  | {
      kind:
        | 'is_well_known'
        | 'same_name_other_suffix'
        | 'confusable'
        | 'embedded_name'
        | 'subdomain_imitation'
        | 'platform_imitation'
        | 'spelled_domain';
      known: string;
    }
  | { kind: 'typo'; known: string; distance: number }
  | { kind: 'borrowed_name' | 'borrowed_disguise' | 'subdomain_name' | 'subdomain_disguise'; known: string; within: string }
  | { kind: 'known_site' | 'own_site'; known: string };

/**
 * Short names collide with ordinary words, and with thousands of brands a
 * substituted letter mostly makes another real word, so: no typos of names
 * under five characters; from five, one inserted, dropped or swapped
 * character; from ten, any two edits.
 */
export function isTypoOf(candidate: string, known: string): number | null {
  if (known.length < 5 || Math.abs(candidate.length - known.length) > 2) return null;
  // Below ten characters only one edit counts, and below seven not a substitution: linear tests,
  // so the look-up over thousands of names costs microseconds, not the full distance table.
  if (known.length < 10) {
    if (oneInsertDropOrSwap(candidate, known)) return isAffixedWord(candidate, known) ? null : 1;
    return known.length >= 7 && isSlipSubstitution(candidate, known) ? 1 : null;
  }
  const distance = damerauLevenshtein(candidate, known);
  if (distance === 0 || distance > 2) return null;
  // Two edits from a long name is often just other words (`prontomail` is not `protonmail`).
  return distance === 2 && isCompoundOfWords(candidate) ? null : distance;
}

/** Whether every part of a label between digits and hyphens is ordinary words written together (`mail2search`). */
function isCompoundOfWords(label: string): boolean {
  const tokens = label.split(/[-0-9.]+/).filter((t) => t.length > 0);
  return tokens.length > 0 && tokens.every((t) => isOrdinaryWord(t) || isWordRun(t));
}

/** Whether `a` is `b` with one character inserted, dropped, or two neighbours swapped. */
export function oneInsertDropOrSwap(a: string, b: string): boolean {
  if (a === b) return false;
  if (a.length === b.length) {
    let i = 0;
    while (i < a.length && a[i] === b[i]) i += 1;
    return i + 1 < a.length && a[i] === b[i + 1] && a[i + 1] === b[i] && sameFrom(a, i + 2, b, i + 2);
  }
  const long = a.length > b.length ? a : b;
  const short = a.length > b.length ? b : a;
  if (long.length !== short.length + 1) return false;
  let i = 0;
  while (i < short.length && long[i] === short[i]) i += 1;
  return sameFrom(long, i + 1, short, i);
}

/** Whether `a` from `aStart` and `b` from `bStart` are the same to their ends, compared in place (no slices: this runs for every candidate name). */
function sameFrom(a: string, aStart: number, b: string, bStart: number): boolean {
  return a.length - aStart === b.length - bStart && sameAt(a, aStart, b, bStart, a.length - aStart);
}

/**
 * Whether `a` is `b` with one letter replaced by a key next to it on a QWERTY
 * keyboard or by a character that looks like it (`blnance`, `paypa1`): the
 * substitutions a slip of the finger or a forger's eye makes. Any other
 * replaced letter mostly spells another name (`eastmail` is not `fastmail`,
 * `mailway` is not `railway`).
 */
export function isSlipSubstitution(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let at = -1;
  for (let i = 0; i < a.length; i += 1) {
    if (a[i] === b[i]) continue;
    if (at !== -1) return false;
    at = i;
  }
  return at !== -1 && isSlip(a[at]!, b[at]!);
}

const KEY_ROWS = ['1234567890', 'qwertyuiop', 'asdfghjkl', 'zxcvbnm'];
// Pairs that read alike in most fonts, digits for the letters they resemble included.
const LOOK_ALIKE = ['il', 'i1', 'l1', 'o0', 'gq', 'uv', 's5', 'e3', 'a4', 'b8', 't7', 'z2', 'g9'];

const SLIPS: ReadonlySet<string> = (() => {
  const pairs = new Set<string>();
  const add = (x: string | undefined, y: string | undefined) => {
    if (x && y && x !== y) pairs.add(x + y).add(y + x);
  };
  KEY_ROWS.forEach((row, r) => {
    [...row].forEach((key, c) => {
      add(key, row[c + 1]);
      // The rows are staggered: a key touches the two keys above it at c and c + 1.
      add(key, KEY_ROWS[r - 1]?.[c]);
      add(key, KEY_ROWS[r - 1]?.[c + 1]);
    });
  });
  for (const [x, y] of LOOK_ALIKE) add(x, y);
  return pairs;
})();

const isSlip = (x: string, y: string) => SLIPS.has(x + y);

/**
 * Whether `candidate` is the ordinary word `known` with a letter added before
 * or after it (`imailbox`, `ismart`, `dplanet`): a brand named by a word gets
 * compounds and inflections of it, not typos.
 */
function isAffixedWord(candidate: string, known: string): boolean {
  if (candidate.length !== known.length + 1 || !isOrdinaryWord(known)) return false;
  return candidate.endsWith(known) || candidate.startsWith(known);
}

/**
 * How the host resembles a well-known domain, if it does. `isRanked` says
 * whether a popularity ranking ranks a registrable domain: such a domain is
 * a site the web has linked to widely for years, its own established name,
 * so like the known sites it is never read as imitating another (measured on
 * the shipped top 15,000: 123 of them read as an embedded brand and 52 as a
 * typo without it, platform tenants' domains such as myshopify.com and
 * microsoftonline.com among them). The names below it are read as anywhere
 * else (`paypal.myshopify.com` still borrows a brand's name).
 */
export function resemblance(view: HostView, isRanked: (registrable: string) => boolean = () => false): Resemblance | null {
  if (view.registrable === null || view.label === null) return null;
  // A company's own site elsewhere (`hyperliquid.gitbook.io`, `hashkeyglobal-apidoc.readme.io`), as its own data names it.
  const ownSite = ownSiteElsewhere(view);
  if (ownSite !== null) return { kind: 'own_site', known: ownSite };
  // A site on a platform (`wallet.webflow.io`) is not the platform's own domain, whoever the platform is.
  const exact = view.platform === null ? BY_DOMAIN.get(view.registrable) : undefined;
  if (exact) return borrowedName(view.subdomain, exact.domain, exact.label) ?? { kind: 'is_well_known', known: exact.domain };
  if (view.platform === null && (KNOWN_SITES.has(view.registrable) || isRanked(view.registrable))) {
    return borrowedName(view.subdomain, view.registrable, foldLabel(view.label)) ?? { kind: 'known_site', known: view.registrable };
  }
  const imitated = subdomainImitation(view.subdomain, foldLabel(view.label));
  if (imitated) return { kind: 'subdomain_imitation', known: imitated.domain };
  // `www` on a platform is the platform's own front door, not a user's site.
  if (view.platform?.label === 'www') return null;
  if (view.platform !== null) {
    // The site's own name is its label on the platform; the platform's name (`webflow`) is no one's imitation.
    const onPlatform = nameResemblance(view.platform.label, false);
    return onPlatform ? { kind: 'platform_imitation', known: onPlatform.known } : spelledDomain(view);
  }
  // A name under a vetted registry was given by the registry's rules, not chosen to look like someone else's.
  if (isVettedRegistration(view)) return spelledDomain(view) ?? subdomainName(view);
  const sameName = BY_LABEL.get(view.label);
  const byName: Resemblance | null = sameName
    ? { kind: 'same_name_other_suffix', known: sameName.domain }
    : nameResemblance(view.label, true);
  // A well-known name found in the site's own name says more than the shape of its sub-domains.
  if (byName !== null && byName.kind !== 'same_name_other_suffix') return byName;
  return spelledDomain(view) ?? subdomainName(view) ?? byName;
}

/**
 * The top-level domains whose registries register only vetted institutions
 * (RFC 1591 section 2: `edu` for accredited colleges, `gov` and `mil` for US
 * government and military, `int` for treaty organisations). A registrable
 * name there (`berea.edu`, one letter from bereal.com) cannot have been
 * bought to imitate a brand, so the name rules do not read it; sub-domains,
 * which the institution names itself, are read as anywhere else.
 */
const VETTED_TOP_LEVEL = new Set(['edu', 'gov', 'mil', 'int']);
const isVettedRegistration = (view: HostView) => view.suffix !== null && VETTED_TOP_LEVEL.has(view.suffix);

// What the check counts as the name itself imitated (its strong `domain_lookalike` answers), as against
// a brand written plainly beside other words (`brand_embedded`, `domain_in_host`) or no imitation at all.
const IMITATIONS: ReadonlySet<Resemblance['kind']> = new Set([
  'platform_imitation',
  'subdomain_imitation',
  'confusable',
  'typo',
  'subdomain_disguise',
  'borrowed_disguise',
]);

/** The well-known domain a host's name imitates, as this check counts it (a strong look-alike), or null. */
export function imitatedDomain(host: string): string | null {
  const found = resemblance(viewHost(host));
  return found !== null && IMITATIONS.has(found.kind) ? found.known : null;
}

/** The platform site, or the host, that a company's own data names as its own, or null. */
function ownSiteElsewhere(view: HostView): string | null {
  if (view.platform !== null && OWN_SITES_ELSEWHERE.has(view.platform.site)) return view.platform.site;
  return OWN_SITES_ELSEWHERE.has(view.hostname) ? view.hostname : null;
}

/**
 * A distinctive name beside other words (`paypal-verify.secure-login.xyz`,
 * `www-paypal-com.evil.example`) or in disguise (`login.paypa1.evil.example`)
 * in a sub-domain label of a domain that is not the name's: the host puts
 * the brand where a reader looks for it, at the left. A brand the domain's
 * own name holds (`paypal.paypal-community.com`) is left to the name rules.
 */
function subdomainName(view: HostView): Resemblance | null {
  if (view.subdomain === '' || view.registrable === null || view.label === null) return null;
  const ownLabel = foldLabel(view.label);
  for (const raw of view.subdomain.split('.')) {
    const found = otherBrandIn(foldLabel(raw), (k) => !ownLabel.includes(k.label));
    if (found)
      return { kind: found.disguised ? 'subdomain_disguise' : 'subdomain_name', known: found.known.domain, within: view.registrable };
  }
  return null;
}

/**
 * Another brand's name in the site label right below a well-known domain
 * (`secure-paypal-com.weebly.com`): many large sites give such names to their
 * users' pages without being on the public suffix list's platform section,
 * so the page borrows the name on the host's reputation. Only a distinctive
 * name beside other words or in disguise counts: the bare name
 * (`coinbase.zendesk.com`) is how software-as-a-service sites name their
 * customers' own spaces, and ordinary words (`office.microsoft.com`) are no
 * one's brand.
 */
function borrowedName(subdomain: string, withinDomain: string, withinLabel: string): Resemblance | null {
  if (isOwnName(subdomain)) return null;
  const site = foldLabel(subdomain.slice(subdomain.lastIndexOf('.') + 1));
  // A brand the domain's own name holds (`paypal` below `paypal-corp.com`) is that domain's own business.
  const found = otherBrandIn(site, (k) => k.domain !== withinDomain && !withinLabel.includes(k.label));
  return found ? { kind: found.disguised ? 'borrowed_disguise' : 'borrowed_name', known: found.known.domain, within: withinDomain } : null;
}

/** A brand `isOther` accepts, named in disguise or beside other words in one label (not an ordinary word, hyphenated or not), or null. */
function otherBrandIn(label: string, isOther: (k: KnownDomain) => boolean): { known: KnownDomain; disguised: boolean } | null {
  if (label.length < 4 || isOrdinaryWord(label) || isHyphenatedWord(label)) return null;
  const confusable = BY_SKELETON.get(confusableSkeleton(label));
  const disguised =
    confusable && confusable.label !== label && confusable.label.length >= 5 ? confusable : disguisedName(label, DISGUISE_INDEX);
  if (disguised && isOther(disguised)) return { known: disguised, disguised: true };
  const embedded = embeddedName(label);
  return embedded && isOther(embedded) ? { known: embedded, disguised: false } : null;
}

function spelledDomain(view: HostView): Resemblance | null {
  const spelled = spelledDomainIn(view);
  return spelled === null ? null : { kind: 'spelled_domain', known: spelled };
}

/**
 * A well-known domain spelled out inside the sub-domain labels
 * (`paypal.com.verify.example`), or a distinctive name as a whole sub-domain
 * label (`myetherwallet.com-update.site`, where `com-update.site` is the
 * registered domain).
 */
function subdomainImitation(subdomain: string, ownLabel: string): KnownDomain | undefined {
  if (subdomain === '') return undefined;
  const labels = subdomain.split('.');
  // A name the domain's own name holds (`paypal.paypal-community.com`) is the domain's own business.
  const named = labels
    .map((label) => DISTINCTIVE_BY_LABEL.get(foldLabel(label)))
    .find((k) => k !== undefined && !ownLabel.includes(k.label));
  if (named) return named;
  // Every run of two or more consecutive labels is a candidate domain (`paypal.com`, `co.uk` never alone).
  for (let start = 0; start < labels.length - 1; start += 1) {
    for (let end = start + 2; end <= labels.length; end += 1) {
      const known = BY_DOMAIN.get(labels.slice(start, end).join('.'));
      if (known) return known;
    }
  }
  return undefined;
}

/** The label as a reader sees it: decoded from punycode, accents and other marks removed, lower case. */
export function foldLabel(rawLabel: string): string {
  if (PLAIN_LABEL.test(rawLabel)) return rawLabel;
  const unicode = domainToUnicode(rawLabel) || rawLabel;
  return unicode
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
}

/** The label decoded from Punycode, as the URL standard reads a host's label, or itself when that reads it as nothing. */
const decodedLabel = (rawLabel: string) => (PLAIN_LABEL.test(rawLabel) ? rawLabel : domainToUnicode(rawLabel) || rawLabel);

/**
 * Most labels are lower-case letters, digits and hyphens, which decode,
 * decompose and lower-case to themselves, so they skip that work; not a
 * Punycode label (`xn--`), nor one the URL standard reads as an IPv4 number
 * (all digits, or `0x` and hexadecimal: `123` decodes as `0.0.0.123`).
 */
const PLAIN_LABEL = /^(?!xn--|0x|[0-9]+$)[a-z0-9-]+$/;

/** Whether the label is an ordinary word split by hyphens (`in-box`, `r-o-o-t`): the same word, whichever brand is named by it. */
function isHyphenatedWord(label: string): boolean {
  return label.includes('-') && isOrdinaryWord(label.replaceAll('-', ''));
}

/** How a site's own name resembles a well-known name; `allowExact` is false on a platform, where the bare name is the imitation. */
function nameResemblance(rawLabel: string, allowExact: boolean): Resemblance | null {
  const label = decodedLabel(rawLabel);
  const folded = foldLabel(rawLabel);
  if (isHyphenatedWord(folded)) return null;
  if (!allowExact) {
    const same = BY_LABEL.get(folded);
    if (same) return { kind: 'platform_imitation', known: same.domain };
  }
  const confusable = BY_SKELETON.get(confusableSkeleton(label)) ?? (folded !== label ? BY_LABEL.get(folded) : undefined);
  if (confusable && confusable.label !== label && !isShortNameChance(label, confusable.label))
    return { kind: 'confusable', known: confusable.domain };
  const disguised = disguisedName(folded, DISGUISE_INDEX);
  if (disguised) return { kind: 'confusable', known: disguised.domain };
  const typo = isOrdinaryWord(folded) ? null : closestTypo(folded);
  if (typo) return typo;
  const embedded = embeddedName(folded);
  return embedded ? { kind: 'embedded_name', known: embedded.domain } : null;
}

/**
 * Whether a plain label reads like a four-letter name only by chance: with
 * so few letters, a letter for a look-alike (`mait`, `malt`) or one glyph
 * for two (`tum`, `turn`) is mostly another acronym, and universities and
 * schools are named by acronyms. A disguise that spells the name out longer
 * (`rneta` for meta) or with a digit or a letter of another script still
 * counts.
 */
function isShortNameChance(label: string, known: string): boolean {
  return known.length <= 4 && /^[a-z-]+$/.test(label) && label.length <= known.length;
}

/**
 * A distinctive name beside other words: as a token, run together with them, or misspelt inside them.
 * A name that only appears across the joins of ordinary words (`alumn|idirect|or`) is chance (src/checks/wordRuns.ts).
 */
function embeddedName(label: string): KnownDomain | undefined {
  // A label that is an ordinary word (`infinity`) holds no brand, whatever brand it contains or nearly contains.
  if (isOrdinaryWord(label)) return undefined;
  const tokens = label.split(/[-0-9.]+/).filter((t) => t.length > 0);
  const asToken =
    tokens.length < 2
      ? undefined
      : tokens.map((t) => BY_LABEL.get(t)).find((k) => k !== undefined && k.label.length >= MIN_EMBEDDED_NAME && !isOrdinaryWord(k.label));
  return asToken ?? runTogetherName(label);
}

/** The shortest, then leftmost, distinctive name run together with other letters that is not there by chance; else one misspelt inside. */
function runTogetherName(label: string): KnownDomain | undefined {
  for (const found of distinctiveNamesInside(label)) {
    if (!isChanceMatch(label, found.start, found.start + found.length)) return found.known;
  }
  return misspeltInside(label);
}

interface NameAt {
  start: number;
  length: number;
  known: KnownDomain;
}

/** Every distinctive name spelt inside the label (shorter than it), shortest first, then leftmost: one trie walk from each start. */
function distinctiveNamesInside(label: string): NameAt[] {
  const found: NameAt[] = [];
  for (let start = 0; start < label.length; start += 1) {
    let node: TrieNode<KnownDomain> | undefined = DISTINCTIVE_NAMES;
    for (let at = start; at < label.length; at += 1) {
      node = childOf(node, label.charCodeAt(at));
      if (node === undefined) break;
      const length = at - start + 1;
      if (node.values.length > 0 && length < label.length) found.push({ start, length, known: node.values[0]! });
    }
  }
  return found.length > 1 ? found.sort((a, b) => a.length - b.length || a.start - b.start) : found;
}

/**
 * A long distinctive name one edit away from a part of the label that is not
 * itself a word (`biinancelab`). A part one letter shorter than the name
 * counts only as a whole token (`myethrwallet-login`): inside a longer run of
 * letters it is mostly the start of another word.
 */
function misspeltInside(label: string): KnownDomain | undefined {
  const maxLength = Math.min(label.length - 1, MAX_TYPO_WINDOW);
  // The names are letters, so without surrogates in the label a code point is a UTF-16 unit and an
  // edit of one is an edit of the other: the in-place test below then rules out what isTypoOf would.
  const unitsAreCodePoints = !/[\uD800-\uDFFF]/.test(label);
  let best: { window: Window<KnownDomain>; rank: number } | null = null;
  for (const window of TYPO_WINDOWS.candidates(label, MIN_RUN_TOGETHER_TYPO - 1, maxLength)) {
    // A part longer, or as long and further right, than the best so far cannot come first.
    if (best !== null && (window.length - best.window.length || window.start - best.window.start) > 0) continue;
    const whole = isWholeToken(label, window.start, window.length);
    if (!(whole || window.length >= window.known.label.length)) continue;
    // Most candidates share only a key with the name: a test in place drops them before any slice or word look-up.
    if (unitsAreCodePoints && !isWithinOneEditAt(label, window.start, window.length, window.known.label)) continue;
    const text = label.slice(window.start, window.start + window.length);
    if (isOrdinaryWord(text) || isTypoOf(text, window.known.label) !== 1) continue;
    if (isChanceMatch(label, window.start, window.start + window.length)) continue;
    const rank = keyRank(text, window.known.label);
    if (best === null || compareWindows(window, rank, best.window, best.rank) < 0) best = { window, rank };
  }
  return best?.window.known;
}

/**
 * Whether `label[start, start + length)` is at most one inserted, dropped,
 * substituted or swapped character from `name`, compared in place by UTF-16
 * unit: after the first difference, the rest must line up past that one edit.
 */
function isWithinOneEditAt(label: string, start: number, length: number, name: string): boolean {
  if (Math.abs(length - name.length) > 1) return false;
  const common = Math.min(length, name.length);
  let i = 0;
  while (i < common && label.charCodeAt(start + i) === name.charCodeAt(i)) i += 1;
  if (i === common) return true;
  if (length > name.length) return sameAt(label, start + i + 1, name, i, name.length - i);
  if (length < name.length) return sameAt(label, start + i, name, i + 1, length - i);
  const substituted = sameAt(label, start + i + 1, name, i + 1, length - i - 1);
  const swapped =
    i + 1 < length &&
    label.charCodeAt(start + i) === name.charCodeAt(i + 1) &&
    label.charCodeAt(start + i + 1) === name.charCodeAt(i) &&
    sameAt(label, start + i + 2, name, i + 2, length - i - 2);
  return substituted || swapped;
}

/** Whether `count` characters of `a` from `aStart` equal those of `b` from `bStart`. */
function sameAt(a: string, aStart: number, b: string, bStart: number, count: number): boolean {
  for (let k = 0; k < count; k += 1) if (a.charCodeAt(aStart + k) !== b.charCodeAt(bStart + k)) return false;
  return true;
}

/**
 * The order the search reports a match in when several parts or names
 * qualify: the shortest part, then the leftmost, then the name reached
 * through the earliest of the part's own spellings (itself, then each
 * one-letter deletion left to right), then the name listed first.
 */
function compareWindows(a: Window<KnownDomain>, aRank: number, b: Window<KnownDomain>, bRank: number): number {
  return a.length - b.length || a.start - b.start || aRank - bRank || a.order - b.order;
}

/** Which of the part's spellings (itself, then its deletions in order) first meets the name or one of its deletions. */
function keyRank(part: string, name: string): number {
  const keys = new Set([name, ...deletions(name)]);
  const spellings = [part, ...deletions(part)];
  const at = spellings.findIndex((spelling) => keys.has(spelling));
  return at === -1 ? Infinity : at;
}

const isSeparator = (c: string | undefined) => c === undefined || /[-0-9.]/.test(c);
const isWholeToken = (label: string, start: number, length: number) => isSeparator(label[start - 1]) && isSeparator(label[start + length]);

/**
 * Counts of characters in 64 buckets (code point mod 64): two edits change
 * them by at most 4 in all (a swap by 0). Characters sharing a bucket only
 * make the bound looser, never wrong, and the arrays cost no allocation to compare.
 */
function histogram(text: string): Uint8Array {
  const counts = new Uint8Array(64);
  for (let i = 0; i < text.length; i += 1) counts[text.charCodeAt(i) & 63]! += 1;
  return counts;
}

/** Which histogram buckets the text uses: bit i of `low` for bucket i, bit i of `high` for bucket 32 + i. */
function bucketMasks(text: string): { low: number; high: number } {
  let low = 0;
  let high = 0;
  for (let i = 0; i < text.length; i += 1) {
    const bucket = text.charCodeAt(i) & 63;
    if (bucket < 32) low |= 1 << bucket;
    else high |= 1 << (bucket - 32);
  }
  return { low, high };
}

/** The number of set bits in a 32-bit integer. */
function bitCount(bits: number): number {
  let v = bits - ((bits >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

/** Whether the counts differ by at most `gap` in all, stopping as soon as they differ by more. */
function withinHistogramGap(a: Uint8Array, b: Uint8Array, gap: number): boolean {
  let d = 0;
  for (let i = 0; i < 64 && d <= gap; i += 1) d += Math.abs(a[i]! - b[i]!);
  return d <= gap;
}

const HISTOGRAMS: ReadonlyMap<KnownDomain, Uint8Array> = new Map(
  KNOWN.filter((k) => k.label.length >= ONE_EDIT_NAME).map((k) => [k, histogram(k.label)]),
);
// Two edits move the character counts by at most this much, so a larger gap rules a name out cheaply.
const MAX_HISTOGRAM_GAP = 4;

// Four letters is the length of acronyms (universities and schools: `udem.edu`, `tesc.edu`), so a
// label that short is read as another name, not as a five-letter brand with a letter dropped; except
// against the mail providers people type their address at every day (`gmai.com`, `yaho.com`).
const MIN_TYPO_LABEL = 5;

/** The closest typo target: fewest edits, then first in KNOWN's order (.com first, then shorter), whatever its length. */
interface ClosestTypo {
  known: KnownDomain | null;
  distance: number;
  rank: number;
}

function closestTypo(label: string): Resemblance | null {
  const length = Array.from(label).length;
  const closest: ClosestTypo = { known: null, distance: Infinity, rank: Infinity };
  // The label itself, then each of its deletions: every key a name one edit away is indexed under.
  // A label longer than such names by two or more is no one's one-edit typo.
  for (let at = -1; at < label.length && label.length <= ONE_EDIT_NAME; at += 1) {
    for (const target of ONE_EDIT_TARGETS.get(at === -1 ? label : deletion(label, at)) ?? []) {
      if (Math.abs(target.length - length) <= 2) considerTypo(label, length, target, closest);
    }
  }
  let counts: Uint8Array | null = null;
  const { low, high } = bucketMasks(label);
  for (let targetLength = length - 2; targetLength <= length + 2; targetLength += 1) {
    for (const target of TWO_EDIT_TARGETS_BY_LENGTH.get(targetLength) ?? []) {
      // Each bucket one side uses and the other does not adds at least one to the histogram gap:
      // a bit count rules most names out before the counts are compared.
      if (bitCount(low ^ target.low) + bitCount(high ^ target.high) > MAX_HISTOGRAM_GAP) continue;
      counts ??= histogram(label);
      const knownCounts = HISTOGRAMS.get(target.known);
      if (knownCounts !== undefined && !withinHistogramGap(counts, knownCounts, MAX_HISTOGRAM_GAP)) continue;
      considerTypo(label, length, target, closest);
    }
  }
  return closest.known === null ? null : { kind: 'typo', known: closest.known.domain, distance: closest.distance };
}

/** Keeps the target in `closest` when the label is its typo and it comes before the closest so far. */
function considerTypo(label: string, length: number, target: TypoTarget, closest: ClosestTypo): void {
  if (length < MIN_TYPO_LABEL && !COMMON_FREE_MAIL.has(target.known.domain)) return;
  const distance = isTypoOf(label, target.known.label);
  if (distance === null) return;
  const rank = RANK.get(target.known)!;
  if (distance < closest.distance || (distance === closest.distance && rank < closest.rank)) {
    closest.known = target.known;
    closest.distance = distance;
    closest.rank = rank;
  }
}

const isOwnName = (subdomain: string) => subdomain === '' || subdomain === 'www';

/**
 * The answer for what was found. What the site's own name resembles is a fact
 * about the site (`judged: 'site'`: `www.paypa1.com` and `paypa1.com` are one
 * imitation, counted once); what a sub-domain spells is about that host.
 */
function answerFor(found: Resemblance | null, view: HostView): SignalAnswer {
  const domain = view.registrable ?? view.hostname;
  if (found === null) return neutral(`The domain ${domain} does not resemble any of the well-known domains it was compared with.`);
  switch (found.kind) {
    case 'is_well_known':
      // Being the site itself is no imitation of it. That the site is established is one fact, the
      // established_site check's (src/checks/establishedSiteCheck.ts): not counted here again.
      return isOwnName(view.subdomain)
        ? neutral(`The domain is the well-known domain ${found.known} itself, not an imitation of it.`)
        : neutral(
            `The host ${view.hostname} is below the well-known domain ${found.known}, which may give such names to other people's pages.`,
          );
    case 'known_site':
      return neutral(`The domain ${found.known} is a company's known site, not an imitation of a well-known domain.`);
    case 'own_site':
      return neutral(
        `The host ${found.known} is a company's own site on another domain, as the company's maintained data names it, not an imitation of a well-known domain.`,
      );
    case 'platform_imitation':
      return weakens(
        `The site ${view.platform?.site ?? domain} on a shared hosting platform is named like the well-known domain ${found.known}.`,
        { judged: 'site' },
      );
    case 'same_name_other_suffix':
      return neutral(`The domain ${domain} shares its name with the well-known domain ${found.known} under a different suffix.`);
    case 'subdomain_imitation':
      return weakens(`The host ${view.hostname} begins like the well-known domain ${found.known} but belongs to ${domain}.`);
    case 'confusable':
      return weakens(`The domain ${domain} reads like the well-known domain ${found.known} at a glance.`, { judged: 'site' });
    case 'typo': {
      const edits = found.distance === 1 ? '1 edit' : `${found.distance} edits`;
      return weakens(`The domain ${domain} is ${edits} away from the well-known domain ${found.known}, a pattern used to imitate it.`, {
        judged: 'site',
      });
    }
    case 'spelled_domain':
      return weakens(
        `The host ${view.hostname} spells the domain name ${found.known} before its own domain ${domain}, so it reads as ${found.known} at a glance.`,
        { kind: 'domain_in_host' },
      );
    case 'embedded_name':
      return weakens(`The domain ${domain} contains the name of the well-known domain ${found.known} without belonging to it.`, {
        kind: 'brand_embedded',
        judged: 'site',
      });
    case 'borrowed_name':
      return weakens(
        `The host ${view.hostname} below the well-known domain ${found.within} carries the name of the well-known domain ${found.known}.`,
        { kind: 'brand_embedded' },
      );
    case 'subdomain_name':
      return weakens(
        `The host ${view.hostname} names the well-known domain ${found.known} in a sub-domain of ${found.within}, which is not its.`,
        { kind: 'brand_embedded' },
      );
    case 'subdomain_disguise':
      return weakens(
        `The host ${view.hostname} names the well-known domain ${found.known} in disguise in a sub-domain of ${found.within}.`,
      );
    case 'borrowed_disguise':
      return weakens(
        `The host ${view.hostname} below the well-known domain ${found.within} carries the name of the well-known domain ${found.known} in disguise.`,
      );
  }
}

// Popular hosts (the large mail providers) come back inquiry after inquiry; the answer depends on the host alone.
const LOOKALIKE_ANSWERS_HELD = 10_000;

/** The check over one popularity list: its answers are memoised per host, so each list has its own memo. */
export function lookalikeCheck(list: PopularityList): CheckDefinition {
  const isRanked = (registrable: string) => rankOf(list, registrable) !== undefined;
  const lookalikeAnswer = hostMemo(LOOKALIKE_ANSWERS_HELD, (host, what) => {
    const view = viewHost(host);
    if (view.isIp) return neutral(`The ${what} names an IP address, which has no name to compare.`);
    if (view.registrable === null) return absent('no_data', `The ${what} has no registrable domain to compare.`);
    return answerFor(resemblance(view, isRanked), view);
  });
  return defineCheck(
    {
      ...OFFLINE,
      id: 'domain_lookalike',
      judges: 'host',
      kind: 'domain_lookalike',
      looksAt: 'the registrable domain against well-known domains (typos, confusables, embedded names)',
      declares: [
        {
          disposition: 'weakens',
          strength: 'moderate',
          reason:
            'A typo, confusable, sub-domain or platform imitation of a well-known brand exists to deceive, but measured: real businesses with brand-like names show it too, so moderate.',
        },
        {
          kind: 'brand_embedded',
          disposition: 'weakens',
          strength: 'strong',
          reason:
            'A brand name beside other words (paypal-login) is the usual combosquat: measured many times more often on phishing than on good names, though resellers and fan sites do it honestly too.',
        },
        {
          kind: 'domain_in_host',
          disposition: 'weakens',
          strength: 'moderate',
          reason:
            'A complete domain name spelt before the real one (wallet.com.verify-now.xyz) exists to be misread; a few honest hosts (storage buckets named after a site) have the shape too.',
        },
        { disposition: 'neutral', reason: 'Not resembling a well-known domain, or an address at one, says nothing either way.' },
      ],
      artifactTypes: ['EMAIL', 'DOMAIN', 'URL'],
      trustBand: 'medium',
      dataClass: PUBLIC_FACT,
      sources: [...BRAND_SOURCES, FREE_MAIL_SOURCE, ENGLISH_WORDS_SOURCE, PLACE_NAMES_SOURCE, CONFUSABLES_SOURCE, POPULARITY_SOURCE],
      snapshot: list.snapshot,
    },
    ({ presentation }) => answerAboutHost(presentation, lookalikeAnswer),
  );
}

export async function createChecks(config: CheckDiscoveryConfig): Promise<CheckDefinition[]> {
  return [lookalikeCheck(await popularityList(config.popularityFile))];
}
