import { measurementOf, measurements, type Measurement } from './measuredStrengths.js';
import { discoverChecks } from './registry.js';
import type { CheckDefinition, DataSource, EvidenceDeclaration, Judged, Strength } from './types.js';

/**
 * The published table of check kinds (docs/methodology.md, section 5): for every
 * check, what it looks at, each (kind, disposition) it can give with its
 * strength and the reason for it, and the data it reads with version and
 * licence. Built from the checks' own declarations, so the table cannot say
 * one thing while the code does another: `docs/checks.md` is generated from
 * it (`npm run docs:checks`), the served OpenAPI document carries it as
 * `x-check-catalogue`, and a test fails when the committed file is stale.
 */

export interface CatalogueAnswer {
  kind: string;
  disposition: EvidenceDeclaration['disposition'];
  /** Absent on neutral answers, which are reported and never scored. */
  strength?: Strength;
  reason: string;
  /** What a strength above `moderate` rests on where no corpus here holds the fact. */
  cited?: string;
  /** The likelihood ratio measured for it (section 8, rule 2); absent when unmeasured. */
  measured?: MeasuredRatio;
}

export interface MeasuredRatio {
  /** In the fact's direction: P(fact | bad) / P(fact | good) for weakening facts, the inverse for supporting ones. */
  likelihood_ratio: number;
  interval_90: [number, number];
  /** Subjects showing the fact: bad, good. */
  subjects_with_fact: [number, number];
  /** The strength the interval's lower end supports. */
  supports: string;
  corpora: string[];
}

function measuredRatio(m: Measurement | null): { measured?: MeasuredRatio } {
  if (m === null || m.lr === null || m.lr_low === null || m.lr_high === null || m.supports_strength === null) return {};
  return {
    measured: {
      likelihood_ratio: m.lr,
      interval_90: [m.lr_low, m.lr_high],
      subjects_with_fact: [m.bad_with, m.good_with],
      supports: m.supports_strength,
      corpora: m.corpora,
    },
  };
}

export interface CatalogueRow {
  id: string;
  looks_at: string;
  artifact_types: string[];
  tier: string;
  runs: string;
  trust_band: string;
  provenance_class: string;
  /** What its answers are facts about: one fact however many presentations name the same host or domain. */
  judges: Judged;
  answers: CatalogueAnswer[];
  sources: DataSource[];
}

export function catalogueOf(checks: readonly CheckDefinition[]): CatalogueRow[] {
  return [...checks]
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map((check) => ({
      id: check.id,
      looks_at: check.looksAt,
      artifact_types: [...check.artifactTypes],
      tier: check.tier,
      runs: check.runs,
      trust_band: check.trustBand,
      provenance_class: check.provenanceClass,
      judges: check.judges ?? 'value',
      answers: check.declares.map((d) => ({
        kind: d.kind ?? check.kind,
        disposition: d.disposition,
        ...(d.disposition === 'neutral' ? {} : { strength: d.strength }),
        reason: d.reason,
        ...(d.disposition !== 'neutral' && d.cited ? { cited: d.cited } : {}),
        ...measuredRatio(measurementOf(d.kind ?? check.kind, d.disposition)),
      })),
      sources: [...(check.sources ?? [])],
    }));
}

/**
 * Every built-in check, whatever this deployment enables: the network checks
 * are created with placeholder addresses that are never contacted (nothing
 * runs here), and no operator providers file is read.
 */
export async function builtInCatalogue(): Promise<CatalogueRow[]> {
  return catalogueOf(await everyBuiltInCheck());
}

function everyBuiltInCheck(): Promise<CheckDefinition[]> {
  return discoverChecks({ dnsServers: ['127.0.0.1:53'], rdapBaseUrl: 'https://rdap.invalid' });
}

/**
 * The built-in checks this deployment does not run (the network ones when no
 * resolver or RDAP base is configured): reported in every inquiry's coverage
 * as `switched_off` gaps, so a report can say exactly what was not asked.
 */
export async function switchedOffChecks(enabled: readonly CheckDefinition[]): Promise<CheckDefinition[]> {
  const on = new Set(enabled.map((c) => c.id));
  return (await everyBuiltInCheck()).filter((c) => !on.has(c.id));
}

const HEADER = `# Checks: what each one looks at, and how much it counts

Generated from the checks' own declarations by \`npm run docs:checks\`; a test
fails when this file and the code disagree, so do not edit it by hand.

Every scored answer carries a **strength** (docs/methodology.md, section 5,
\`trust-method/3\`): \`weak\` 1, \`moderate\` 3, \`strong\` 8, on the scale of
observations, multiplying the item's weight. Under the Beta(1, 1) prior one
item of weight w moves the odds by a factor w + 1, so the three are each about
a likelihood ratio of 2, 4 and 9 before the trust band, provenance and age
discounts. A strength is measured, not chosen: a check declares, for each
(kind, disposition) it can give, the strength its measured likelihood ratio
supports (the lower end of the ratio's 90 % interval, on a labelled corpus not
built from the check's own data: \`strong\` from 6, \`moderate\` from 2.8,
\`weak\` from 1.4), with the reason beside it; it is never chosen per subject.
A fact no labelled corpus here can hold (network look-ups, testimony,
outcomes) takes the strength a cited published measurement supports, or at
most \`moderate\`. A fact that good and bad subjects show alike (a ratio
below 1.4) is neutral: reported as a finding, counted in \`signals\`, never
scored. Assessments issued under \`trust-method/2\` (\`weak\` 0.5,
\`moderate\` 1, \`strong\` 2) keep their numbers: the version, not the item,
decides an item's weight. Operator-configured HTTP providers
declare theirs in the providers file (\`strength.supports\`, \`strength.weakens\`,
moderate by default) and are listed in the served OpenAPI document
(\`x-check-catalogue\`) of the deployment that configures them.

A check that judges a host gives facts about that host, not about the
presentation that named it: when an email address, a domain and a web
address of one inquiry name the same host, each of them shows the host's
findings, and the assessment counts each such fact once (column "counted
once per"). A site is the registrable domain, or the site on a shared
platform (\`www.example.com\` and \`example.com\` are one site;
\`a.web.app\` and \`b.web.app\` are two). An answer can concern a wider
place than its check's column: what a site's own name resembles
(\`domain_lookalike\`'s typos, confusables and embedded names) is counted once
per site. Counting assumes independent items (docs/methodology.md, section 1).
`;

const JUDGES: Record<Judged, string> = { value: 'presented value', host: 'host', site: 'site', domain: 'registrable domain' };

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

function sourcesCell(row: CatalogueRow): string {
  if (row.sources.length > 0) return row.sources.map((s) => `${s.name} ${s.version} (${s.licence})`).join('; ');
  return row.runs === 'worker' ? 'a live look-up at evaluation time' : 'the value itself';
}

function measuredCell(a: CatalogueAnswer): string {
  if (!a.measured) return a.cited ? `not measurable here: ${cell(a.cited)}` : 'not measured';
  const m = a.measured;
  return `${m.likelihood_ratio} [${m.interval_90[0]}-${m.interval_90[1]}]`;
}

function measuredCount(a: CatalogueAnswer): string {
  return a.measured ? `${a.measured.subjects_with_fact[0]} / ${a.measured.subjects_with_fact[1]}` : '';
}

const MEASURED_NOTE = (file: ReturnType<typeof measurements>) => `A fact's **measured LR** is read in its own direction: how many times more
often bad subjects show a weakening fact than good ones (good than bad for a
supporting one; a neutral fact is read the way its counts lean), with its
90 % interval; **shown by** counts the subjects showing it, bad / good;
**supports** is the strength the interval's lower end supports, and no
declared strength is above it (a test fails otherwise). A fact shown by
fewer than 30 subjects, or by no subject of a type the corpora hold, is
not measured and is at most \`moderate\` unless a cited measurement says
more. Measured by \`${file.generated_by}\` (seed ${file.seed}, ${file.per_class}
subjects per class and type, on the corpus's ${file.half} half) on: ${file.corpora.join('; ')}.
`;

export function renderCatalogueMarkdown(rows: readonly CatalogueRow[]): string {
  const summary = [
    '| check | looks at | types | tier | counted once per | data source (version, licence) |',
    '|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| \`${r.id}\` | ${cell(r.looks_at)} | ${r.artifact_types.join(' ')} | ${r.tier} ${r.runs} | ${JUDGES[r.judges]} | ${cell(sourcesCell(r))} |`,
    ),
  ];
  const answers = [
    '| check | kind | disposition | strength | measured LR [90 %] | shown by (bad / good) | supports | reason |',
    '|---|---|---|---|---|---|---|---|',
    ...rows.flatMap((r) =>
      r.answers.map(
        (a) =>
          `| \`${r.id}\` | \`${a.kind}\` | ${a.disposition} | ${a.strength ?? '(not scored)'} | ${measuredCell(a)} | ${measuredCount(a)} | ${a.measured?.supports ?? ''} | ${cell(a.reason)} |`,
      ),
    ),
  ];
  return [
    HEADER,
    '## The checks',
    '',
    ...summary,
    '',
    '## What each can answer, and how much it counts',
    '',
    MEASURED_NOTE(measurements()),
    ...answers,
    '',
  ].join('\n');
}
