/**
 * The vocabulary the machines share with the rest of the service: the
 * evidence they carry (signals and absences, from the checks), the subject
 * they reason about, the jobs they ask the runtime to enqueue, and the
 * trigger hits a monitor acts on. It lives here because machines are pure and
 * import only xstate and their own types (DESIGN.md); the checks, the actor
 * runtime and the monitors import it from here, never the other way round.
 * Glossary: src/checks/types.ts.
 */

export type TrustBand = 'high' | 'medium' | 'low';
/** METHODOLOGY.md section 7: how diagnostic a signal is (weak 0.5, moderate 1, strong 2). */
export type Strength = 'weak' | 'moderate' | 'strong';
export type DataClass = 'C0' | 'C1' | 'C2';
export type Disposition = 'supports' | 'weakens' | 'neutral';
export type Tier = 't0' | 't1' | 't2';
export type AbsenceKind = 'timeout' | 'error' | 'no_data' | 'refused' | 'budget' | 'unregistered';

/** A presentation after normalisation by the service. */
export interface NormalisedPresentation {
  type: string;
  /** The caller's value as presented (used as `about` in findings). */
  value: string;
  /** Canonical form used for matching entities (lower-cased email, E.164 phone...). */
  normalised: string;
  /**
   * Why the value is not a value of its type (`not an email` as an EMAIL),
   * set when it was normalised; absent when it is one. Only the form check
   * and the checks of the tenant's records run on such a value.
   */
  malformed?: string;
}

/** Claims the subject made about itself (country, name...). Closed in the schema. */
export interface SubjectClaim {
  name?: string;
  country?: string;
  email?: string;
  phone?: string;
  organisation?: string;
  website?: string;
}

export interface Signal {
  /** The question answered, e.g. `email_syntax`, `domain_age`. Never a source name. */
  kind: string;
  about: string;
  about_type: string;
  disposition: Disposition;
  /** Human-readable, written by the check itself; never contains a provider name or raw payload. */
  statement: string;
  provenance_class: string;
  trust_band: TrustBand;
  data_class: DataClass;
  observed_at: string;
  /** Declared by the check for this (kind, disposition); absent on neutral signals, which are not scored. */
  strength?: Strength;
  /** The tenant record the signal stands for (an outcome, an observation), so distinct reports stay distinct items. */
  ref?: string;
  /**
   * What the fact is about when that is not the presented value alone
   * (`site:paypa1-login.com`, `host:...`, `domain:...`; CheckDefinition.judges):
   * presentations that name the same host or site share its facts, and
   * admission counts a shared fact once. Stored, never shown.
   */
  fact?: string;
  /** The reference data snapshot the check read (CheckDefinition.snapshot). Stored in the ledger's inputs, never shown in a finding. */
  snapshot?: string;
}

export interface Absence {
  about: string;
  about_type: string;
  kind: AbsenceKind;
  reason: string;
}

/** A BullMQ job a machine asks the runtime to enqueue after commit (actors/types.ts). */
export interface OutboxJob {
  queue: string;
  name: string;
  jobId: string;
  data: Record<string, unknown>;
  delayMs?: number;
}

export const TRIGGER_KINDS = ['label_change', 'score_below', 'score_above', 'score_moves_by', 'width_above'] as const;
export type TriggerKind = (typeof TRIGGER_KINDS)[number];

/** One trigger of a monitor that fired on a rescan (src/monitors/triggers.ts). */
export interface TriggerHit {
  reason: TriggerKind;
}

/** The tenant's own label for an assessment, and the policy version that gave it. */
export interface AssessmentLabel {
  value: string;
  policy_version: number;
}

/** Counts of the admitted evidence (METHODOLOGY.md): never a source name or raw content. */
export interface EvidenceSummary {
  signals: number;
  failed_signals: number;
  contradictions: number;
  by_provenance_class: Record<string, number>;
  by_trust_band: Record<TrustBand, number>;
  oldest_observed_at: string;
  newest_observed_at: string;
}

/**
 * The assessment, declared once: what the scoring produces, what the ledger
 * keeps, what the machines carry and announce, and what a caller reads (the
 * contract's `Assessment` schema in src/assessment/schemas.ts is checked
 * against it at compile time). The machines only stamp `preliminary`.
 */
export interface Assessment {
  assessment_id: string;
  inquiry_id: string;
  score: number;
  low: number;
  high: number;
  preliminary: boolean;
  as_of: string;
  methodology_version: string;
  label: AssessmentLabel | null;
  evidence: EvidenceSummary;
  entity_id: string | null;
}

/**
 * What the ledger keeps beside an assessment: the scoring inputs `tas score`
 * reconstructs it from, and the findings as they stood. It goes to
 * `recordAssessment` only, never into an announced event, which anyone
 * holding the stream may read.
 */
export interface AssessmentRecord {
  inputs: unknown;
  findings: unknown;
}
