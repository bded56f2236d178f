import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';
import { cleanupAll, installExitHandlers } from './lib/children.js';
import { preflight, startService, type ServiceHandle } from './lib/service.js';
import { DISPOSABLE_EMAIL_DOMAINS } from '../src/checks/emailDomains.js';
import { BRAND_DOMAINS } from '../src/checks/brandDomains.js';

/**
 * `npm run bench:quality`: does the answer tell bad subjects from good ones?
 *
 * The corpus is labelled from public lists that no check reads (they are
 * devDependencies; test/checks/heldOut.test.ts fails if a check imports one):
 * - EMAIL bad:  addresses at domains of `fakefilter` (temporary-inbox
 *   domains seen live at the services) and `disposable-email-domains-js`
 *   (the disposable-email-domains project); neither is aggregated into the
 *   checks' lists (the bench prints how much of each class the checks' data
 *   happens to hold). `disposable-email-domains` and `burner-email-providers`
 *   were the held-out lists until the checks read `disposable-domains`,
 *   which aggregates both; EMAIL good: addresses at the legitimate
 *   domains of `eth-phishing-detect`'s allowlist (real businesses, many of
 *   them brand-like names);
 * - DOMAIN bad: `eth-phishing-detect`'s blocklist (reported phishing);
 *   DOMAIN good: its allowlist;
 * - URL: the same domains as DOMAIN, each behind the same set of paths for
 *   both labels, so the path says nothing about the label.
 * Local parts of the emails come from one generator for both labels.
 *
 * Each subject goes through the live API (a fresh service, inline tier t0,
 * network checks off) and the answer is scored: AUC is the probability that a
 * bad subject scores below a good one (ties count half), widths are
 * high - low. The sample is drawn with a fixed seed, so reruns see the same
 * corpus; `--per-class N` sets its size. Never tune a check to this corpus.
 *
 * Last, false alarms: as many legitimate mail providers (`email-providers`,
 * none in the brand or disposable data) asked about as addresses, and the
 * share marked as an imitation of a well-known name.
 */
const require = createRequire(import.meta.url);
type Label = 'bad' | 'good';
interface Case { type: 'EMAIL' | 'DOMAIN' | 'URL'; value: string; label: Label }
interface Answer extends Case { score: number; width: number; strong: boolean; evidence: string[] }

const args = parseArgs({ options: { 'per-class': { type: 'string' }, seed: { type: 'string' }, concurrency: { type: 'string' }, dump: { type: 'string' } } }).values;
const PER_CLASS = Number(args['per-class'] ?? 400);
const SEED = Number(args.seed ?? 20261125);
const CONCURRENCY = Number(args.concurrency ?? 8);

/** mulberry32: a small, fixed PRNG so the sample is the same on every machine. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function sample<T>(items: readonly T[], n: number, random: () => number): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy.slice(0, n);
}

const isDomain = (d: string) => /^[a-z0-9.-]+\.[a-z]{2,}$/i.test(d) && !d.startsWith('*');

function heldOutLists() {
  const phishing = require('eth-phishing-detect/src/config.json') as { whitelist: string[]; blacklist: string[] };
  const disposable = [
    ...Object.keys((require('fakefilter/json/data.json') as { domains: Record<string, unknown> }).domains),
    ...(require('disposable-email-domains-js/dist/dict/disposable_email_blocklist.json') as string[]),
  ].map((d) => d.trim().toLowerCase()).filter(isDomain);
  const allow = phishing.whitelist.map((d) => d.toLowerCase()).filter(isDomain);
  const block = phishing.blacklist.map((d) => d.toLowerCase()).filter(isDomain);
  return { disposable: [...new Set(disposable)], allow: [...new Set(allow)], block: [...new Set(block)] };
}

const FIRST = ['anna', 'ben', 'carla', 'dev', 'emma', 'farid', 'grace', 'hugo', 'ines', 'jon', 'kemi', 'liam', 'maria', 'noah', 'olga', 'pedro'];
const LAST = ['smith', 'garcia', 'khan', 'müller', 'rossi', 'silva', 'nguyen', 'okafor', 'dubois', 'kowalski', 'tanaka', 'jones'];
const PATHS = ['/', '/login', '/account/verify', '/index.html', '/support', '/wallet/connect'];

function localPart(random: () => number): string {
  const first = FIRST[Math.floor(random() * FIRST.length)]!;
  const last = LAST[Math.floor(random() * LAST.length)]!.replace('ü', 'u');
  const shapes = [`${first}.${last}`, `${first}${last}`, `${first[0]}${last}`, `${first}.${last}${Math.floor(random() * 90) + 10}`];
  return shapes[Math.floor(random() * shapes.length)]!;
}

function corpus(): Case[] {
  const random = prng(SEED);
  const lists = heldOutLists();
  const email = (domains: string[], label: Label): Case[] => sample(domains, PER_CLASS, random).map((d) => ({ type: 'EMAIL', value: `${localPart(random)}@${d}`, label }));
  const domain = (domains: string[], label: Label): Case[] => sample(domains, PER_CLASS, random).map((d) => ({ type: 'DOMAIN', value: d, label }));
  const url = (domains: string[], label: Label): Case[] => sample(domains, PER_CLASS, random).map((d) => ({ type: 'URL', value: `https://${d}${PATHS[Math.floor(random() * PATHS.length)]}`, label }));
  return [
    ...email(lists.disposable, 'bad'), ...email(lists.allow, 'good'),
    ...domain(lists.block, 'bad'), ...domain(lists.allow, 'good'),
    ...url(lists.block, 'bad'), ...url(lists.allow, 'good'),
  ];
}

async function ask(service: ServiceHandle, c: Case): Promise<Answer> {
  const res = await fetch(`http://127.0.0.1:${service.port}/v1/inquiries`, {
    method: 'POST',
    headers: { authorization: `Bearer ${service.keys.test}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      subject: { presentations: [{ type: c.type, value: c.value }] },
      intent: 'pre_transaction', purpose: 'fraud_prevention', tier_ceiling: 't0',
      stake: { kind: 'payment', amount: 50, currency: 'GBP' },
    }),
  });
  const body = (await res.json()) as any;
  if (res.status !== 200) throw new Error(`inquiry for a ${c.type} answered ${res.status}: ${JSON.stringify(body).slice(0, 300)}`);
  const a = body.assessment;
  const findings: any[] = body.findings?.findings ?? [];
  const strong = findings.some((f) => f.disposition !== 'neutral' && f.strength === 'strong');
  // For --dump: which signals moved the answer (kind:disposition:strength:band), to read where a check errs.
  const evidence = findings.filter((f) => f.disposition !== 'neutral').map((f) => `${f.kind}:${f.disposition}:${f.strength}:${f.trust_band}`);
  return { ...c, score: a.score, width: a.high - a.low, strong, evidence };
}

async function askAll(service: ServiceHandle, cases: Case[]): Promise<Answer[]> {
  const answers: Answer[] = new Array(cases.length);
  let next = 0;
  const worker = async () => {
    while (next < cases.length) {
      const i = next++;
      answers[i] = await ask(service, cases[i]!);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return answers;
}

/** P(bad scores below good), ties half: the Mann-Whitney U statistic over all pairs. */
export function auc(bad: readonly number[], good: readonly number[]): number {
  let wins = 0;
  for (const b of bad) for (const g of good) wins += b < g ? 1 : b === g ? 0.5 : 0;
  return wins / (bad.length * good.length);
}

const mean = (xs: readonly number[]) => (xs.length === 0 ? NaN : xs.reduce((s, x) => s + x, 0) / xs.length);
const round = (x: number, d = 3) => Math.round(x * 10 ** d) / 10 ** d;

function report(answers: Answer[]) {
  const rows = [];
  for (const type of ['EMAIL', 'DOMAIN', 'URL'] as const) {
    const of = answers.filter((a) => a.type === type);
    const bad = of.filter((a) => a.label === 'bad');
    const good = of.filter((a) => a.label === 'good');
    const strong = of.filter((a) => a.strong);
    rows.push({
      type, n_bad: bad.length, n_good: good.length,
      auc: round(auc(bad.map((a) => a.score), good.map((a) => a.score))),
      mean_score_bad: round(mean(bad.map((a) => a.score)), 1), mean_score_good: round(mean(good.map((a) => a.score)), 1),
      mean_width_bad: round(mean(bad.map((a) => a.width)), 1), mean_width_good: round(mean(good.map((a) => a.width)), 1),
      n_strong: strong.length, mean_width_strong: round(mean(strong.map((a) => a.width)), 1),
    });
  }
  return rows;
}

/**
 * How much of each held-out class the checks' own data happens to hold
 * (independent lists overlap because they catalogue the same services):
 * printed beside the figures so a reader sees how much of an AUC is list
 * membership and how much is everything else.
 */
function overlap(cases: Case[]) {
  const brands = new Set(BRAND_DOMAINS);
  const domainOf = (c: Case) => (c.type === 'EMAIL' ? c.value.slice(c.value.lastIndexOf('@') + 1) : c.type === 'URL' ? new URL(c.value).hostname : c.value);
  const share = (of: Case[], has: (d: string) => boolean) => round(of.filter((c) => has(domainOf(c))).length / Math.max(1, of.length));
  const emailBad = cases.filter((c) => c.type === 'EMAIL' && c.label === 'bad');
  const domainsLabelled = (label: Label) => cases.filter((c) => c.type === 'DOMAIN' && c.label === label);
  return {
    email_bad_in_disposable_data: share(emailBad, (d) => DISPOSABLE_EMAIL_DOMAINS.has(d)),
    domain_good_in_brand_data: share(domainsLabelled('good'), (d) => brands.has(d)),
    domain_bad_in_brand_data: share(domainsLabelled('bad'), (d) => brands.has(d)),
  };
}

/**
 * False alarms on names known to be legitimate: a sample of the mail
 * providers of `email-providers` (real services, which the look-alike check
 * does not exempt), none of them in the disposable or brand data, asked
 * about as addresses. Printed as the share marked as an imitation of a
 * well-known name, the error the issue forbids for honest domains.
 */
const IMPERSONATION_KINDS = new Set(['domain_lookalike', 'brand_embedded', 'domain_in_host', 'domain_homograph']);

function providerCases(random: () => number): Case[] {
  const brands = new Set(BRAND_DOMAINS);
  const providers = (require('email-providers/all.json') as string[]).map((d) => d.toLowerCase()).filter((d) => !brands.has(d) && !DISPOSABLE_EMAIL_DOMAINS.has(d)).sort();
  return sample(providers, PER_CLASS, random).map((domain) => ({ type: 'EMAIL' as const, value: `${localPart(random)}@${domain}`, label: 'good' as const }));
}

function falseAlarms(answers: Answer[]) {
  const imitation = answers.filter((a) => a.evidence.some((e) => IMPERSONATION_KINDS.has(e.split(':')[0]!) && e.split(':')[1] === 'weakens'));
  return { providers: answers.length, marked_as_imitation: imitation.length, share: round(imitation.length / Math.max(1, answers.length)) };
}

async function main() {
  installExitHandlers();
  await preflight();
  const cases = corpus();
  process.stderr.write(`bench:quality: ${cases.length} subjects (seed ${SEED}, ${PER_CLASS} per class and type)\n`);
  console.log(JSON.stringify({ overlap: overlap(cases) }));
  const service = await startService();
  try {
    const answers = await askAll(service, cases);
    // --dump FILE: one JSON line per subject, for reading the errors; the figures stay those printed below.
    if (args.dump) writeFileSync(args.dump, answers.map((a) => JSON.stringify(a)).join('\n') + '\n');
    const rows = report(answers);
    for (const row of rows) console.log(JSON.stringify(row));
    console.table(rows);
    const providers = await askAll(service, providerCases(prng(SEED + 1)));
    if (args.dump) writeFileSync(`${args.dump}.providers`, providers.map((a) => JSON.stringify(a)).join('\n') + '\n');
    console.log(JSON.stringify({ false_alarms_on_mail_providers: falseAlarms(providers) }));
  } finally {
    await service.stop();
    await cleanupAll();
  }
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) {
  main().catch((error) => {
    console.error(error);
    process.exitCode = 1;
  });
}
