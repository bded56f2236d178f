import { z } from 'zod';
import {
  component,
  count,
  DataClass,
  dateTime,
  Label,
  Presentation,
  score100,
  Strength,
  Tier,
  TrustBand,
  uuid,
} from '../schemas/common.js';
import type { Assessment as DomainAssessment, EvidenceSummary as DomainEvidenceSummary } from '../../machines/types.js';

/**
 * The shapes every capability shares: the assessment (score, interval,
 * label, evidence counts), the findings behind it and their written report.
 * An inquiry answers with them, a session and a monitor announce them, the
 * ledger (src/entities) reads them back and src/reports writes them up, so
 * they live with the engine that makes them, not with any one caller.
 * Evidence is described only by counts, provenance class and banded trust:
 * nothing here can carry a source name or a raw payload.
 */

/** Where an inquiry stands; the answer, the view and the inquiry's stream events all carry it. */
export const InquiryStatus = z.enum(['accepted', 'reasoning', 'preliminary', 'concluded', 'rejected']);
export const AbsenceKind = z.enum(['timeout', 'error', 'no_data', 'refused', 'budget', 'unregistered']);

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
