import type { Assessment } from '../../machines/types.js';

/** An assessment's ledger row as read (its JSON columns already parsed): the columns the published Assessment takes. */
export type AssessmentColumns = Omit<Assessment, 'assessment_id'> & { id: string };

/**
 * An assessment exactly as published, from its ledger row: the one mapping
 * every read uses (an inquiry's answer, an entity's ledger, a monitor's last
 * result).
 */
export function assessmentOf(row: AssessmentColumns): Assessment {
  return {
    assessment_id: row.id,
    inquiry_id: row.inquiry_id,
    score: row.score,
    low: row.low,
    high: row.high,
    preliminary: row.preliminary,
    as_of: row.as_of,
    methodology_version: row.methodology_version,
    label: row.label,
    evidence: row.evidence,
    entity_id: row.entity_id,
  };
}
