import { z } from 'zod';
import { instantMillis, type EvidenceSummary } from '../scoring/index.js';

/**
 * Whether a recomputed assessment is the published one: the score, the
 * interval, the version and the evidence summary, field by field.
 *
 * Entries recorded before the ledger kept neutral signals hold only the
 * scored items, while their summary counted the neutral ones too: for those
 * the fields the neutral signals enter (the count, the counts by class and
 * band, the observed range) cannot be recomputed. They are named as not
 * compared, never silently passed, and the rest is still compared.
 */

/** The published summary as served (read leniently: it is compared, never trusted for the arithmetic). */
export const publishedSummarySchema = z.looseObject({
  signals: z.number().int().nonnegative(),
  failed_signals: z.number().int().nonnegative(),
  contradictions: z.number().int().nonnegative(),
  by_provenance_class: z.record(z.string(), z.number()),
  by_trust_band: z.record(z.string(), z.number()),
  oldest_observed_at: z.string(),
  newest_observed_at: z.string(),
});

export interface Published {
  score: number;
  low: number;
  high: number;
  methodology_version: string;
  evidence?: z.infer<typeof publishedSummarySchema>;
}

export interface Recomputed {
  score: number;
  low: number;
  high: number;
  methodology_version: string;
  evidence: EvidenceSummary;
}

export interface Reproduction {
  reproduces: boolean;
  /** The fields whose recomputed value is not the published one. */
  differs?: string[];
  /** Fields the entry's inputs cannot determine (an entry recorded before the ledger kept neutral signals). */
  not_compared?: string[];
  /** How many of the summary's signals the entry's inputs do not hold. */
  unrecorded_signals?: number;
}

const NEUTRAL_DEPENDENT = ['signals', 'by_provenance_class', 'by_trust_band', 'oldest_observed_at', 'newest_observed_at'] as const;

/** The same counts, whatever order the keys were stored in (jsonb reorders them). */
function sameCounts(a: Readonly<Record<string, number>>, b: Readonly<Record<string, number>>): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].every((key) => (Object.hasOwn(a, key) ? a[key] : 0) === (Object.hasOwn(b, key) ? b[key] : 0));
}

/** Two instants written alike or differently (`...Z` and `...+00:00`) are the same observation time. */
function sameInstant(a: string, b: string): boolean {
  return a === b || (instantMillis(a) !== undefined && instantMillis(a) === instantMillis(b));
}

function summaryDiffers(field: string, ours: EvidenceSummary, theirs: NonNullable<Published['evidence']>): boolean {
  switch (field) {
    case 'by_provenance_class':
      return !sameCounts(ours.by_provenance_class, theirs.by_provenance_class);
    case 'by_trust_band':
      return !sameCounts(ours.by_trust_band, theirs.by_trust_band);
    case 'oldest_observed_at':
    case 'newest_observed_at':
      return !sameInstant(ours[field], theirs[field]);
    default:
      return ours[field as 'signals' | 'failed_signals' | 'contradictions'] !== theirs[field];
  }
}

const SUMMARY_FIELDS = [
  'signals',
  'failed_signals',
  'contradictions',
  'by_provenance_class',
  'by_trust_band',
  'oldest_observed_at',
  'newest_observed_at',
];

export function compareWithPublished(ours: Recomputed, published: Published): Reproduction {
  const differs: string[] = (['score', 'low', 'high', 'methodology_version'] as const).filter((f) => ours[f] !== published[f]);
  const theirs = published.evidence;
  // An entry given without its summary can only be compared on its figures, and says so.
  const unrecorded = theirs === undefined ? 0 : Math.max(0, theirs.signals - ours.evidence.signals);
  const skipped: readonly string[] = theirs === undefined ? SUMMARY_FIELDS : unrecorded > 0 ? NEUTRAL_DEPENDENT : [];
  for (const field of SUMMARY_FIELDS) {
    if (theirs !== undefined && !skipped.includes(field) && summaryDiffers(field, ours.evidence, theirs)) differs.push(`evidence.${field}`);
  }
  return {
    reproduces: differs.length === 0,
    ...(differs.length > 0 ? { differs } : {}),
    ...(skipped.length > 0 ? { not_compared: skipped.map((f) => `evidence.${f}`) } : {}),
    ...(unrecorded > 0 ? { unrecorded_signals: unrecorded } : {}),
  };
}
