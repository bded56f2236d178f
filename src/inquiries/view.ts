import { z } from 'zod';
import type { Principal } from '../auth/index.js';
import type { AssessmentRow } from './store.js';
import { Assessment as AssessmentSchema, InquiryStatus } from './schemas.js';
import type { Assessment } from '../../machines/types.js';

/**
 * What a caller sees of an inquiry: the latest assessment always; findings
 * only once the inquiry concluded, when the key holds the `findings` scope and
 * the policy that applied shows them; the SSE address while it still reasons.
 */
export interface InquiryView {
  inquiry_id: string;
  status: string;
  assessment: Assessment;
  findings?: Record<string, unknown>;
  report?: unknown;
  events_url?: string;
}

/** An inquiry view kept as JSON (an idempotency key's answer), parsed back on a replay. */
export const StoredInquiryView = z.object({
  inquiry_id: z.string(),
  status: InquiryStatus,
  assessment: AssessmentSchema,
  findings: z.record(z.string(), z.unknown()).optional(),
  report: z.unknown().optional(),
  events_url: z.string().optional(),
});

/** The columns of an assessment row that make up the published Assessment. */
type AssessmentColumns = Pick<
  AssessmentRow,
  'id' | 'inquiry_id' | 'score' | 'low' | 'high' | 'preliminary' | 'as_of' | 'methodology_version' | 'entity_id' | 'label' | 'evidence'
>;

/**
 * An assessment exactly as published, from its ledger row (the one mapping
 * every read uses; the row's JSON columns were parsed when it was read).
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

export function mayShowFindings(principal: Principal, showFindings: boolean | undefined): boolean {
  return principal.scopes.has('findings') && showFindings !== false;
}

export function inquiryView(input: {
  inquiryId: string;
  status: string;
  assessment: AssessmentRow;
  showFindings: boolean;
  publicUrl: string;
  report?: unknown;
}): InquiryView {
  const concluded = input.status === 'concluded';
  return {
    inquiry_id: input.inquiryId,
    status: input.status,
    assessment: assessmentOf(input.assessment),
    ...(concluded && input.showFindings && input.assessment.findings ? { findings: input.assessment.findings } : {}),
    ...(input.report ? { report: input.report } : {}),
    ...(concluded ? {} : { events_url: `${input.publicUrl}/v1/inquiries/${input.inquiryId}/events` }),
  };
}
