import type { CheckDefinition } from '../../src/checks/types.js';
import type { Answer } from './ask.js';
import { likelihoodRatio, MIN_SUBJECTS_WITH_FACT, round3, supportedStrength, type Supported } from './stats.js';

/**
 * Section 8, rule 2: for every (kind, disposition) a check declares, how
 * much more often bad subjects show it than good ones (the inverse for a
 * supporting fact), over every subject of a type the check looks at, with the
 * 90 % interval and the strength its lower end supports. A fact shown by
 * fewer than MIN_SUBJECTS_WITH_FACT subjects is reported unmeasured.
 */

export interface Measurement {
  kind: string;
  disposition: 'supports' | 'weakens' | 'neutral';
  /** Subjects showing the fact, by label, and the subjects it could have appeared on. */
  bad_with: number;
  bad: number;
  good_with: number;
  good: number;
  /** The way the ratio is read: its own disposition's, or for a neutral fact the way its counts lean. */
  direction: 'supports' | 'weakens';
  /** P(fact | bad) / P(fact | good) when the direction weakens, the inverse when it supports. */
  lr: number | null;
  lr_low: number | null;
  lr_high: number | null;
  /** The strength the measurement supports; null when too few subjects showed the fact. */
  supports_strength: Supported | null;
  corpora: string[];
}

export function factKey(kind: string, disposition: string): string {
  return `${kind}:${disposition}`;
}

export function measureFacts(checks: readonly CheckDefinition[], answers: readonly Answer[]): Measurement[] {
  const rows: Measurement[] = [];
  const seen = new Set<string>();
  for (const check of checks) {
    const of = answers.filter((a) => check.artifactTypes.includes(a.type));
    if (of.length === 0) continue;
    for (const declared of check.declares) {
      const kind = declared.kind ?? check.kind;
      const key = factKey(kind, declared.disposition);
      if (seen.has(key)) continue;
      seen.add(key);
      rows.push(measureOne(kind, declared.disposition, of));
    }
  }
  return rows.sort((x, y) => factKey(x.kind, x.disposition).localeCompare(factKey(y.kind, y.disposition)));
}

function measureOne(kind: string, disposition: Measurement['disposition'], of: readonly Answer[]): Measurement {
  const key = factKey(kind, disposition);
  const bad = of.filter((a) => a.label === 'bad');
  const good = of.filter((a) => a.label === 'good');
  const counts = {
    badWith: bad.filter((a) => a.facts.includes(key)).length,
    bad: bad.length,
    goodWith: good.filter((a) => a.facts.includes(key)).length,
    good: good.length,
  };
  return measurementOf(kind, disposition, counts, [...new Set(of.map((a) => a.corpus))].sort());
}

/**
 * One fact's measurement from its counts: the ratio and its interval when
 * enough subjects showed it, and the strength its lower end supports. Shared
 * with bench/names.ts, whose subjects are names, not answers of the service.
 */
export function measurementOf(
  kind: string,
  disposition: Measurement['disposition'],
  counts: { badWith: number; bad: number; goodWith: number; good: number },
  corpora: string[],
): Measurement {
  const measured = counts.badWith + counts.goodWith >= MIN_SUBJECTS_WITH_FACT && counts.bad > 0 && counts.good > 0;
  const direction = directionOf(disposition, counts);
  const ratio = measured ? likelihoodRatio(counts, direction) : null;
  return {
    kind,
    disposition,
    direction,
    bad_with: counts.badWith,
    bad: counts.bad,
    good_with: counts.goodWith,
    good: counts.good,
    lr: ratio && round3(ratio.lr),
    lr_low: ratio && round3(ratio.low),
    lr_high: ratio && round3(ratio.high),
    supports_strength: ratio && supportedStrength(ratio.low, (direction === 'weakens' ? counts.goodWith : counts.badWith) === 0),
    corpora,
  };
}

/** A neutral fact is read the way its counts lean, so a neutral fact that does tell is seen. */
function directionOf(
  disposition: Measurement['disposition'],
  c: { badWith: number; bad: number; goodWith: number; good: number },
): 'supports' | 'weakens' {
  if (disposition !== 'neutral') return disposition;
  return c.badWith / Math.max(1, c.bad) >= c.goodWith / Math.max(1, c.good) ? 'weakens' : 'supports';
}
