/**
 * The shape every report locale fills in. A locale is a plain object of
 * message functions: the template decides what is said and in which order,
 * the locale only says it. Numbers arrive already formatted with Intl for the
 * locale's language (`Num.text`) together with the plural category the
 * language's own rules chose (`Num.one`), so no locale formats numbers itself.
 *
 * Nothing passed to a message names a source: provenance classes, trust bands,
 * artifact types and check kinds are the only descriptive words available.
 */

import type { AbsenceKind } from '../../checks/types.js';

export type SectionKey = 'summary' | 'evidence' | 'contradictions' | 'gaps' | 'method';
/** How closely the interval places the score (see WIDTH_BANDS in template.ts). */
export type WidthBand = 'narrow' | 'moderate' | 'wide';
/** Where the score sits, for the share card headline (see scoreBand in template.ts). */
export type ScoreBand = 'higher' | 'middle' | 'lower';
// The same kinds an Absence carries (machines/types.ts), so a new kind cannot be missed by the report.
export type AbsenceKindName = AbsenceKind;

/** A number formatted for the language, with its plural category. */
export interface Num {
  value: number;
  text: string;
  /** True when the language's plural rules put this number in the `one` category. */
  one: boolean;
}

export interface ReportMessages {
  titles: Record<SectionKey, string>;

  // summary
  scoreLine(p: { score: Num; low: Num; high: Num }): string;
  widthLine(p: { width: Num; band: WidthBand }): string;
  labelLine(p: { value: string; version: Num }): string;
  noLabel(): string;
  preliminary(): string;

  // evidence
  evidenceTotals(p: { signals: Num }): string;
  noEvidence(): string;
  byProvenance(p: { list: string }): string;
  byTrustBand(p: { high: Num; medium: Num; low: Num }): string;
  supporting(p: { count: Num; list: string }): string;
  weakening(p: { count: Num; list: string }): string;
  neutral(p: { count: Num }): string;
  moreNotQuoted(p: { count: Num }): string;
  findingsNotShown(): string;
  /**
   * What one scored finding says: English quotes the check's own statement;
   * the other languages say what kind of evidence it is (locales/findings.ts).
   */
  finding(p: { kind: string; disposition: 'supports' | 'weakens'; statement: string }): string;
  /** Display name of a provenance class; undefined lets the template fall back to the raw id. */
  provenanceClass(id: string): string | undefined;

  // contradictions
  contradictions(p: { count: Num }): string;
  conflictOn(p: { type: string; supports: Num; weakens: Num }): string;

  // gaps
  coverage(p: { run: Num; answered: Num; unanswered: Num }): string;
  absence(p: { kind: AbsenceKindName; type: string; count: Num }): string;
  tierGap(p: { kind: string; tier: string; count: Num }): string;
  /** A check this deployment does not run at all (say, the network checks with no resolver configured). */
  switchedOffGap(p: { kind: string; count: Num }): string;
  failedSignals(p: { count: Num }): string;
  gapsMeaning(): string;
  noGaps(): string;

  // method
  method(p: { version: string; asOf: string }): string;
  methodLabel(): string;

  // share card: no values, no findings, no ids
  shareHeadline(p: { band: ScoreBand; preliminary: boolean }): string;
  shareBody(p: { score: Num; low: Num; high: Num; asOf: string }): string;
  shareLabel(p: { value: string }): string;
}
