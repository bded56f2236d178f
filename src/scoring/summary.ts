import type { EvidenceItem, ScoringDisposition, Strength, TrustBand } from './methodology.js';
import type { EvidenceSummary } from '../../machines/types.js';
import { instantMillis, parseInstant } from './parseInstant.js';
import { ScoringInputError } from './scoringInputError.js';

/**
 * Admission and the evidence summary (METHODOLOGY.md sections 1 and 3,
 * "Evidence summary fields"). Admission runs before the scoring function:
 * counting assumes independent items, so malformed items and exact duplicates
 * are dropped here, once, and everything downstream sees the same list.
 */

export type SignalDisposition = 'supports' | 'weakens' | 'neutral';

/** What admission and the summary need of a signal; extra fields pass through untouched. */
export interface AdmittedSignal {
  provenance_class: string;
  trust_band: TrustBand;
  observed_at: string;
  disposition: SignalDisposition;
  /** The question answered; part of an item's identity when present. */
  kind?: string;
  /** The presented value concerned; part of an item's identity when present. */
  about?: string;
  /**
   * What the fact is about when that is not the presented value alone (a
   * host several presentations name); it stands for `about` in the item's
   * identity, so one fact reached through two presentations counts once.
   */
  fact?: string;
  /** `trust-method/2` and `/3`: how diagnostic the signal is, as its check declared it. */
  strength?: Strength;
  /**
   * The record the item stands for when it has one (an outcome, an
   * observation): two distinct reports of the same kind on the same day are
   * two items, while a retry of one report (same record) is one.
   */
  ref?: string;
}

export interface Admission<T> {
  /** Admitted signals, neutral ones included, in stored order. */
  signals: T[];
  /** The scoring inputs: admitted non-neutral signals, in stored order. */
  evidence: EvidenceItem[];
  /** How many candidates were dropped as malformed / as exact duplicates. */
  malformed: number;
  duplicates: number;
}

/** The evidence counts of an assessment, declared with the Assessment (machines/types.ts). */
export type { EvidenceSummary };

const BANDS: ReadonlySet<unknown> = new Set(['high', 'medium', 'low']);
const DISPOSITIONS: ReadonlySet<unknown> = new Set(['supports', 'weakens', 'neutral']);
const STRENGTH_NAMES: ReadonlySet<unknown> = new Set(['weak', 'moderate', 'strong']);

function isOptionalString(value: unknown): boolean {
  return value === undefined || typeof value === 'string';
}

/** Well-formed: every field the methodology reads is present and in its domain. */
export function isAdmissible(candidate: unknown): candidate is AdmittedSignal {
  if (typeof candidate !== 'object' || candidate === null) return false;
  const c = candidate as Record<string, unknown>;
  return (
    typeof c.provenance_class === 'string' &&
    c.provenance_class.length > 0 &&
    BANDS.has(c.trust_band) &&
    DISPOSITIONS.has(c.disposition) &&
    instantMillis(c.observed_at) !== undefined &&
    isOptionalString(c.kind) &&
    isOptionalString(c.about) &&
    isOptionalString(c.fact) &&
    isOptionalString(c.ref) &&
    (c.strength === undefined || STRENGTH_NAMES.has(c.strength))
  );
}

/**
 * Identity of an item for duplicate detection. observed_at is compared as an
 * instant, so `...T00:00:00Z` and `...T00:00:00.000Z` are the same observation.
 * An item about a shared fact (a host two presentations name) is the same
 * item whenever it was observed: the network checks of two presentations
 * look the same host up a moment apart, and that is still one fact.
 */
function identity(signal: AdmittedSignal): string {
  const observed = signal.fact === undefined ? `#${instantMillis(signal.observed_at)};` : '-';
  return (
    part(signal.provenance_class) +
    part(signal.trust_band) +
    observed +
    part(signal.disposition) +
    part(signal.kind) +
    part(signal.fact ?? signal.about) +
    part(signal.strength) +
    part(signal.ref)
  );
}

/**
 * One field of an identity, self-delimiting so that the fields joined name
 * one tuple only: a string as its length, a colon and itself; an absent
 * field as `-` (which no length starts with). Cheaper than JSON of an array
 * of the same fields, and as exact.
 */
function part(value: string | undefined): string {
  return value === undefined ? '-' : `${value.length}:${value}`;
}

/** Drop malformed items and exact duplicates (first one kept); keep stored order. */
export function admitEvidence<T>(candidates: readonly T[]): Admission<T & AdmittedSignal> {
  const seen = new Set<string>();
  const signals: Array<T & AdmittedSignal> = [];
  let malformed = 0;
  let duplicates = 0;
  for (const candidate of candidates) {
    if (!isAdmissible(candidate)) {
      malformed++;
      continue;
    }
    const key = identity(candidate);
    if (seen.has(key)) {
      duplicates++;
      continue;
    }
    seen.add(key);
    signals.push(candidate);
  }
  return { signals, evidence: toScoringInputs(signals), malformed, duplicates };
}

/**
 * The scoring function's view: non-neutral signals reduced to the fields it
 * reads (four in v1, five with `strength` in v2; an item without a strength
 * stays without one, so a v1 ledger entry re-scores as v1).
 */
export function toScoringInputs(signals: readonly AdmittedSignal[]): EvidenceItem[] {
  const evidence: EvidenceItem[] = [];
  for (const s of signals) {
    if (s.disposition === 'neutral') continue;
    const item: EvidenceItem = {
      provenance_class: s.provenance_class,
      trust_band: s.trust_band,
      observed_at: s.observed_at,
      disposition: s.disposition,
    };
    if (s.strength !== undefined) item.strength = s.strength;
    evidence.push(item);
  }
  return evidence;
}

/**
 * One admitted signal as the ledger keeps it: the fields the scoring
 * function reads and the fields the evidence summary counts, nothing more.
 * A neutral signal is kept too (it is counted in `signals`, by class and
 * band, and in the observed range, though never scored), so the whole
 * assessment, summary included, reproduces from its ledger entry.
 */
export interface LedgerSignal {
  provenance_class: string;
  trust_band: TrustBand;
  observed_at: string;
  disposition: ScoringDisposition | 'neutral';
  /** On scored items only, and only when the item has one (never in v1). */
  strength?: Strength;
}

/** The admitted signals, neutral ones included, reduced to what the ledger keeps; stored order kept. */
export function toLedgerSignals(signals: readonly AdmittedSignal[]): LedgerSignal[] {
  return signals.map((s) => {
    const kept: LedgerSignal = {
      provenance_class: s.provenance_class,
      trust_band: s.trust_band,
      observed_at: s.observed_at,
      disposition: s.disposition,
    };
    if (s.strength !== undefined && s.disposition !== 'neutral') kept.strength = s.strength;
    return kept;
  });
}

/** Oldest and newest observed_at as stored; ties go to the earlier item in stored order. */
function observedRange(signals: readonly AdmittedSignal[], asOf: string): [string, string] {
  let oldest: [number, string] | undefined;
  let newest: [number, string] | undefined;
  signals.forEach((s, i) => {
    const ms = parseInstant(s.observed_at, `signals[${i}].observed_at`);
    if (oldest === undefined || ms < oldest[0]) oldest = [ms, s.observed_at];
    if (newest === undefined || ms > newest[0]) newest = [ms, s.observed_at];
  });
  // With no signals there is no observation to date; the evaluation time stands in.
  return [oldest?.[1] ?? asOf, newest?.[1] ?? asOf];
}

/** The EvidenceSummary of an assessment, from its admitted signals and k absences. */
export function summarizeEvidence(input: { as_of: string; signals: readonly AdmittedSignal[]; absences: number }): EvidenceSummary {
  const { signals, absences } = input;
  parseInstant(input.as_of, 'as_of');
  if (!Number.isInteger(absences) || absences < 0) {
    throw new ScoringInputError('absences', `must be a non-negative integer, got ${JSON.stringify(absences)}`);
  }
  const byProvenance = new Map<string, number>();
  const byBand: Record<TrustBand, number> = { high: 0, medium: 0, low: 0 };
  let supports = 0;
  let weakens = 0;
  for (const s of signals) {
    byProvenance.set(s.provenance_class, (byProvenance.get(s.provenance_class) ?? 0) + 1);
    byBand[s.trust_band]++;
    if (s.disposition === 'supports') supports++;
    else if (s.disposition === 'weakens') weakens++;
  }
  const [oldest, newest] = observedRange(signals, input.as_of);
  return {
    signals: signals.length,
    failed_signals: absences,
    // The items on the smaller side: each one is contradicted by the other side.
    contradictions: Math.min(supports, weakens),
    // fromEntries defines own properties, so a class named `__proto__` stays a plain key.
    by_provenance_class: Object.fromEntries(byProvenance),
    by_trust_band: byBand,
    oldest_observed_at: oldest,
    newest_observed_at: newest,
  };
}
