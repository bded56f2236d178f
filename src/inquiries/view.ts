import { z } from 'zod';
import type { Principal } from '../auth/index.js';
import { assessmentOf } from '../assessment/index.js';
import type { AssessmentRow } from './store.js';
import { Assessment as AssessmentSchema, InquiryStatus } from '../assessment/schemas.js';
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
