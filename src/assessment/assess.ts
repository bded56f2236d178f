import type { Absence, Signal } from '../checks/types.js';
import { labelFor } from '../policies/index.js';
import type { Assessment } from '../../machines/types.js';
import type { CurrentPolicy } from '../policies/index.js';
import {
  admitEvidence,
  isNarrowEnough,
  score,
  summarizeEvidence,
  toLedgerSignals,
  type LedgerSignal,
  type MethodologyVersion,
  type Stake,
} from '../scoring/index.js';

/**
 * One assessment from the evidence gathered so far: admission, the one
 * scoring function, the evidence summary, the stake's stopping rule and the
 * tenant's label. Pure: the clock and the ids come in as arguments.
 */
/**
 * What `tas score` needs to reconstruct the assessment from the ledger: the
 * admitted signals in stored order, neutral ones included (the scoring
 * function skips them; the evidence summary counts them).
 */
export interface LedgerInputs {
  methodology_version: MethodologyVersion;
  as_of: string;
  evidence: LedgerSignal[];
  absences: number;
  /**
   * The replaceable reference data the evidence was read from (a popularity
   * list, a sanctions list: CheckDefinition.snapshot), sorted; absent when
   * no such data was read. The score never depends on it (`tas score` reads
   * only the items), but it names what the facts were read from after an
   * operator has swapped the data.
   */
  data_snapshots?: string[];
}

export interface AssessInput {
  inquiryId: string;
  assessmentId: string;
  entityId: string | null;
  asOf: string;
  signals: readonly Signal[];
  absences: readonly Absence[];
  stake: Stake;
  intent: string;
  purpose: string;
  policy: CurrentPolicy | null;
  preliminary: boolean;
}

export interface AssessOutput {
  assessment: Assessment;
  inputs: LedgerInputs;
  /** The stopping rule: the interval is as narrow as the stake needs. */
  narrowEnough: boolean;
}

export function assess(input: AssessInput): AssessOutput {
  const admission = admitEvidence(input.signals);
  const k = input.absences.length;
  const result = score({ as_of: input.asOf, evidence: admission.evidence, absences: k });
  const label = labelFor(input.policy?.body ?? null, input.policy?.version ?? null, {
    score: result.score,
    low: result.low,
    high: result.high,
    intent: input.intent,
    purpose: input.purpose,
    stake_kind: input.stake.kind,
    amount: input.stake.amount,
    preliminary: input.preliminary,
  });
  return {
    assessment: {
      assessment_id: input.assessmentId,
      inquiry_id: input.inquiryId,
      score: result.score,
      low: result.low,
      high: result.high,
      preliminary: input.preliminary,
      as_of: input.asOf,
      methodology_version: result.methodology_version,
      label,
      evidence: summarizeEvidence({ as_of: input.asOf, signals: admission.signals, absences: k }),
      entity_id: input.entityId,
    },
    inputs: withSnapshots(
      {
        methodology_version: result.methodology_version,
        as_of: input.asOf,
        evidence: toLedgerSignals(admission.signals),
        absences: k,
      },
      input.signals,
    ),
    narrowEnough: isNarrowEnough(result.low, result.high, input.stake),
  };
}

/** The inputs with the snapshots the signals were read from, when any were (the key is left out otherwise, as before). */
function withSnapshots(inputs: LedgerInputs, signals: readonly Signal[]): LedgerInputs {
  let snapshots: Set<string> | undefined;
  for (const s of signals) if (s.snapshot !== undefined) (snapshots ??= new Set()).add(s.snapshot);
  if (snapshots !== undefined) inputs.data_snapshots = [...snapshots].sort();
  return inputs;
}
