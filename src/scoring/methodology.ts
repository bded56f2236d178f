import { betaQuantile } from './betaQuantile.js';
import { parseInstant } from './parseInstant.js';
import { ScoringInputError } from './scoringInputError.js';

/**
 * METHODOLOGY.md section 3, `trust-method/1`: admitted evidence, absences and
 * an evaluation time in; score and interval out. This is the only code path
 * that produces a score. Pure: no I/O, no clock (as_of is an input).
 *
 * Glossary (section 3 symbols):
 * - w_i   weight of one item: trust band × provenance × freshness
 * - R, S  summed weights of supporting / weakening items (stored order)
 * - n     R + S
 * - P     posterior mean (R + W·a) / (n + W) with the Beta(1, 1) prior
 * - n_eff effective observations after conflict cancellation and absences
 */

export const METHODOLOGY_VERSION = 'trust-method/1';

export type TrustBand = 'high' | 'medium' | 'low';
export type ScoringDisposition = 'supports' | 'weakens';

export interface EvidenceItem {
  provenance_class: string;
  trust_band: TrustBand;
  /** ISO 8601 instant; see parseInstant for the accepted forms. */
  observed_at: string;
  disposition: ScoringDisposition;
}

export interface ScoreInput {
  /** Evaluation time, stored with the assessment. */
  as_of: string;
  /** Admitted, non-neutral evidence in stored order (the order of the sums). */
  evidence: readonly EvidenceItem[];
  /** k: the number of checks that failed or did not answer. */
  absences: number;
}

export interface ScoreResult {
  methodology_version: typeof METHODOLOGY_VERSION;
  score: number;
  low: number;
  high: number;
  R: number;
  S: number;
  n: number;
  n_eff: number;
  P: number;
}

/** Section 2. Any change here is a new methodology version, never an edit. */
export const PARAMETERS = Object.freeze({
  /** Prior weight W and base rate a: Beta(1, 1). */
  priorWeight: 2,
  baseRate: 0.5,
  trustBandWeight: Object.freeze({ high: 1.0, medium: 0.6, low: 0.3 }) as Readonly<
    Record<TrustBand, number>
  >,
  /** A Map, not an object, so a class named `constructor` cannot hit the prototype. */
  provenanceWeight: new Map<string, number>([
    ['third_party', 1.0],
    ['computed', 0.8],
    ['tenant_supplied', 0.5],
    ['analyst_asserted', 0.5],
    ['self_attested', 0.25],
  ]) as ReadonlyMap<string, number>,
  /** Weight of any provenance class not in the table. */
  otherProvenanceWeight: 0.25,
  halfLifeDays: 180,
  msPerDay: 86_400_000,
  /** κ: how strongly opposing evidence cancels for precision. */
  conflict: 1,
  /** γ: how much each absence dilutes the effective evidence. */
  absence: 0.25,
  /** Equal-tailed 90 % interval. */
  lowerQuantile: 0.05,
  upperQuantile: 0.95,
  /** ε keeps floor/ceil/round stable when 100·x lands a hair off an integer. */
  epsilon: 1e-9,
});

const EPS = PARAMETERS.epsilon;

/** Round half up (never banker's rounding), with ε. Shared with the stake rule. */
export function roundHalfUp(x: number): number {
  return Math.floor(x + 0.5 + EPS);
}

function clampPercent(x: number): number {
  return Math.min(100, Math.max(0, x));
}

function bandWeight(band: unknown, field: string): number {
  if (band === 'high' || band === 'medium' || band === 'low') {
    return PARAMETERS.trustBandWeight[band];
  }
  throw new ScoringInputError(field, `must be one of high, medium, low, got ${JSON.stringify(band)}`);
}

function provenanceWeight(provenance: unknown, field: string): number {
  if (typeof provenance !== 'string') {
    throw new ScoringInputError(field, 'must be a string');
  }
  return PARAMETERS.provenanceWeight.get(provenance) ?? PARAMETERS.otherProvenanceWeight;
}

/** Step 1: w_i = β(band) · ρ(provenance) · 2^(−age / H), age ≥ 0 in days. */
function itemWeight(item: EvidenceItem, asOfMs: number, index: number): number {
  const at = `evidence[${index}]`;
  const observedMs = parseInstant(item.observed_at, `${at}.observed_at`);
  // Future-dated items count as age 0: a clock skew must not make evidence heavier.
  const ageDays = Math.max(0, (asOfMs - observedMs) / PARAMETERS.msPerDay);
  const freshness = Math.pow(2, -ageDays / PARAMETERS.halfLifeDays);
  return (
    bandWeight(item.trust_band, `${at}.trust_band`) *
    provenanceWeight(item.provenance_class, `${at}.provenance_class`) *
    freshness
  );
}

/** Step 2: R and S, summed in stored order (float addition is not associative). */
function sumWeights(evidence: readonly EvidenceItem[], asOfMs: number): { R: number; S: number } {
  let R = 0;
  let S = 0;
  evidence.forEach((item, index) => {
    const w = itemWeight(item, asOfMs, index);
    if (item.disposition === 'supports') R += w;
    else if (item.disposition === 'weakens') S += w;
    else {
      throw new ScoringInputError(
        `evidence[${index}].disposition`,
        `must be supports or weakens, got ${JSON.stringify(item.disposition)}`,
      );
    }
  });
  return { R, S };
}

function checkAbsences(k: unknown): number {
  if (typeof k !== 'number' || !Number.isInteger(k) || k < 0) {
    throw new ScoringInputError('absences', `must be a non-negative integer, got ${JSON.stringify(k)}`);
  }
  return k;
}

/** Section 3, steps 1 to 8. */
export function score(input: ScoreInput): ScoreResult {
  const asOfMs = parseInstant(input.as_of, 'as_of');
  const k = checkAbsences(input.absences);
  if (!Array.isArray(input.evidence)) throw new ScoringInputError('evidence', 'must be an array');

  const { R, S } = sumWeights(input.evidence, asOfMs);
  const n = R + S;

  // Step 3: the posterior mean with the Beta(1, 1) prior.
  const W = PARAMETERS.priorWeight;
  const P = (R + W * PARAMETERS.baseRate) / (n + W);
  const point = clampPercent(roundHalfUp(100 * P));

  // Steps 4-5: conflict cancels for precision (not for the mean); absences dilute.
  const nC = Math.max(0, n - 2 * PARAMETERS.conflict * Math.min(R, S));
  const nEff = nC / (1 + PARAMETERS.absence * k);

  // Step 6: same mean P, fewer effective observations.
  const nu = nEff + 2;
  const alpha = P * nu;
  const betaShape = (1 - P) * nu;

  // Step 7: outward rounding with ε, so an exact integer bound stays put.
  const low = clampPercent(Math.floor(100 * betaQuantile(PARAMETERS.lowerQuantile, alpha, betaShape) + EPS));
  const high = clampPercent(Math.ceil(100 * betaQuantile(PARAMETERS.upperQuantile, alpha, betaShape) - EPS));

  // Step 8: the interval always contains the score.
  return {
    methodology_version: METHODOLOGY_VERSION,
    score: point,
    low: Math.min(low, point),
    high: Math.max(high, point),
    R,
    S,
    n,
    n_eff: nEff,
    P,
  };
}
