import { z } from 'zod';
import {
  component,
  count,
  DataClass,
  dateTime,
  idString,
  Label,
  Presentation,
  score100,
  Stake,
  Strength,
  Subject,
  Tier,
  TrustBand,
  uuid,
} from '../schemas/common.js';
import { ObservationIn } from '../observations/schemas.js';
import type { Assessment as DomainAssessment, EvidenceSummary as DomainEvidenceSummary } from '../../machines/types.js';

/**
 * The inquiry: the question (InquiryRequest) and the answer (InquiryResponse).
 * Field names, types and requiredness follow SPEC.md "Resources and their fields".
 * Evidence is described only by counts, provenance class and banded trust:
 * nothing here can carry a source name or a raw payload.
 */

export const RenderMode = z.enum(['none', 'template', 'model']);
export const InquiryMode = z.enum(['sync', 'async', 'stream']);
export const InquiryStatus = z.enum(['accepted', 'reasoning', 'preliminary', 'concluded', 'rejected']);
export const AbsenceKind = z.enum(['timeout', 'error', 'no_data', 'refused', 'budget', 'unregistered']);

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

export const EvidenceSummary = component(
  'EvidenceSummary',
  'Counts of the admitted evidence. Never contains source names or raw content.',
  z.strictObject({
    signals: count,
    failed_signals: count,
    contradictions: count,
    by_provenance_class: z.record(z.string(), count).describe('Counts by provenance class.'),
    by_trust_band: z.strictObject({ high: count, medium: count, low: count }).describe('Counts by banded trust of the source.'),
    oldest_observed_at: dateTime.describe('Equal to as_of when there is no evidence.'),
    newest_observed_at: dateTime.describe('Equal to as_of when there is no evidence.'),
  }),
);

export const Assessment = component(
  'Assessment',
  'Score and honest interval from the admitted evidence through one function (the methodology), with the tenant label.',
  z.strictObject({
    assessment_id: uuid,
    inquiry_id: uuid,
    score: score100,
    low: score100.describe('Lower bound of the interval.'),
    high: score100.describe('Upper bound of the interval.'),
    preliminary: z.boolean().describe('True when the stopping rule was not yet met (`pre_transaction` only).'),
    as_of: dateTime.describe('Moment the evidence was current.'),
    methodology_version: z.string(),
    label: Label.nullable().describe("Tenant's policy label; null when no policy labels it."),
    evidence: EvidenceSummary,
    entity_id: uuid.nullable(),
  }),
);

export const Finding = component(
  'Finding',
  'One thing found, with every source name removed.',
  z.strictObject({
    finding_id: z.string(),
    about: z.string().describe("The caller's own presented value concerned, when it was theirs."),
    about_type: z.string(),
    kind: z.string().optional().describe('Sort of check, for example `account_age`; names the question, never the source.'),
    statement: z.string(),
    provenance_class: z.string().describe('How it came to be known, for example `third_party`, `computed`.'),
    trust_band: TrustBand,
    observed_at: dateTime,
    data_class: DataClass,
    disposition: z.string().optional().describe('`supports`, `weakens` or `neutral`.'),
    strength: Strength.optional().describe(
      'Extension (trust-method/2 and /3): how diagnostic the finding is, declared by its check for this kind and disposition as the strength its measured likelihood ratio supports; under trust-method/3 weak 1, moderate 3, strong 8 observations (each about a likelihood ratio of 2, 4, 9). Absent on neutral findings, which are not scored. See docs/checks.md.',
    ),
  }),
);

export const Absence = component(
  'Absence',
  'A check that failed or did not answer. Part of the result, never an HTTP error.',
  z.strictObject({
    about: z.string(),
    about_type: z.string(),
    kind: AbsenceKind,
    reason: z.string().describe('Stated reason with every source name removed.'),
  }),
);

export const Connection = component(
  'Connection',
  "An edge in the tenant's graph between the subject's values and others.",
  z.strictObject({
    connection_id: z.string(),
    relation: z.string().describe('Registered relationship type, for example `shares_registrant`.'),
    from_label: z.string().describe("Caller's own value where it was theirs, else its type."),
    from_type: z.string(),
    to_label: z.string(),
    to_type: z.string(),
    weight: z.number(),
    reason: z.string(),
  }),
);

export const CoverageGap = component(
  'CoverageGap',
  'Questions the inquiry could not ask: which, at which tier, how many, and why. Neither kind is an absence: it does not widen the interval.',
  z.strictObject({
    tier: Tier,
    kind: z.string().describe('The question that was not asked, for example `domain_age`.'),
    count: z.int().min(1),
    reason: z
      .enum(['beyond_tier_ceiling', 'switched_off'])
      .optional()
      .describe(
        "`beyond_tier_ceiling`: the inquiry's `tier_ceiling` put it out of reach; `switched_off`: this deployment does not run the check (a network check with no resolver or RDAP service configured). Absent on assessments issued before 2026-11-25, where it means `beyond_tier_ceiling`.",
      ),
  }),
);

export const Coverage = component(
  'Coverage',
  'How much of the possible checking was done.',
  z.strictObject({
    tier_ceiling: Tier,
    checks_run: count,
    checks_answered: count,
    checks_unanswered: count,
    gaps: z.array(CoverageGap).optional(),
  }),
);

export const Findings = component(
  'Findings',
  'What was found, what could not be found, and connections. Present when the tenant may see findings.',
  z.strictObject({
    inquiry_id: z.string(),
    assessment_id: z.string(),
    subject: z.array(Presentation).describe('Echo of what was asked.'),
    findings: z.array(Finding).optional(),
    absences: z.array(Absence).optional(),
    connections: z.array(Connection).optional(),
    coverage: Coverage,
    generated_at: dateTime,
  }),
);

export const ReportSection = component(
  'ReportSection',
  'One section of a written report, with the findings it rests on.',
  z.strictObject({
    key: z.string().describe('Stable section key, for example `summary`, `evidence`, `gaps`.'),
    title: z.string(),
    body: z.string(),
    finding_ids: z.array(z.string()),
  }),
);

export const ShareCardOut = component(
  'ShareCardOut',
  'A short card of the result that can be shown to a person: no findings, no values.',
  z.strictObject({
    headline: z.string(),
    body: z.string(),
    score: score100,
    low: score100,
    high: score100,
    label: Label.nullable(),
    as_of: dateTime,
  }),
);

export const Report = component(
  'Report',
  'Findings written up; `rendered_by` states which renderer ran (a tenant may be clamped to `template`).',
  z.strictObject({
    inquiry_id: z.string(),
    assessment_id: z.string(),
    lang: z.string().optional(),
    rendered_by: z.enum(['template', 'model']),
    prompt_version: z.string().nullable().optional().describe('Set when a model wrote it; null for a template.'),
    sections: z.array(ReportSection),
    share: ShareCardOut,
    generated_at: dateTime,
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
/** The domain's one Assessment (machines/types.ts); the schema above must describe exactly it. */
export type Assessment = DomainAssessment;
export type EvidenceSummary = DomainEvidenceSummary;
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const contractIsTheDomainType: Same<z.infer<typeof Assessment>, DomainAssessment> = true;
void contractIsTheDomainType;
export type Findings = z.infer<typeof Findings>;
export type Finding = z.infer<typeof Finding>;
export type Absence = z.infer<typeof Absence>;
export type Connection = z.infer<typeof Connection>;
export type Coverage = z.infer<typeof Coverage>;
export type Report = z.infer<typeof Report>;
