/**
 * Public API of the scoring package: the methodology function (every
 * version), its stake rule, admission and the evidence summary. Everything
 * here is pure.
 */
export {
  METHODOLOGY_VERSION,
  METHODOLOGY_VERSIONS,
  PARAMETERS,
  STRENGTHS,
  TRUST_METHOD_1,
  TRUST_METHOD_2,
  TRUST_METHOD_3,
  roundHalfUp,
  score,
} from './methodology.js';
export type { EvidenceItem, MethodologyVersion, ScoreInput, ScoreResult, ScoringDisposition, Strength, TrustBand } from './methodology.js';
export { betaQuantile, incompleteBeta, logGamma } from './betaQuantile.js';
export { extraChecksWorthRunning, isNarrowEnough, maxWidth, stakeTier } from './stake.js';
export type { Stake, StakeKind } from './stake.js';
export { admitEvidence, isAdmissible, summarizeEvidence, toLedgerSignals, toScoringInputs } from './summary.js';
export type { Admission, AdmittedSignal, EvidenceSummary, LedgerSignal, SignalDisposition } from './summary.js';
export { findingId, mintFinding, packFindings, packInputs, unpackFindings, unpackInputs } from './ledgerRecord.js';
export { instantMillis, isInstant, parseInstant } from './parseInstant.js';
export { ScoringInputError } from './scoringInputError.js';
