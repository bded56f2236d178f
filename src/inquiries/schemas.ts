import { z } from 'zod';
import { component, idString, Stake, Subject, Tier } from '../schemas/common.js';
import { Assessment, Findings, InquiryStatus, Report } from '../assessment/schemas.js';
import { ObservationIn } from '../observations/schemas.js';

/**
 * The inquiry: the question (InquiryRequest) and the answer (InquiryResponse).
 * Field names, types and requiredness follow SPEC.md "Resources and their fields".
 * The assessment, its findings and report are the engine's shapes
 * (src/assessment/schemas.ts), shared with every capability that shows them.
 */

export const RenderMode = z.enum(['none', 'template', 'model']);
export const InquiryMode = z.enum(['sync', 'async', 'stream']);

/**
 * Request fields asked the same way wherever the engine is asked: a case's
 * expansion (src/cases/schemas.ts) is an inquiry from a seed, and a case's
 * assertion cites ingested material as an inquiry does. The shape is shared;
 * each use describes the field in its own words.
 */
export const intentId = idString;
export const purposeId = idString;
export const tierCeiling = Tier.default('t2');
export const materialIds = z.array(idString).max(20);

export const InquiryRequest = component(
  'InquiryRequest',
  'How much should this subject be trusted for this purpose at this stake. Request body of POST /v1/inquiries.',
  z.strictObject({
    subject: Subject,
    intent: intentId.describe('Registered intent id, for example `pre_transaction` (rule I14).'),
    purpose: purposeId.describe('Registered purpose id; required on every call (rule I13).'),
    stake: Stake,
    // Caps bound the work one call can ask for: 50 testimonies and 20 pieces of
    // material are more than any real decision carries.
    context: z.array(ObservationIn).max(50).optional().describe('Caller testimony attached inline.'),
    material_ids: materialIds.optional().describe('Material already ingested, to reason over.'),
    tier_ceiling: tierCeiling.describe('Highest provider tier this inquiry may use (rule I19).'),
    render: RenderMode.default('none').describe('Whether findings are written up as a report; the reply states which renderer ran.'),
    render_lang: z
      .string()
      .max(35)
      .regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/)
      .optional()
      .describe('BCP 47 language tag of the report, for example `en`, `pt-BR`.'),
    mode: InquiryMode.default('sync').describe('Only `sync` is served; `async` and `stream` are refused (rule I16).'),
    idempotency_key: idString.optional().describe('Replays the first answer for the same key and body (rule I17).'),
  }),
);

export const InquiryResponse = component(
  'InquiryResponse',
  'An inquiry and its latest assessment.',
  z.strictObject({
    inquiry_id: z.string(),
    status: InquiryStatus,
    assessment: Assessment,
    findings: Findings.optional(),
    report: Report.optional(),
    events_url: z.string().optional().describe('SSE stream of revisions while reasoning.'),
  }),
);

export type InquiryRequest = z.infer<typeof InquiryRequest>;
export type InquiryResponse = z.infer<typeof InquiryResponse>;
