import { roundHalfUp } from './methodology.js';
import { ScoringInputError } from './scoringInputError.js';

/**
 * METHODOLOGY.md section 4: what a stake asks of the interval. A bigger,
 * irreversible stake wants a narrower interval (w_max) and justifies running
 * more checks. Pure; the stopping rule itself lives with the inquiry engine.
 */

export type StakeKind = 'payment' | 'credit' | 'account' | 'listing' | 'hire' | 'belief' | 'other';

export interface Stake {
  kind: StakeKind;
  /** Absent counts as 0. */
  amount?: number;
  /** Absent counts as reversible. */
  reversible?: boolean;
}

/** Widest interval (high − low, in points) worth acting on, before amount and reversibility. */
const BASE_WIDTH: Readonly<Record<StakeKind, number>> = Object.freeze({
  payment: 40,
  credit: 30,
  account: 50,
  listing: 50,
  hire: 30,
  belief: 60,
  other: 50,
});

/** Amount bands: [exclusive upper bound, width factor]; tier is the band's index. */
const AMOUNT_BANDS: ReadonlyArray<readonly [number, number]> = [
  [100, 1.0],
  [1_000, 0.85],
  [10_000, 0.7],
  [100_000, 0.55],
  [Infinity, 0.4],
];

/** r: an act that cannot be undone needs a tighter interval. */
const IRREVERSIBLE_FACTOR = 0.75;
/** No stake may demand an interval narrower than this many points. */
const MIN_WIDTH = 10;

function amountBand(amount: number | undefined): number {
  const value = amount ?? 0;
  if (typeof value !== 'number' || Number.isNaN(value)) {
    throw new ScoringInputError('stake.amount', `must be a number, got ${JSON.stringify(amount)}`);
  }
  return AMOUNT_BANDS.findIndex(([below]) => value < below);
}

/** Tier 0..4 by the amount bands (100, 1,000, 10,000, 100,000). */
export function stakeTier(amount?: number): number {
  const band = amountBand(amount);
  // +Infinity is not below Infinity: it belongs to the top band.
  return band === -1 ? AMOUNT_BANDS.length - 1 : band;
}

/** w_max = max(10, ⌊base(kind) · f(amount) · r + 0.5 + ε⌋). */
export function maxWidth(stake: Stake): number {
  // Unknown kinds (only reachable past the schema) are treated as `other`, the catch-all kind.
  const base = Object.hasOwn(BASE_WIDTH, stake.kind) ? BASE_WIDTH[stake.kind] : BASE_WIDTH.other;
  const f = (AMOUNT_BANDS[stakeTier(stake.amount)] as readonly [number, number])[1];
  const r = stake.reversible === false ? IRREVERSIBLE_FACTOR : 1;
  return Math.max(MIN_WIDTH, roundHalfUp(base * f * r));
}

/** Checks beyond the first pass worth running: 2 + 2·tier, +2 when irreversible. */
export function extraChecksWorthRunning(stake: Pick<Stake, 'amount' | 'reversible'>): number {
  return 2 + 2 * stakeTier(stake.amount) + (stake.reversible === false ? 2 : 0);
}

/** The stopping rule's test: stop gathering as soon as high − low ≤ w_max. */
export function isNarrowEnough(low: number, high: number, stake: Stake): boolean {
  return high - low <= maxWidth(stake);
}
