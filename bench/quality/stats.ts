/**
 * The quality bench's arithmetic, pure so it is tested as such
 * (test/bench/qualityStats.test.ts): ranking (AUC), proportions (Wilson),
 * likelihood ratios with their interval, the strength a measurement supports
 * (METHODOLOGY.md section 8, rule 2), calibration bands and sides of 50.
 */

export type Label = 'bad' | 'good';
export type Strength = 'weak' | 'moderate' | 'strong';
export type Supported = Strength | 'neutral';

/** P(a bad subject scores below a good one), ties half: Mann-Whitney U over all pairs. */
export function auc(bad: readonly number[], good: readonly number[]): number {
  if (bad.length === 0 || good.length === 0) return NaN;
  // Counting by score (0..100) keeps it linear in the corpus size.
  const goodAt = new Array<number>(102).fill(0);
  for (const g of good) goodAt[g + 1]! += 1;
  const goodAbove = new Array<number>(102).fill(0);
  for (let s = 100; s >= 0; s--) goodAbove[s] = goodAbove[s + 1]! + goodAt[s + 1]!;
  let wins = 0;
  for (const b of bad) wins += goodAbove[b + 1]! + goodAt[b + 1]! / 2;
  return wins / (bad.length * good.length);
}

/** Wilson score interval for k successes in n trials (z = 1.96: 95 %), as shares. */
export function wilson(k: number, n: number, z = 1.959964): [number, number] {
  if (n === 0) return [0, 1];
  const p = k / n;
  const z2 = z * z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (z / (1 + z2 / n)) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}

export interface FactCounts {
  /** Bad subjects showing the fact, and all bad subjects the fact could appear on. */
  badWith: number;
  bad: number;
  goodWith: number;
  good: number;
}

export interface Ratio {
  lr: number;
  low: number;
  high: number;
}

/** z for a two-sided 90 % interval: section 8 takes the lower end of the 90 % interval. */
const Z90 = 1.644854;

/**
 * LR = P(fact | bad) / P(fact | good) for a weakening fact, the inverse for
 * a supporting one, with the Katz log interval at 90 %. A zero cell gets
 * Haldane's half (0.5 added to every cell), so a fact never seen on good
 * subjects has a finite, honest ratio instead of infinity.
 */
export function likelihoodRatio(c: FactCounts, direction: 'weakens' | 'supports'): Ratio {
  const zero = c.badWith === 0 || c.goodWith === 0 || c.badWith === c.bad || c.goodWith === c.good;
  const h = zero ? 0.5 : 0;
  const a = c.badWith + h;
  const n1 = c.bad + 2 * h;
  const b = c.goodWith + h;
  const n2 = c.good + 2 * h;
  const logLr = Math.log(a / n1) - Math.log(b / n2);
  const se = Math.sqrt(1 / a - 1 / n1 + 1 / b - 1 / n2);
  const sign = direction === 'weakens' ? 1 : -1;
  const centre = sign * logLr;
  return { lr: Math.exp(centre), low: Math.exp(centre - Z90 * se), high: Math.exp(centre + Z90 * se) };
}

/**
 * Section 8, rule 2: the strength the lower end of the 90 % interval
 * supports. When no subject of the class it argues against shows the fact
 * (no good subject for a weakening fact), the lower end rests on Haldane's
 * half alone, and on how few such subjects a corpus happens to hold, not on
 * one observed case: such a measurement supports at most `moderate`, so a
 * fact no good subject of the corpora showed never takes a side alone.
 */
export function supportedStrength(lowerEnd: number, emptyCell = false): Supported {
  if (lowerEnd >= 6 && !emptyCell) return 'strong';
  if (lowerEnd >= 2.8) return 'moderate';
  if (lowerEnd >= 1.4) return 'weak';
  return 'neutral';
}

/** Section 8, rule 2: fewer subjects than this showing a fact is no measurement. */
export const MIN_SUBJECTS_WITH_FACT = 30;

const RANK: Record<Supported, number> = { neutral: 0, weak: 1, moderate: 2, strong: 3 };

/** Whether a declared strength is at most what a measurement supports. */
export function isWithin(declared: Strength, supported: Supported): boolean {
  return RANK[declared] <= RANK[supported];
}

export interface Scored {
  label: Label;
  score: number;
  low: number;
  high: number;
}

/** Right side: a bad subject's whole interval below 50, a good one's above; wrong: the reverse. */
export function sides(answers: readonly Scored[]): { right: number; wrong: number; n: number } {
  let right = 0;
  let wrong = 0;
  for (const a of answers) {
    const below = a.high < 50;
    const above = a.low > 50;
    if ((a.label === 'bad' && below) || (a.label === 'good' && above)) right++;
    if ((a.label === 'bad' && above) || (a.label === 'good' && below)) wrong++;
  }
  return { right, wrong, n: answers.length };
}

export interface BandRow {
  band: string;
  n: number;
  good: number;
  /** Observed share of good subjects, with its Wilson 95 % interval, in percent. */
  share: number;
  shareLow: number;
  shareHigh: number;
  /** The band's mean interval, in score points. */
  meanLow: number;
  meanHigh: number;
  /** The observed share's interval meets the band's mean interval. */
  honest: boolean;
}

/** Score bands 0-9, 10-19, ..., 90-100 (100 joins the last band). */
export function calibration(answers: readonly Scored[]): BandRow[] {
  const rows: BandRow[] = [];
  for (let from = 0; from < 100; from += 10) {
    const to = from === 90 ? 100 : from + 9;
    const of = answers.filter((a) => a.score >= from && a.score <= to);
    if (of.length === 0) continue;
    const good = of.filter((a) => a.label === 'good').length;
    const [lo, hi] = wilson(good, of.length);
    const meanLow = of.reduce((s, a) => s + a.low, 0) / of.length;
    const meanHigh = of.reduce((s, a) => s + a.high, 0) / of.length;
    rows.push({
      band: `${from}-${to}`,
      n: of.length,
      good,
      share: round1((100 * good) / of.length),
      shareLow: round1(100 * lo),
      shareHigh: round1(100 * hi),
      meanLow: round1(meanLow),
      meanHigh: round1(meanHigh),
      honest: 100 * lo <= meanHigh && 100 * hi >= meanLow,
    });
  }
  return rows;
}

export const round1 = (x: number) => Math.round(x * 10) / 10;
export const round3 = (x: number) => Math.round(x * 1000) / 1000;
