import { betaQuantile } from './betaQuantile.js';
import { parseInstant } from './parseInstant.js';
import { ScoringInputError } from './scoringInputError.js';

/**
 * METHODOLOGY.md: admitted evidence, absences and an evaluation time in; score
 * and interval out. The only code path that produces a score. Pure: no I/O,
 * no clock (as_of is an input). Three versions exist and all stay forever, so
 * every assessment they issued reproduces: `trust-method/1` (sections 1-6),
 * `trust-method/2` (section 7) and `trust-method/3` (section 8), the current
 * one. They differ only in the rows of VERSIONS below.
 *
 * Glossary (section 3 symbols):
 * - w_i   weight of one item: trust band × provenance × freshness (× strength σ from v2 on)
 * - R, S  summed weights of supporting / weakening items (stored order)
 * - n     R + S
 * - P     posterior mean (R + W·a) / (n + W) with the Beta(1, 1) prior
 * - n_c   evidence left after conflict cancellation
 * - n_eff effective observations (v1: n_c diluted by absences; v2, v3: n_c)
 * - u     v2, v3: the share of the interval mixed with the vacuous one for k absences
 */

export const TRUST_METHOD_1 = 'trust-method/1';
export const TRUST_METHOD_2 = 'trust-method/2';
export const TRUST_METHOD_3 = 'trust-method/3';
export type MethodologyVersion = typeof TRUST_METHOD_1 | typeof TRUST_METHOD_2 | typeof TRUST_METHOD_3;
/** The version every new assessment is computed with. */
export const METHODOLOGY_VERSION: MethodologyVersion = TRUST_METHOD_3;
export const METHODOLOGY_VERSIONS: readonly MethodologyVersion[] = [TRUST_METHOD_1, TRUST_METHOD_2, TRUST_METHOD_3];

export type TrustBand = 'high' | 'medium' | 'low';
export type ScoringDisposition = 'supports' | 'weakens';
/** Section 7: how diagnostic a signal is, declared by its check per (kind, disposition). */
export type Strength = 'weak' | 'moderate' | 'strong';
export const STRENGTHS: readonly Strength[] = ['weak', 'moderate', 'strong'];

export interface EvidenceItem {
  provenance_class: string;
  trust_band: TrustBand;
  /** ISO 8601 instant; see parseInstant for the accepted forms. */
  observed_at: string;
  disposition: ScoringDisposition;
  /** Required by `trust-method/2` and `/3` (the version decides its weight), refused by `trust-method/1`. */
  strength?: Strength;
}

export interface ScoreInput {
  /** Evaluation time, stored with the assessment. */
  as_of: string;
  /** Admitted, non-neutral evidence in stored order (the order of the sums). */
  evidence: readonly EvidenceItem[];
  /** k: the number of checks that failed or did not answer. */
  absences: number;
  /** Absent means the current version. */
  methodology_version?: MethodologyVersion;
}

export interface ScoreResult {
  methodology_version: MethodologyVersion;
  score: number;
  low: number;
  high: number;
  R: number;
  S: number;
  n: number;
  n_eff: number;
  P: number;
}

/** A Map its holders cannot change (by type; the tables below are never written). */
function readonlyMap<K, V>(entries: readonly (readonly [K, V])[]): ReadonlyMap<K, V> {
  return new Map(entries);
}

/** Section 2 (and sections 7 and 8's additions). Any change here is a new methodology version, never an edit. */
export const PARAMETERS = Object.freeze({
  /** Prior weight W and base rate a: Beta(1, 1). */
  priorWeight: 2,
  baseRate: 0.5,
  trustBandWeight: Object.freeze({ high: 1.0, medium: 0.6, low: 0.3 }),
  /** A Map, not an object, so a class named `constructor` cannot hit the prototype. */
  provenanceWeight: readonlyMap<string, number>([
    ['third_party', 1.0],
    ['computed', 0.8],
    ['tenant_supplied', 0.5],
    ['analyst_asserted', 0.5],
    ['self_attested', 0.25],
  ]),
  /** Weight of any provenance class not in the table. */
  otherProvenanceWeight: 0.25,
  halfLifeDays: 180,
  msPerDay: 86_400_000,
  /** κ: how strongly opposing evidence cancels for precision. */
  conflict: 1,
  /** γ (v1): how much each absence dilutes the effective evidence. */
  absence: 0.25,
  /** σ (v2): strength multipliers. */
  strengthWeight: Object.freeze({ weak: 0.5, moderate: 1.0, strong: 2.0 }),
  /**
   * σ (v3): strength on the scale of observations. One item of weight w moves
   * the Beta(1, 1) odds by w + 1, so these are likelihood ratios of about 2, 4
   * and 9 before the band, provenance and age discounts.
   */
  strengthWeightV3: Object.freeze({ weak: 1, moderate: 3, strong: 8 }),
  /** μ (v2, v3): how much of the interval each absence mixes with the vacuous one. */
  absenceMix: 1 / 20,
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

/**
 * What sets the versions apart (everything else is shared): σ, the strength
 * table (none in v1, which never had a strength), and how the k absences
 * widen the interval (v1 dilutes the evidence; v2 and v3 mix the interval
 * with the vacuous one).
 */
interface VersionRules {
  strengths: Readonly<Record<Strength, number>> | null;
  interval: (post: Posterior, k: number) => { low: number; high: number; nEff: number };
}

/** v1 refuses a strength (it never had one); v2 and v3 require one of the three. */
function strengthWeight(item: EvidenceItem, version: MethodologyVersion, field: string): number | undefined {
  const strength: unknown = item.strength;
  const table = VERSIONS[version].strengths;
  if (table === null) {
    if (strength !== undefined) {
      throw new ScoringInputError(field, `is not part of ${version}; remove it or score with ${METHODOLOGY_VERSION}`);
    }
    return undefined;
  }
  if (strength === 'weak' || strength === 'moderate' || strength === 'strong') return table[strength];
  throw new ScoringInputError(
    field,
    strength === undefined
      ? `is required by ${version} (weak, moderate or strong)`
      : `must be one of weak, moderate, strong, got ${JSON.stringify(strength)}`,
  );
}

/** Step 1: w_i = β(band) · ρ(provenance) [· σ(strength) from v2 on] · 2^(−age / H), age ≥ 0 in days. */
function itemWeight(item: EvidenceItem, asOfMs: number, index: number, version: MethodologyVersion): number {
  const at = `evidence[${index}]`;
  const observedMs = parseInstant(item.observed_at, `${at}.observed_at`);
  // Future-dated items count as age 0: a clock skew must not make evidence heavier.
  const ageDays = Math.max(0, (asOfMs - observedMs) / PARAMETERS.msPerDay);
  const freshness = Math.pow(2, -ageDays / PARAMETERS.halfLifeDays);
  const base = bandWeight(item.trust_band, `${at}.trust_band`) * provenanceWeight(item.provenance_class, `${at}.provenance_class`);
  const sigma = strengthWeight(item, version, `${at}.strength`);
  // v1 multiplies exactly as it always did (no factor of 1 inserted), so its bits never change.
  return sigma === undefined ? base * freshness : base * sigma * freshness;
}

/** Step 2: R and S, summed in stored order (float addition is not associative). */
function sumWeights(evidence: readonly EvidenceItem[], asOfMs: number, version: MethodologyVersion): { R: number; S: number } {
  let R = 0;
  let S = 0;
  evidence.forEach((item, index) => {
    const w = itemWeight(item, asOfMs, index, version);
    if (item.disposition === 'supports') R += w;
    else if (item.disposition === 'weakens') S += w;
    else {
      throw new ScoringInputError(`evidence[${index}].disposition`, `must be supports or weakens, got ${JSON.stringify(item.disposition)}`);
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

function checkVersion(version: unknown): MethodologyVersion {
  if (version === undefined) return METHODOLOGY_VERSION;
  if (METHODOLOGY_VERSIONS.includes(version as MethodologyVersion)) return version as MethodologyVersion;
  throw new ScoringInputError('methodology_version', `must be one of ${METHODOLOGY_VERSIONS.join(', ')}, got ${JSON.stringify(version)}`);
}

interface Posterior {
  R: number;
  S: number;
  n: number;
  P: number;
  point: number;
  /** n_c: evidence left for precision once opposing evidence cancels. */
  nC: number;
}

/** Steps 1-4, shared by every version: weights, sums, the mean and the score. */
function posterior(input: ScoreInput, version: MethodologyVersion): Posterior {
  const asOfMs = parseInstant(input.as_of, 'as_of');
  if (!Array.isArray(input.evidence)) throw new ScoringInputError('evidence', 'must be an array');
  const { R, S } = sumWeights(input.evidence, asOfMs, version);
  const n = R + S;
  const W = PARAMETERS.priorWeight;
  const P = (R + W * PARAMETERS.baseRate) / (n + W);
  // Conflict cancels for precision, not for the mean.
  const nC = Math.max(0, n - 2 * PARAMETERS.conflict * Math.min(R, S));
  return { R, S, n, P, point: clampPercent(roundHalfUp(100 * P)), nC };
}

function quantiles(P: number, effective: number): { qLo: number; qHi: number } {
  const nu = effective + 2;
  return {
    qLo: betaQuantile(PARAMETERS.lowerQuantile, P * nu, (1 - P) * nu),
    qHi: betaQuantile(PARAMETERS.upperQuantile, P * nu, (1 - P) * nu),
  };
}

function result(version: MethodologyVersion, post: Posterior, low: number, high: number, nEff: number): ScoreResult {
  // Step 8: the interval always contains the score.
  return {
    methodology_version: version,
    score: post.point,
    low: Math.min(low, post.point),
    high: Math.max(high, post.point),
    R: post.R,
    S: post.S,
    n: post.n,
    n_eff: nEff,
    P: post.P,
  };
}

/** Section 3, steps 5-7: absences dilute the effective evidence. */
function dilutedInterval(post: Posterior, k: number): { low: number; high: number; nEff: number } {
  const nEff = post.nC / (1 + PARAMETERS.absence * k);
  const { qLo, qHi } = quantiles(post.P, nEff);
  // Step 7: outward rounding with ε, so an exact integer bound stays put.
  const low = clampPercent(Math.floor(100 * qLo + EPS));
  const high = clampPercent(Math.ceil(100 * qHi - EPS));
  return { low, high, nEff };
}

/** Section 7, steps 4-7: absences mix the interval with the vacuous [0, 1]. */
function mixedInterval(post: Posterior, k: number): { low: number; high: number; nEff: number } {
  const { qLo, qHi } = quantiles(post.P, post.nC);
  const mu = PARAMETERS.absenceMix;
  const u = (mu * k) / (1 + mu * k);
  const low = clampPercent(Math.floor(100 * (1 - u) * qLo + EPS));
  const high = clampPercent(Math.ceil(100 * (1 - (1 - u) * (1 - qHi)) - EPS));
  return { low, high, nEff: post.nC };
}

/** The versions, side by side: a new version is a new row, never an edit of one. */
const VERSIONS: Readonly<Record<MethodologyVersion, VersionRules>> = {
  [TRUST_METHOD_1]: { strengths: null, interval: dilutedInterval },
  [TRUST_METHOD_2]: { strengths: PARAMETERS.strengthWeight, interval: mixedInterval },
  [TRUST_METHOD_3]: { strengths: PARAMETERS.strengthWeightV3, interval: mixedInterval },
};

/** The methodology named by `input.methodology_version` (the current one when absent). */
export function score(input: ScoreInput): ScoreResult {
  const version = checkVersion(input.methodology_version);
  // Errors in the order a reader meets the fields: the time, then k, then the items.
  parseInstant(input.as_of, 'as_of');
  const k = checkAbsences(input.absences);
  const post = posterior(input, version);
  const { low, high, nEff } = VERSIONS[version].interval(post, k);
  return result(version, post, low, high, nEff);
}
