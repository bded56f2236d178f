import type { z } from 'zod';
import type { Absence, Assessment, Finding, Findings, Report, ReportSection, ShareCardOut } from '../assessment/schemas.js';
import { LOCALES, negotiateLang } from './locales/index.js';
import type { Num, ReportLang, ReportMessages, ScoreBand, SectionKey, WidthBand } from './locales/index.js';

/**
 * The template renderer: a pure function from an assessment and its findings
 * to a Report, in the asked language when we have it.
 *
 * What it may say is fixed by SPEC.md: evidence only by counts, provenance
 * class and banded trust; finding statements (already stripped of source
 * names by the checks) may be quoted; nothing else about a source is known
 * here, so nothing else can be said. The share card is built from the score,
 * interval, label and as_of only: no presented value, statement or id.
 */

export type ReportSectionOut = z.infer<typeof ReportSection>;
export type ShareCard = z.infer<typeof ShareCardOut>;

export interface TemplateInput {
  assessment: Assessment;
  /** Absent when the tenant may not see findings: the report then speaks from counts only. */
  findings?: Findings | null;
  /** Asked language tag (BCP 47); negotiated, English when we lack it. */
  lang?: string | null;
  now: Date;
}

/**
 * Words for the interval width. They describe how closely the evidence places
 * the score, never what to do: with no evidence the method gives 5..95 (90
 * wide) and five agreeing supports still leave 40, so 10 and 30 separate
 * "placed closely" from "roughly" from "thin or in conflict".
 */
const WIDTH_BANDS: ReadonlyArray<{ max: number; band: WidthBand }> = [
  { max: 10, band: 'narrow' },
  { max: 30, band: 'moderate' },
];

/** Where the score sits, for the share card headline only; the tenant's label is the only judgement. */
function scoreBand(score: number): ScoreBand {
  if (score >= 70) return 'higher';
  if (score >= 40) return 'middle';
  return 'lower';
}

function widthBand(width: number): WidthBand {
  return WIDTH_BANDS.find((b) => width <= b.max)?.band ?? 'wide';
}

/** Statements quoted per side; the rest are counted, so a long list cannot swamp the report. */
const MAX_QUOTED = 8;

interface Fmt {
  num(n: number): Num;
  list(items: string[]): string;
  date(iso: string): string;
}

function formatterFor(lang: ReportLang): Fmt {
  const numbers = new Intl.NumberFormat(lang);
  const plurals = new Intl.PluralRules(lang);
  const lists = new Intl.ListFormat(lang, { style: 'long', type: 'conjunction' });
  // UTC, spelled out: the as_of of an assessment is an instant, and the reader's zone is unknown.
  const dates = new Intl.DateTimeFormat(lang, { dateStyle: 'long', timeStyle: 'long', timeZone: 'UTC' });
  return {
    num: (n) => ({ value: n, text: numbers.format(n), one: plurals.select(n) === 'one' }),
    list: (items) => lists.format(items),
    date: (iso) => dates.format(new Date(iso)),
  };
}

interface Ctx {
  m: ReportMessages;
  f: Fmt;
  assessment: Assessment;
  findings: Findings | null;
}

function section(ctx: Ctx, key: SectionKey, paragraphs: string[][], findingIds: string[] = []): ReportSectionOut {
  const body = paragraphs
    .filter((p) => p.length > 0)
    .map((p) => p.join(' '))
    .join('\n\n');
  return { key, title: ctx.m.titles[key], body, finding_ids: findingIds };
}

function byDisposition(findings: Findings | null, disposition: string): Finding[] {
  return (findings?.findings ?? []).filter((x) => (x.disposition ?? 'neutral') === disposition);
}

function summarySection(ctx: Ctx): ReportSectionOut {
  const { m, f, assessment: a } = ctx;
  const lines = [
    m.scoreLine({ score: f.num(a.score), low: f.num(a.low), high: f.num(a.high) }),
    m.widthLine({ width: f.num(a.high - a.low), band: widthBand(a.high - a.low) }),
    a.label ? m.labelLine({ value: a.label.value, version: f.num(a.label.policy_version) }) : m.noLabel(),
  ];
  return section(ctx, 'summary', [lines, a.preliminary ? [m.preliminary()] : []]);
}

/**
 * The findings as the language says them. Sentences that come out the same
 * (several findings of one kind, in a language that names the kind rather
 * than the value) are said once, with their count.
 */
function quoted(ctx: Ctx, items: Finding[]): string {
  const said = new Map<string, number>();
  for (const x of items.slice(0, MAX_QUOTED)) {
    const disposition = x.disposition === 'supports' ? 'supports' : 'weakens';
    const text = ctx.m
      .finding({ kind: x.kind ?? '', disposition, statement: x.statement })
      .trim()
      .replace(/[.;]+$/, '');
    said.set(text, (said.get(text) ?? 0) + 1);
  }
  const shown = [...said].map(([text, n]) => (n > 1 ? `${text} (×${ctx.f.num(n).text})` : text));
  const rest = items.length - Math.min(items.length, MAX_QUOTED);
  return `${shown.join('; ')}.${rest > 0 ? ` ${ctx.m.moreNotQuoted({ count: ctx.f.num(rest) })}` : ''}`;
}

function evidenceSection(ctx: Ctx): ReportSectionOut {
  const { m, f, assessment: a } = ctx;
  const ev = a.evidence;
  const classes = Object.entries(ev.by_provenance_class)
    .filter(([, n]) => n > 0)
    .sort(([ka, na], [kb, nb]) => nb - na || (ka < kb ? -1 : 1))
    .map(([id, n]) => `${m.provenanceClass(id) ?? id.replaceAll('_', ' ')} (${f.num(n).text})`);
  const counts =
    ev.signals === 0
      ? [m.noEvidence()]
      : [
          m.evidenceTotals({ signals: f.num(ev.signals) }),
          ...(classes.length > 0 ? [m.byProvenance({ list: f.list(classes) })] : []),
          m.byTrustBand({ high: f.num(ev.by_trust_band.high), medium: f.num(ev.by_trust_band.medium), low: f.num(ev.by_trust_band.low) }),
        ];
  if (!ctx.findings) return section(ctx, 'evidence', [counts, [m.findingsNotShown()]]);
  const supporting = byDisposition(ctx.findings, 'supports');
  const weakening = byDisposition(ctx.findings, 'weakens');
  const neutral = (ctx.findings.findings ?? []).length - supporting.length - weakening.length;
  return section(
    ctx,
    'evidence',
    [
      counts,
      supporting.length > 0 ? [m.supporting({ count: f.num(supporting.length), list: quoted(ctx, supporting) })] : [],
      weakening.length > 0 ? [m.weakening({ count: f.num(weakening.length), list: quoted(ctx, weakening) })] : [],
      neutral > 0 ? [m.neutral({ count: f.num(neutral) })] : [],
    ],
    [...supporting, ...weakening].map((x) => x.finding_id),
  );
}

/** Findings grouped by artifact type where both sides occur; types, not values, name the group. */
function contradictionsSection(ctx: Ctx): ReportSectionOut {
  const { m, f } = ctx;
  const groups = new Map<string, { supports: Finding[]; weakens: Finding[] }>();
  for (const x of [...byDisposition(ctx.findings, 'supports'), ...byDisposition(ctx.findings, 'weakens')]) {
    const g = groups.get(x.about_type) ?? { supports: [], weakens: [] };
    (x.disposition === 'supports' ? g.supports : g.weakens).push(x);
    groups.set(x.about_type, g);
  }
  const both = [...groups.entries()].filter(([, g]) => g.supports.length > 0 && g.weakens.length > 0);
  const lines = both.map(([type, g]) => m.conflictOn({ type, supports: f.num(g.supports.length), weakens: f.num(g.weakens.length) }));
  const ids = (both.length > 0 ? both.map(([, g]) => g) : [...groups.values()]).flatMap((g) => [...g.supports, ...g.weakens]);
  return section(
    ctx,
    'contradictions',
    [[m.contradictions({ count: f.num(ctx.assessment.evidence.contradictions) })], lines],
    ids.map((x) => x.finding_id),
  );
}

function gapsSection(ctx: Ctx): ReportSectionOut {
  const { m, f, findings } = ctx;
  if (!findings) {
    const failed = ctx.assessment.evidence.failed_signals;
    return section(ctx, 'gaps', [failed > 0 ? [m.failedSignals({ count: f.num(failed) }), m.gapsMeaning()] : [m.noGaps()]]);
  }
  const cov = findings.coverage;
  const coverage = m.coverage({
    run: f.num(cov.checks_run),
    answered: f.num(cov.checks_answered),
    unanswered: f.num(cov.checks_unanswered),
  });
  const grouped = new Map<string, { kind: Absence['kind']; type: string; n: number }>();
  for (const ab of findings.absences ?? []) {
    const key = JSON.stringify([ab.kind, ab.about_type]);
    const g = grouped.get(key) ?? { kind: ab.kind, type: ab.about_type, n: 0 };
    g.n += 1;
    grouped.set(key, g);
  }
  const absences = [...grouped.values()].map((g) => m.absence({ kind: g.kind, type: g.type, count: f.num(g.n) }));
  const tiers = (cov.gaps ?? []).map((g) =>
    g.reason === 'switched_off'
      ? m.switchedOffGap({ kind: g.kind.replaceAll('_', ' '), count: f.num(g.count) })
      : m.tierGap({ kind: g.kind.replaceAll('_', ' '), tier: g.tier, count: f.num(g.count) }),
  );
  // Only what was asked and not answered widens the interval; a question never asked (tier, switched off) says so itself.
  const unanswered = absences.length > 0 || cov.checks_unanswered > 0;
  const closing = unanswered ? [m.gapsMeaning()] : tiers.length > 0 ? [] : [m.noGaps()];
  return section(ctx, 'gaps', [[coverage], absences, tiers, closing]);
}

function methodSection(ctx: Ctx): ReportSectionOut {
  const { m, f, assessment: a } = ctx;
  return section(ctx, 'method', [[m.method({ version: a.methodology_version, asOf: f.date(a.as_of) }), m.methodLabel()]]);
}

/**
 * The share card: what can be shown to a person. Built from the score band,
 * interval, label and as_of alone, so it cannot carry a presented value, a
 * finding statement or an id whatever the findings hold.
 */
export function renderShareCard(assessment: Assessment, lang?: string | null): ShareCard {
  const used = negotiateLang(lang);
  const m = LOCALES[used];
  const f = formatterFor(used);
  const { score, low, high, label, as_of, preliminary } = assessment;
  const body = [m.shareBody({ score: f.num(score), low: f.num(low), high: f.num(high), asOf: f.date(as_of) })];
  if (label) body.push(m.shareLabel({ value: label.value }));
  return {
    headline: m.shareHeadline({ band: scoreBand(score), preliminary }),
    body: body.join(' '),
    score,
    low,
    high,
    label: label ? { value: label.value, policy_version: label.policy_version } : null,
    as_of,
  };
}

export function renderTemplateReport(input: TemplateInput): Report {
  const lang = negotiateLang(input.lang);
  const ctx: Ctx = { m: LOCALES[lang], f: formatterFor(lang), assessment: input.assessment, findings: input.findings ?? null };
  const sections = [
    summarySection(ctx),
    evidenceSection(ctx),
    ...(input.assessment.evidence.contradictions > 0 ? [contradictionsSection(ctx)] : []),
    gapsSection(ctx),
    methodSection(ctx),
  ];
  return {
    inquiry_id: input.assessment.inquiry_id,
    assessment_id: input.assessment.assessment_id,
    lang,
    rendered_by: 'template',
    prompt_version: null,
    sections,
    share: renderShareCard(input.assessment, lang),
    generated_at: input.now.toISOString(),
  };
}
