import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { cleanupAll, installExitHandlers } from './lib/children.js';
import { preflight, startService } from './lib/service.js';
import { DISPOSABLE_EMAIL_DOMAINS } from '../src/checks/emailDomains.js';
import { BRAND_DOMAINS } from '../src/checks/brandDomains.js';
import { discoverChecks } from '../src/checks/registry.js';
import { MEASUREMENTS_PATH } from '../src/checks/measuredStrengths.js';
import { popularityList, rankOf, type PopularityList } from '../src/checks/popularity.js';
import { METHODOLOGY_VERSIONS, TRUST_METHOD_1, score } from '../src/scoring/index.js';
import { askAll, type Answer } from './quality/ask.js';
import { corpus, type Case } from './quality/corpus.js';
import { measureFacts } from './quality/measure.js';
import { auc, calibration, round1, round3, sides, type Scored } from './quality/stats.js';

/**
 * `npm run bench:quality`: does the answer tell bad subjects from good ones,
 * does it take a side, is it honest, and how much does each fact tell?
 *
 * Every subject of bench/quality/corpus.ts goes through the live API (a
 * fresh service, inline tier t0, network checks off) and its ledger entry is
 * read back. Then, on the corpus's `measure` half, the likelihood ratio of
 * every (kind, disposition) the checks declare (bench/quality/measure.ts);
 * on its `evaluate` half, per methodology version (the stored inputs scored
 * again by each version; v1, which has no strengths, scores them without):
 * - AUC per type, and for the disposable domains no shipped list names and
 *   the fresh look-alikes alone;
 * - the share of answers whose whole interval lies on the right side of 50,
 *   and on the wrong side;
 * - a calibration table: per score band, the count, the observed share of
 *   good subjects with its Wilson 95 % interval, the band's mean interval,
 *   and whether the two meet.
 * `--write` stores the measurements in src/checks/data/likelihoodRatios.json and
 * regenerates docs/checks.md from them. The sample is drawn with a fixed
 * seed (`--seed`), `--per-class N` sets its size. Never tune a check to this
 * corpus: a rule is chosen from the data's meaning, its measurement only
 * reported. `--dump FILE` keeps every answer, one JSON line each, and
 * `--from FILE` reads such a file back instead of asking a service (the
 * same figures from the same answers, to read them again).
 */
const args = parseArgs({
  options: {
    'per-class': { type: 'string' },
    seed: { type: 'string' },
    concurrency: { type: 'string' },
    dump: { type: 'string' },
    write: { type: 'boolean' },
    from: { type: 'string' },
  },
}).values;
const PER_CLASS = Number(args['per-class'] ?? 600);
const SEED = Number(args.seed ?? 20261127);
const CONCURRENCY = Number(args.concurrency ?? 8);

type ScoredItem = Answer['inputs']['evidence'][number] & { disposition: 'supports' | 'weakens' };

/** The stored inputs scored again by `version` (v1 never had strengths, so they are left out for it). */
function rescored(a: Answer, version: string): Scored {
  // Neutral items are stored for the evidence summary; the function reads only the scored ones.
  const scoredItems = a.inputs.evidence.filter((item): item is ScoredItem => item.disposition !== 'neutral');
  const evidence = version === TRUST_METHOD_1 ? scoredItems.map(({ strength: _s, ...item }) => item) : scoredItems;
  const r = score({ as_of: a.inputs.as_of, evidence, absences: a.inputs.absences, methodology_version: version as never });
  return { label: a.label, score: r.score, low: r.low, high: r.high };
}

function aucOf(of: readonly Scored[]): number {
  return round3(
    auc(
      of.filter((a) => a.label === 'bad').map((a) => a.score),
      of.filter((a) => a.label === 'good').map((a) => a.score),
    ),
  );
}

const isUnlisted = (a: Answer) => a.corpus.startsWith('disposable') && !DISPOSABLE_EMAIL_DOMAINS.has(a.domain);
const isFresh = (a: Answer) => a.corpus.startsWith('fresh');

/** The share of good subjects whose whole interval lies above 50 (the "good subjects on the right side"). */
function goodRightSide(of: readonly Scored[]): number {
  const good = of.filter((s) => s.label === 'good');
  return round3(good.filter((s) => s.low > 50).length / Math.max(1, good.length));
}

/** Sides of 50 for a part of the answers: all of them, and the good ones alone. */
function partReport(of: readonly Scored[]) {
  const side = sides(of);
  return {
    n: side.n,
    good: of.filter((s) => s.label === 'good').length,
    right_side: round3(side.right / Math.max(1, side.n)),
    wrong_side: round3(side.wrong / Math.max(1, side.n)),
    good_right_side: goodRightSide(of),
    good_wrong_side: round3(
      of.filter((s) => s.label === 'good' && s.high < 50).length / Math.max(1, of.filter((s) => s.label === 'good').length),
    ),
  };
}

function versionReport(answers: readonly Answer[], version: string, ranked: (a: Answer) => boolean) {
  const scored = answers.map((a) => ({ a, s: rescored(a, version) }));
  const pick = (keep: (a: Answer) => boolean) => scored.filter(({ a }) => keep(a)).map(({ s }) => s);
  const byType = Object.fromEntries((['EMAIL', 'DOMAIN', 'URL'] as const).map((t) => [t, aucOf(pick((a) => a.type === t))]));
  const all = scored.map(({ s }) => s);
  const side = sides(all);
  const width = all.reduce((sum, s) => sum + (s.high - s.low), 0) / Math.max(1, all.length);
  return {
    version,
    auc: {
      ...byType,
      EMAIL_unlisted_disposable: aucOf(pick((a) => a.type === 'EMAIL' && (a.label === 'good' || isUnlisted(a)))),
      DOMAIN_fresh_lookalikes: aucOf(pick((a) => a.type === 'DOMAIN' && (a.label === 'good' || isFresh(a)))),
      URL_fresh_lookalikes: aucOf(pick((a) => a.type === 'URL' && (a.label === 'good' || isFresh(a)))),
    },
    right_side: round3(side.right / side.n),
    wrong_side: round3(side.wrong / side.n),
    good_right_side: goodRightSide(all),
    mean_width: round1(width),
    n: side.n,
    // The subjects whose site the popularity list ranks, and those it does not, apart (issue 47).
    in_popularity_list: partReport(pick(ranked)),
    not_in_popularity_list: partReport(pick((a) => !ranked(a))),
    calibration: calibration(all),
  };
}

function overlap(cases: readonly Case[]) {
  const brands = new Set(BRAND_DOMAINS);
  const share = (of: readonly Case[], has: (d: string) => boolean) =>
    round3(of.filter((c) => has(c.domain)).length / Math.max(1, of.length));
  const of = (type: string, label: string) => cases.filter((c) => c.type === type && c.label === label);
  return {
    email_bad_in_disposable_data: share(of('EMAIL', 'bad'), (d) => DISPOSABLE_EMAIL_DOMAINS.has(d)),
    email_good_in_brand_data: share(of('EMAIL', 'good'), (d) => brands.has(d)),
    domain_good_in_brand_data: share(of('DOMAIN', 'good'), (d) => brands.has(d)),
    domain_bad_in_brand_data: share(of('DOMAIN', 'bad'), (d) => brands.has(d)),
  };
}

/** Whether the shipped popularity list ranks the subject's domain (the registrable one the corpus names). */
function isRanked(list: PopularityList, domain: string): boolean {
  return rankOf(list, domain) !== undefined;
}

async function askService(cases: readonly Case[]): Promise<Answer[]> {
  const service = await startService();
  try {
    return await askAll(service, cases, CONCURRENCY, (done) => process.stderr.write(`bench:quality: ${done} answered\n`));
  } finally {
    await service.stop();
    await cleanupAll();
  }
}

function readAnswers(file: string): Answer[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Answer);
}

async function main() {
  installExitHandlers();
  await preflight();
  const cases = corpus({ perClass: PER_CLASS, seed: SEED });
  process.stderr.write(`bench:quality: ${cases.length} subjects (seed ${SEED}, ${PER_CLASS} per class and type)\n`);
  console.log(JSON.stringify({ overlap: overlap(cases) }));
  const answers = args.from ? readAnswers(args.from) : await askService(cases);
  if (args.dump) writeFileSync(args.dump, answers.map((a) => JSON.stringify(a)).join('\n') + '\n');
  const measured = measureFacts(
    await discoverChecks({}),
    answers.filter((a) => a.half === 'measure'),
  );
  for (const row of measured) console.log(JSON.stringify({ likelihood_ratio: row }));
  const evaluate = answers.filter((a) => a.half === 'evaluate');
  const list = await popularityList();
  const ranked = (a: Answer) => isRanked(list, a.domain);
  for (const version of METHODOLOGY_VERSIONS) {
    const report = versionReport(evaluate, version, ranked);
    console.log(JSON.stringify({ ...report, calibration: undefined }));
    console.table(report.calibration);
  }
  if (args.write) {
    const corpora = [...new Set(answers.map((a) => a.corpus))].sort();
    writeFileSync(
      MEASUREMENTS_PATH,
      JSON.stringify(
        {
          generated_by: 'npm run bench:quality -- --write',
          seed: SEED,
          per_class: PER_CLASS,
          half: 'measure',
          corpora,
          measurements: measured,
        },
        null,
        2,
      ) + '\n',
    );
    execFileSync('npx', ['tsx', 'scripts/generate-checks-doc.ts'], { stdio: 'inherit' });
  }
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) {
  main().catch((error) => {
    console.error(error);
    process.exitCode = 1;
  });
}
