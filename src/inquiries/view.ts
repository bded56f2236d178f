import { z } from 'zod';
import type { Principal } from '../auth/index.js';
import { assessmentOf } from '../assessment/index.js';
import type { AssessmentRow } from './store.js';
import { Assessment as AssessmentSchema, InquiryStatus } from '../assessment/schemas.js';
import type { Assessment } from '../../machines/types.js';

/**
 * What a caller may know of an inquiry, as the commands answer it: the
 * latest assessment always; findings only once the inquiry concluded, when
 * the key holds the `findings` scope and the policy that applied shows them;
 * the report when one was asked for. No address: the route adds the stream's
 * URL while the inquiry still reasons (wire.ts). It is also what an
 * idempotency key keeps.
 */
export interface InquiryOutcome {
  inquiry_id: string;
  status: string;
  assessment: Assessment;
  findings?: Record<string, unknown>;
  report?: unknown;
}

/**
 * An outcome kept as JSON (an idempotency key's answer), parsed back on a
 * replay. Answers kept before the route built the address hold it too
 * (`events_url`): it is read and dropped, and the route builds it again.
 */
const StoredOutcome = z.object({
  inquiry_id: z.string(),
  status: InquiryStatus,
  assessment: AssessmentSchema,
  findings: z.record(z.string(), z.unknown()).optional(),
  report: z.unknown().optional(),
  events_url: z.string().optional(),
});

export function parseStoredOutcome(stored: unknown): InquiryOutcome {
  const { inquiry_id, status, assessment, findings, report } = StoredOutcome.parse(stored);
  return { inquiry_id, status, assessment, ...(findings ? { findings } : {}), ...(report !== undefined ? { report } : {}) };
}

export function mayShowFindings(principal: Principal, showFindings: boolean | undefined): boolean {
  return principal.scopes.has('findings') && showFindings !== false;
}

export function inquiryOutcome(input: {
  inquiryId: string;
  status: string;
  assessment: AssessmentRow;
  showFindings: boolean;
  report?: unknown;
}): InquiryOutcome {
  const concluded = input.status === 'concluded';
  return {
    inquiry_id: input.inquiryId,
    status: input.status,
    assessment: assessmentOf(input.assessment),
    ...(concluded && input.showFindings && input.assessment.findings ? { findings: input.assessment.findings } : {}),
    ...(input.report ? { report: input.report } : {}),
  };
}
