import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'tldts';
import { stringsIn } from './lib/nestedStrings.js';
import { unpackPinned } from './lib/unpackPinned.js';

/**
 * Builds src/checks/data/brandDomains.json, the well-known brands the
 * look-alike check compares domains with, from two data packages pinned as
 * devDependencies. First simple-icons (CC0-1.0): every brand icon names
 * the page its logo came from (`source`) and often its brand guidelines. A
 * brand's domain is taken from those URLs only when the registrable label is
 * the brand's own name (its slug, title or an alias, letters and digits
 * only), so a logo hosted on GitHub or Wikimedia never makes github.org or
 * wikimedia.org "the brand's domain". Run `npm run data:brands` after
 * upgrading simple-icons; the output names the version and date.
 */
const PACKAGE = 'simple-icons';
// The package exports neither its package.json nor its data file, so both are read from its folder.
const packageDir = fileURLToPath(new URL(`../node_modules/${PACKAGE}/`, import.meta.url));
const version = (JSON.parse(readFileSync(`${packageDir}package.json`, 'utf8')) as { version: string }).version;

interface Icon {
  title: string;
  slug?: string;
  source?: string;
  guidelines?: string;
  aliases?: { aka?: string[] };
}
const raw = JSON.parse(readFileSync(`${packageDir}data/simple-icons.json`, 'utf8')) as Icon[] | { icons: Icon[] };
const icons = Array.isArray(raw) ? raw : raw.icons;

const squash = (s: string) =>
  s
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');

function ownDomain(icon: Icon): string | null {
  // A title that is itself a domain (`Blockchain.com`) names the brand by its label too.
  const titleLabel = parse(icon.title).domainWithoutSuffix ?? '';
  const names = new Set([icon.slug ?? '', icon.title, titleLabel, ...(icon.aliases?.aka ?? [])].map(squash).filter((n) => n.length >= 3));
  for (const address of [icon.source, icon.guidelines]) {
    if (!address) continue;
    const parsed = parse(address, { allowPrivateDomains: false });
    if (!parsed.domain || !parsed.domainWithoutSuffix || parsed.isIp) continue;
    if (names.has(squash(parsed.domainWithoutSuffix))) return parsed.domain.toLowerCase();
  }
  return null;
}

/**
 * Second source, same rule: third-party-web (MIT) names the companies behind
 * the scripts of the web's top sites, with their homepage and the domains
 * they serve from. A homepage or served domain counts when its registrable
 * label is the company's or the product's name (Facebook, Google, Stripe...).
 */
const TPW = 'third-party-web';
const tpwDir = fileURLToPath(new URL(`../node_modules/${TPW}/`, import.meta.url));
const tpwVersion = (JSON.parse(readFileSync(`${tpwDir}package.json`, 'utf8')) as { version: string }).version;
interface Entity {
  name: string;
  company?: string;
  homepage?: string;
  domains?: string[];
}
const entities = JSON.parse(readFileSync(`${tpwDir}dist/entities-nostats.json`, 'utf8')) as Entity[];

function entityDomains(entity: Entity): string[] {
  const names = new Set([entity.name, entity.company ?? ''].map(squash).filter((n) => n.length >= 3));
  const candidates = [entity.homepage ?? '', ...(entity.domains ?? []).map((d) => `https://${d.replace(/^\*\./, '')}/`)];
  const found: string[] = [];
  for (const address of candidates) {
    const parsed = parse(address, { allowPrivateDomains: false });
    if (parsed.domain && parsed.domainWithoutSuffix && !parsed.isIp && names.has(squash(parsed.domainWithoutSuffix)))
      found.push(parsed.domain.toLowerCase());
  }
  return found;
}

/** A company as a source names it: its names, and the addresses it is seen serving from or sending users to. */
interface Owner {
  names: readonly string[];
  addresses: readonly string[];
}

const entityOwners = (): Owner[] =>
  entities.map((entity) => ({
    names: [entity.name, entity.company ?? ''],
    addresses: (entity.domains ?? []).map((d) => `https://${d.replace(/^\*\./, '')}/`),
  }));

/**
 * A brand's own compound domains: the domains a company that is itself a
 * brand here (by any source) serves from, in third-party-web, or points its
 * API clients to, in ccxt, whose label holds the brand's name with other words
 * (paypalobjects.com, githubusercontent.com, binancefuture.com).
 * They have the combosquat's shape, so without them the look-alike check would
 * mark the brand's own infrastructure as an imitation of the brand. Names of
 * five letters or more only: a short name inside a longer label is chance.
 */
function ownCompounds(brands: readonly string[], owners: readonly Owner[]): string[] {
  const brandLabels = new Set(brands.map((d) => squash(parse(d).domainWithoutSuffix ?? '')));
  return owners.flatMap((owner) => {
    const long = owner.names.map(squash).filter((n) => n.length >= 5 && brandLabels.has(n));
    return long.length === 0 ? [] : compoundsOf(owner, long);
  });
}

function compoundsOf(owner: Owner, long: readonly string[]): string[] {
  const found: string[] = [];
  for (const address of owner.addresses) {
    const parsed = parse(address, { allowPrivateDomains: false });
    if (!parsed.domain || !parsed.domainWithoutSuffix || parsed.isIp) continue;
    const label = squash(parsed.domainWithoutSuffix);
    if (long.some((name) => label !== name && label.includes(name))) found.push(parsed.domain.toLowerCase());
  }
  return found;
}

/**
 * A company's own sites on other people's domains: on a shared platform
 * (public suffix list, private section: `bybit-exchange.github.io`,
 * `hyperliquid.gitbook.io`, `webpack.js.org`) the site whose name holds the
 * company's name, and elsewhere the host whose sub-domain does
 * (`hashkeyglobal-apidoc.readme.io`), when the company's own data points
 * there (third-party-web's served hosts, ccxt's documentation and API pages,
 * simple-icons' logo and guideline pages). The check reads a brand name on
 * a platform or in another domain's sub-domain as an imitation, so without
 * them it would mark these as imitations of their owner.
 */
function ownSitesElsewhere(owners: readonly Owner[]): string[] {
  const found = new Set<string>();
  for (const owner of owners) {
    const names = owner.names.map(squash).filter((n) => n.length >= 4);
    const holdsName = (text: string) => names.some((name) => squash(text).includes(name));
    for (const address of owner.addresses) {
      const parsed = parse(address, { allowPrivateDomains: true });
      if (!parsed.domain || !parsed.domainWithoutSuffix || parsed.isIp || !parsed.hostname) continue;
      if (parsed.isPrivate === true) {
        if (holdsName(parsed.domainWithoutSuffix)) found.add(parsed.domain.toLowerCase());
      } else if (parsed.subdomain && !holdsName(parsed.domainWithoutSuffix) && holdsName(parsed.subdomain)) {
        found.add(parsed.hostname.toLowerCase());
      }
    }
  }
  return [...found].sort();
}

/**
 * Third source, same rule: ccxt (MIT), the maintained library of
 * cryptocurrency exchange APIs, names every exchange it supports with its
 * website (`urls.www`): the exchanges are among the most imitated brands and
 * the first two sources barely list them.
 */
const CCXT = 'ccxt';
const ccxtDir = fileURLToPath(new URL(`../node_modules/${CCXT}/`, import.meta.url));
const ccxtVersion = (JSON.parse(readFileSync(`${ccxtDir}package.json`, 'utf8')) as { version: string }).version;

interface Exchange {
  id: string;
  names: Set<string>;
  www: string[];
  urls: string[];
}

async function exchanges(): Promise<Exchange[]> {
  const ccxt = ((await import(CCXT)) as { default: Record<string, unknown> & { exchanges: string[] } }).default;
  return ccxt.exchanges.map((id) => {
    const Exchange = ccxt[id] as new () => { name?: string; urls?: { www?: string | string[] } };
    const exchange = new Exchange();
    const www = exchange.urls?.www;
    return {
      id,
      names: new Set([id, exchange.name ?? ''].map(squash).filter((n) => n.length >= 3)),
      www: Array.isArray(www) ? www : [www ?? ''],
      // Templated API hosts (`https://{hostname}/api`) are filled so that they parse; only real names can match.
      urls: stringsIn(exchange.urls).map((u) => u.replace(/\{[^}]*\}/g, 'x')),
    };
  });
}

function exchangeDomains(all: readonly Exchange[]): string[] {
  const found: string[] = [];
  for (const exchange of all) {
    for (const address of exchange.www) {
      const parsed = parse(address, { allowPrivateDomains: false });
      if (parsed.domain && parsed.domainWithoutSuffix && !parsed.isIp && exchange.names.has(squash(parsed.domainWithoutSuffix)))
        found.push(parsed.domain.toLowerCase());
    }
  }
  return found;
}

/**
 * Fourth source: top-sites (MIT), the Moz list of the 500 domains with the
 * most linking root domains, refreshed by its maintainer. Popularity is the
 * reason a domain gets imitated, and the first three sources miss some of the
 * most imitated (amazon.com, whatsapp.com, booking.com). Every entry counts by
 * its registrable domain, except shared platforms (blogspot.com, netlify.app):
 * their users' sites are not the platform's own, and the shared-hosting rule
 * already covers a brand name under them.
 *
 * The package is not a dependency: its install script downloads the list
 * again from moz.com, which would make `npm install` need that site. The
 * pinned tarball is fetched with `npm pack` (no scripts run) and read here.
 */
const TOP = 'top-sites';
const TOP_VERSION = '1.1.222';

function topSiteDomains(): string[] {
  const sites = JSON.parse(readFileSync(join(unpackPinned(TOP, TOP_VERSION), 'top-sites.json'), 'utf8')) as { rootDomain: string }[];
  const found: string[] = [];
  for (const { rootDomain } of sites) {
    const parsed = parse(rootDomain, { allowPrivateDomains: false });
    if (!parsed.domain || !parsed.domainWithoutSuffix || parsed.isIp) continue;
    const asPlatform = parse(parsed.domain, { allowPrivateDomains: true });
    if (asPlatform.isPrivate && asPlatform.publicSuffix === parsed.domain) continue;
    found.push(parsed.domain.toLowerCase());
  }
  return found;
}

/**
 * Fifth source, same rule: RainbowKit (MIT), the maintained wallet-connection
 * kit of Ethereum apps, defines every wallet it offers with its name and the
 * pages it sends users to for the download (`downloadUrls`) and help. Wallets
 * are the brands crypto phishing imitates most (MetaMask, Ledger, Trust), and
 * the other sources miss nearly all of them. Like top-sites it is read from
 * its pinned tarball, not installed: it is a React library with peer
 * dependencies the service does not need. A page counts when its registrable
 * label is the wallet's id or name, with or without the word "wallet".
 */
const WALLETS = '@rainbow-me/rainbowkit';
const WALLETS_VERSION = '2.2.11';

function walletDomains(): string[] {
  const connectors = join(unpackPinned(WALLETS, WALLETS_VERSION), 'dist', 'wallets', 'walletConnectors');
  const found: string[] = [];
  for (const file of readdirSync(connectors).filter((f) => f.endsWith('.js'))) {
    const source = readFileSync(join(connectors, file), 'utf8');
    // One wallet per module: its definition names it once with `id:` and `name:` string literals.
    const id = /\bid: "([^"]+)"/.exec(source)?.[1];
    const name = /\bname: "([^"]+)"/.exec(source)?.[1];
    if (!id || !name) continue;
    const names = new Set([id, name, name.replace(/wallet/gi, '')].map(squash).filter((n) => n.length >= 3));
    for (const [address] of source.matchAll(/https:\/\/[a-z0-9.-]+/gi)) {
      const parsed = parse(address, { allowPrivateDomains: false });
      if (parsed.domain && parsed.domainWithoutSuffix && !parsed.isIp && names.has(squash(parsed.domainWithoutSuffix)))
        found.push(parsed.domain.toLowerCase());
    }
  }
  return found;
}

const allExchanges = await exchanges();
const exchangeOwners: Owner[] = allExchanges.map((e) => ({ names: [...e.names], addresses: e.urls }));
const iconOwners: Owner[] = icons.map((i) => ({
  names: [i.slug ?? '', i.title, ...(i.aliases?.aka ?? [])],
  addresses: [i.source ?? '', i.guidelines ?? ''],
}));
const named = [
  ...icons.map(ownDomain).filter((d): d is string => d !== null),
  ...entities.flatMap(entityDomains),
  ...exchangeDomains(allExchanges),
  ...topSiteDomains(),
  ...walletDomains(),
];
const domains = [...new Set([...named, ...ownCompounds(named, [...entityOwners(), ...exchangeOwners])])].sort();
const ownSites = ownSitesElsewhere([...entityOwners(), ...exchangeOwners, ...iconOwners]);

/**
 * Known sites that are no brand here: every other registrable domain
 * third-party-web attributes to a company (the hosts its scripts and
 * content are served from on the web's top sites, `licdn.com`,
 * `bstatic.com`), every site simple-icons took a logo or brand guidelines
 * from (its contributing rules ask for official sources: `adacore.com`,
 * `alibabagroup.com`), and every domain ccxt points an exchange's clients
 * to (`lbank.info`). A real site a maintained source names is no one's
 * imitation, so these are never compared against and their own names are
 * not read as imitations; being named is not a brand to imitate either.
 * Platforms (public suffix list, private section) are left out: their
 * sites are their users'.
 */
function knownSites(brands: ReadonlySet<string>, owners: readonly Owner[]): string[] {
  const found = new Set<string>();
  for (const address of owners.flatMap((o) => o.addresses)) {
    const parsed = parse(address, { allowPrivateDomains: false });
    // Only suffixes the public suffix list knows: ccxt's templated hosts (`{hostname}`) name none.
    if (!parsed.domain || parsed.isIp || parsed.isIcann !== true || brands.has(parsed.domain.toLowerCase())) continue;
    const asPlatform = parse(parsed.domain, { allowPrivateDomains: true });
    if (asPlatform.isPrivate && asPlatform.publicSuffix === parsed.domain) continue;
    found.add(parsed.domain.toLowerCase());
  }
  return [...found].sort();
}
const sites = knownSites(new Set(domains), [...entityOwners(), ...iconOwners, ...exchangeOwners]);
const out = {
  sources: [
    `${PACKAGE}@${version} (CC0-1.0, https://github.com/simple-icons/simple-icons): data/simple-icons.json source and guidelines URLs whose registrable label is the brand's own name, and those on another domain whose site or sub-domain name holds it (own_sites); every other registrable domain of those URLs is a known site (known_sites)`,
    `${TPW}@${tpwVersion} (MIT, https://github.com/patrickhulce/third-party-web): dist/entities-nostats.json homepages and served domains whose registrable label is the entity's or company's name, and, for those entities, the served domains whose label holds that name with other words; every other registrable domain it attributes to a company is a known site (known_sites), never compared against; served hosts on another domain whose site or sub-domain name holds the company's name are its own sites (own_sites)`,
    `${CCXT}@${ccxtVersion} (MIT, https://github.com/ccxt/ccxt): each supported exchange's website (urls.www) whose registrable label is the exchange's id or name; of all its URLs (documentation, API...), the domains whose label holds that name with other words, and the hosts on another domain whose site or sub-domain name holds it (own_sites); every other registrable domain of those URLs is a known site (known_sites)`,
    `${TOP}@${TOP_VERSION} (MIT, https://github.com/Kikobeats/top-sites): top-sites.json, the Moz top 500 domains, by registrable domain, shared platforms left out`,
    `${WALLETS}@${WALLETS_VERSION} (MIT, https://github.com/rainbow-me/rainbowkit): each wallet's download and help pages whose registrable label is the wallet's id or name`,
  ],
  packages: [
    { name: PACKAGE, version, licence: 'CC0-1.0' },
    { name: TPW, version: tpwVersion, licence: 'MIT' },
    { name: CCXT, version: ccxtVersion, licence: 'MIT' },
    { name: TOP, version: TOP_VERSION, licence: 'MIT' },
    { name: WALLETS, version: WALLETS_VERSION, licence: 'MIT' },
  ],
  generated_by: 'scripts/build-brand-domains.ts',
  generated_at: new Date().toISOString().slice(0, 10),
  domains,
  known_sites: sites,
  own_sites: ownSites,
};
writeFileSync(new URL('../src/checks/data/brandDomains.json', import.meta.url), `${JSON.stringify(out, null, 1)}\n`);
console.log(
  `wrote ${domains.length} brand domains, ${sites.length} known sites and ${ownSites.length} own sites on other domains from ${PACKAGE}@${version}, ${TPW}@${tpwVersion}, ${CCXT}@${ccxtVersion}, ${TOP}@${TOP_VERSION} and ${WALLETS}@${WALLETS_VERSION}`,
);
