/**
 * `npx tsx bench/names.ts [--write]`: how well the sanctions_name check
 * (src/checks/sanctionsNameCheck.ts) tells a listed party's name, typed as a
 * person would type it, from an ordinary name (METHODOLOGY.md section 8, rule 2).
 *
 * - bad: every person and organisation of the shipped list, its primary name
 *   presented once with realistic variants generated with a fixed seed:
 *   given names before the family name, case, diacritics added, an initial
 *   for a middle name, a middle name dropped, one romanisation changed
 *   (from a table of spellings other romanisation systems use, written from
 *   those systems, not from the check's rules: some it does not undo), an
 *   organisation's legal form dropped;
 * - good: ordinary names from `@faker-js/faker` (a devDependency no check
 *   reads), persons and companies in the locales that write names in Latin
 *   or Cyrillic letters, none derived from the list.
 *
 * Listed parties and ordinary names are split in two halves by a hash of
 * their entry number or their text (as bench/quality/corpus.ts halfOf): the
 * likelihood ratio of each grade is measured on the `measure` half, the flag
 * rates are reported on the `evaluate` half. `--write` writes the measured
 * rows to src/checks/data/nameLikelihoodRatios.json, which
 * src/checks/measuredStrengths.ts reads beside the quality bench's file.
 */
import { writeFileSync } from 'node:fs';
import * as fakers from '@faker-js/faker';
import type { Faker } from '@faker-js/faker';
import { halfOf, prng } from './quality/corpus.js';
import { measurementOf } from './quality/measure.js';
import { round1 } from './quality/stats.js';
import { DEFAULT_SANCTIONS_FILE, loadSanctionsList, parseSdn, type SdnRow } from '../src/checks/sanctionsList.js';
import { readFileSync } from 'node:fs';
import { sanctionsNameCheck } from '../src/checks/sanctionsNameCheck.js';
import type { CheckContext } from '../src/checks/types.js';

const SEED = 20240503;
const PERSONS_PER_LOCALE = 800;
const COMPANIES_PER_LOCALE = 100;
// Locales whose names are written in Latin letters, and in Cyrillic (which the check spells in Latin letters);
// a name in another script (Arabic, Chinese) never meets a list written in Latin letters, so it would flatter the rate.
const LOCALES = [
  'EN',
  'EN_GB',
  'EN_IN',
  'EN_NG',
  'DE',
  'FR',
  'FR_SN',
  'ES',
  'ES_MX',
  'IT',
  'PT_BR',
  'NL',
  'PL',
  'RO',
  'CS_CZ',
  'SR_RS_latin',
  'TR',
  'AZ',
  'UZ_UZ_latin',
  'KU_kmr_latin',
  'ID_ID',
  'VI',
  'RU',
  'UK',
] as const;

const KINDS = ['sanctions_match_exact', 'sanctions_match_strong', 'sanctions_match_weak'] as const;
const NEUTRAL = 'sanctions_match';

interface Subject {
  label: 'bad' | 'good';
  value: string;
  half: 'measure' | 'evaluate';
  group: string;
}

type Random = () => number;
const pick = <T>(items: readonly T[], random: Random): T => items[Math.floor(random() * items.length)]!;

// Spellings of one sound in other romanisation systems (French, German, BGN, Arabic-in-English...), one changed per name.
const ROMANISATIONS: [RegExp, string][] = [
  [/ou/, 'u'],
  [/u/, 'ou'],
  [/y/, 'i'],
  [/i(?=[aeou])/, 'y'],
  [/kh/, 'h'],
  [/kh/, 'ch'],
  [/sh/, 'ch'],
  [/sh/, 'sch'],
  [/j/, 'dj'],
  [/zh/, 'j'],
  [/ph/, 'f'],
  [/f/, 'ph'],
  [/v/, 'w'],
  [/ov$/, 'off'],
  [/ev$/, 'yev'],
  [/iy$/, 'y'],
  [/y$/, 'ii'],
  [/e/, 'a'],
  [/a/, 'e'],
  [/o/, 'u'],
  [/u/, 'o'],
  [/q/, 'k'],
  [/i/, 'ee'],
  [/dh/, 'z'],
  [/([bdfgklmnprstz])\1/, '$1'],
  [/([aeiou])([bdlmnrst])([aeiou])/, '$1$2$2$3'],
];

const ACCENTS: Record<string, string> = { a: 'á', e: 'é', i: 'í', o: 'ó', u: 'ü', c: 'ç', n: 'ñ', s: 'š' };
const LEGAL = /\b(LLC|LTD|LIMITED|CO|COMPANY|INC|CORP|CORPORATION|JSC|OJSC|PJSC|CJSC|OOO|OAO|ZAO|PAO|AO|FZE|FZCO|GMBH|S\.?A\.?|PLC)\b\.?/g;

function romanised(token: string, random: Random): string {
  const lower = token.toLowerCase();
  const fitting = ROMANISATIONS.filter(([pattern]) => pattern.test(lower));
  if (fitting.length === 0) return token;
  const [pattern, to] = pick(fitting, random);
  return lower.replace(pattern, to);
}

function accented(token: string, random: Random): string {
  const places = [...token.toLowerCase()].map((c, i) => (ACCENTS[c] ? i : -1)).filter((i) => i >= 0);
  if (places.length === 0) return token;
  const at = pick(places, random);
  return token.slice(0, at) + ACCENTS[token[at]!.toLowerCase()]! + token.slice(at + 1);
}

const titleCase = (t: string) => t.charAt(0).toUpperCase() + t.slice(1).toLowerCase();

function cased(tokens: string[], random: Random): string {
  const r = random();
  if (r < 0.4) return tokens.join(' ').toLowerCase();
  if (r < 0.9) return tokens.map(titleCase).join(' ');
  return tokens.join(' ').toUpperCase();
}

/** A listed person's name as a person would type it. */
function personVariant(name: string, random: Random): string {
  const comma = name.indexOf(',');
  const family = (comma > 0 ? name.slice(0, comma) : name).trim().split(/\s+/);
  const given =
    comma > 0
      ? name
          .slice(comma + 1)
          .trim()
          .split(/\s+/)
          .filter(Boolean)
      : [];
  // A middle name dropped (a quarter of the names with one) or written as its initial (another quarter).
  const middle = random();
  if (given.length >= 2 && middle < 0.25) given.splice(1 + Math.floor(random() * (given.length - 1)), 1);
  else if (given.length >= 2 && middle < 0.5) {
    const at = 1 + Math.floor(random() * (given.length - 1));
    given[at] = `${given[at]!.charAt(0)}.`;
  }
  let tokens = random() < 0.8 ? [...given, ...family] : [...family, ...given];
  tokens = tokens.flatMap((t) => (random() < 0.5 ? t.split('-') : [t])).filter(Boolean);
  if (random() < 0.5) {
    const at = Math.floor(random() * tokens.length);
    tokens[at] = romanised(tokens[at]!, random);
  }
  if (random() < 0.2) {
    const at = Math.floor(random() * tokens.length);
    tokens[at] = accented(tokens[at]!, random);
  }
  return cased(tokens, random);
}

/** A listed organisation's name as typed: legal form dropped or kept, punctuation loosened, case. */
function entityVariant(name: string, random: Random): string {
  let text = name;
  if (random() < 0.5) text = text.replace(LEGAL, ' ');
  if (random() < 0.5) text = text.replace(/[.,"']/g, '');
  const tokens = text.split(/\s+/).filter(Boolean);
  if (tokens.length === 0) return name;
  if (random() < 0.3) {
    const at = Math.floor(random() * tokens.length);
    tokens[at] = romanised(tokens[at]!, random);
  }
  return cased(tokens, random);
}

function listedSubjects(parties: readonly SdnRow[], random: Random): Subject[] {
  return parties.map((party) => ({
    label: 'bad',
    value: party.kind === 'individual' ? personVariant(party.name, random) : entityVariant(party.name, random),
    half: halfOf(String(party.id)),
    group: party.kind === 'individual' ? 'listed persons' : 'listed organisations',
  }));
}

function ordinarySubjects(): Subject[] {
  const subjects: Subject[] = [];
  const all = fakers as unknown as Record<string, Faker>;
  for (const locale of LOCALES) {
    const faker = all[`faker${locale}`]!;
    faker.seed(SEED);
    const names = new Set<string>();
    for (let i = 0; i < PERSONS_PER_LOCALE * 3 && names.size < PERSONS_PER_LOCALE; i++) names.add(faker.person.fullName());
    for (const value of names) subjects.push({ label: 'good', value, half: halfOf(value), group: `ordinary persons (${locale})` });
    const companies = new Set<string>();
    for (let i = 0; i < COMPANIES_PER_LOCALE * 3 && companies.size < COMPANIES_PER_LOCALE; i++) companies.add(faker.company.name());
    for (const value of companies) subjects.push({ label: 'good', value, half: halfOf(value), group: 'ordinary companies' });
  }
  return subjects;
}

interface Answered extends Subject {
  kind: string;
}

function rowFor(kind: string, disposition: 'weakens' | 'neutral', answered: readonly Answered[], corpora: string[]) {
  const bad = answered.filter((a) => a.label === 'bad');
  const good = answered.filter((a) => a.label === 'good');
  // The quality bench's arithmetic, a neutral fact read the way its counts lean.
  return measurementOf(
    kind,
    disposition,
    {
      badWith: bad.filter((a) => a.kind === kind).length,
      bad: bad.length,
      goodWith: good.filter((a) => a.kind === kind).length,
      good: good.length,
    },
    corpora,
  );
}

const started = performance.now();
const list = loadSanctionsList();
const loadMs = performance.now() - started;
const check = sanctionsNameCheck(list);
const parties = parseSdn(readFileSync(DEFAULT_SANCTIONS_FILE, 'utf8'));
const subjects = [...listedSubjects(parties, prng(SEED)), ...ordinarySubjects()];

const signal = new AbortController().signal;
const now = new Date();
const answered: Answered[] = [];
const times: number[] = [];
const timed: [string, number][] = [];
const cpuBefore = process.cpuUsage();
for (const subject of subjects) {
  const presentation = { type: 'NAME', value: subject.value, normalised: subject.value };
  const ctx: CheckContext = { presentation, subject: [presentation], now, signal, env: {} };
  const t0 = performance.now();
  const result = check.run(ctx) as Awaited<ReturnType<typeof check.run>>;
  times.push(performance.now() - t0);
  timed.push([subject.value, times[times.length - 1]!]);
  answered.push({ ...subject, kind: result.signals[0]?.kind ?? 'absence' });
}

const cpu = process.cpuUsage(cpuBefore);
// CPU time, not wall time: on a shared machine another process's turn is not the check's cost.
const cpuPerName = (cpu.user + cpu.system) / subjects.length;

const corpora = [
  `listed: ${list.snapshot.replace(/^sanctions:/, '')} persons and organisations, each typed with variants (seed ${SEED})`,
  `ordinary: @faker-js/faker person and company names, ${LOCALES.length} locales in Latin or Cyrillic letters (seed ${SEED})`,
];
const measure = answered.filter((a) => a.half === 'measure');
const rows = [...KINDS.map((k) => rowFor(k, 'weakens', measure, corpora)), rowFor(NEUTRAL, 'neutral', measure, corpora)];

const evaluate = answered.filter((a) => a.half === 'evaluate');
const flagged = (of: readonly Answered[]) => of.filter((a) => a.kind !== NEUTRAL && a.kind !== 'absence').length;
const pct = (k: number, n: number) => `${round1((100 * k) / Math.max(1, n))} % (${k} of ${n})`;
const groups = [...new Set(evaluate.map((a) => a.group))];

times.sort((a, b) => a - b);
const us = (ms: number) => Math.round(ms * 1000);
const mean = times.reduce((s, t) => s + t, 0) / times.length;
console.log(
  `sanctions list ${list.snapshot}: ${list.parties} parties, ${list.names} names, loaded and indexed in ${Math.round(loadMs)} ms`,
);
console.log(
  `subjects: ${subjects.length} (${answered.filter((a) => a.label === 'bad').length} listed with variants, ${answered.filter((a) => a.label === 'good').length} ordinary)`,
);
console.log('\nevaluate half: flagged at any grade');
const badEval = evaluate.filter((a) => a.label === 'bad');
const goodEval = evaluate.filter((a) => a.label === 'good');
console.log(`  listed names with variants: ${pct(flagged(badEval), badEval.length)}   (target >= 90 %)`);
console.log(`  ordinary names (false match): ${pct(flagged(goodEval), goodEval.length)}   (target <= 1 %)`);
for (const group of groups) {
  const of = evaluate.filter((a) => a.group === group);
  console.log(`    ${group}: ${pct(flagged(of), of.length)}`);
}
for (const label of ['bad', 'good'] as const) {
  const of = evaluate.filter((a) => a.label === label);
  const byKind = KINDS.map((k) => `${k.replace('sanctions_match_', '')} ${of.filter((a) => a.kind === k).length}`).join(', ');
  console.log(`  ${label === 'bad' ? 'listed' : 'ordinary'} by grade: ${byKind}`);
}
console.log('\nmeasure half: likelihood ratio per grade (90 % interval) and the strength it supports');
for (const r of rows) {
  console.log(
    `  ${r.kind}:${r.disposition}  bad ${r.bad_with}/${r.bad}  good ${r.good_with}/${r.good}  LR ${r.lr ?? '-'} [${r.lr_low ?? '-'}-${r.lr_high ?? '-'}]  supports ${r.supports_strength ?? 'unmeasured'}`,
  );
}
console.log(`\nCPU time per name (check.run, all ${subjects.length} names): ${Math.round(cpuPerName)} µs`);
console.log(
  `wall time per name (check.run): mean ${us(mean)} µs, p50 ${us(times[Math.floor(times.length / 2)]!)} µs, p99 ${us(times[Math.floor(times.length * 0.99)]!)} µs, max ${us(times[times.length - 1]!)} µs`,
);

if (process.argv.includes('--write')) {
  const file = {
    generated_by: 'npx tsx bench/names.ts --write',
    seed: SEED,
    per_class: Math.min(measure.filter((a) => a.label === 'bad').length, measure.filter((a) => a.label === 'good').length),
    half: 'measure',
    corpora,
    measurements: rows,
  };
  writeFileSync(new URL('../src/checks/data/nameLikelihoodRatios.json', import.meta.url), `${JSON.stringify(file, null, 2)}\n`);
  console.log('\nwrote src/checks/data/nameLikelihoodRatios.json');
}

// `--show`: the ordinary names that matched and a sample of listed names that did not, to read what the rules did.
if (process.argv.includes('--show')) {
  for (const a of answered.filter((x) => x.label === 'good' && x.kind !== NEUTRAL)) console.log('ordinary matched', a.kind, a.value);
  for (const a of answered.filter((x) => x.label === 'bad' && x.kind === NEUTRAL).slice(0, 60)) console.log('listed missed', a.value);
  for (const [value, ms] of timed.sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log('slowest', us(ms), 'µs', value);
}
