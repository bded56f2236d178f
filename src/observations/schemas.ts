import { z } from 'zod';
import { component, DataClass, dateTime, idString, noteString, ruleIssue, Subject, uuid } from '../schemas/common.js';

/**
 * Testimony (observations) and what happened after a decision (outcomes).
 * Both enter as evidence with their provenance class; neither ever sets a score.
 */

export const ObservationProvenance = z.enum(['tenant_supplied', 'self_attested', 'analyst_asserted']);

export const ObservationIn = component(
  'ObservationIn',
  'Testimony about a subject. It enters with its provenance class and never sets a score.',
  z
    .strictObject({
      subject: Subject,
      provenance_class: ObservationProvenance,
      summary: noteString,
      stance: z
        .enum(['supports', 'weakens', 'neutral'])
        .optional()
        .describe(
          'Extension: which way the testimony points. When absent it is derived from summary (adverse words such as chargeback, fraud, stolen, scam, impersonation, in en, de, es, fr, pt, not negated, weaken; anything else is neutral).',
        ),
      observed_at: dateTime,
      observed_range_start: dateTime.optional(),
      observed_range_end: dateTime.optional(),
      purpose: idString.describe('Registered purpose id (rule I13).'),
      data_class: DataClass.optional(),
      consent_ref: idString.optional().describe('Required when provenance_class is self_attested (rule D36).'),
      case_id: idString.optional().describe('Required when provenance_class is analyst_asserted (rule D37).'),
    })
    .superRefine((obs, ctx) => {
      if (obs.provenance_class === 'self_attested' && obs.consent_ref === undefined) {
        ruleIssue(ctx, 'D36', ['consent_ref'], 'Self-attested testimony requires a consent_ref.');
      }
      if (obs.provenance_class === 'analyst_asserted' && obs.case_id === undefined) {
        ruleIssue(ctx, 'D37', ['case_id'], 'Analyst-asserted testimony requires a case_id.');
      }
      if (
        obs.observed_range_start !== undefined &&
        obs.observed_range_end !== undefined &&
        Date.parse(obs.observed_range_start) > Date.parse(obs.observed_range_end)
      ) {
        ctx.addIssue({ code: 'custom', path: ['observed_range_end'], message: 'observed_range_end is before observed_range_start.' });
      }
    }),
);

export const OutcomeKind = z.enum(['repaid', 'defaulted', 'reversed', 'settled', 'confirmed', 'exposed', 'closed_finding', 'other']);

export const OutcomeIn = component(
  'OutcomeIn',
  'What happened after a decision the tenant took on an assessment; feeds calibration (rule A01).',
  z.strictObject({
    assessment_id: idString,
    decision_ref: idString.describe("Tenant's own id of the decision taken."),
    kind: OutcomeKind,
    observed_at: dateTime,
    detail: noteString.optional(),
  }),
);

export const ObservationOut = component(
  'ObservationOut',
  'A recorded observation, outcome or analyst assertion, as evidence about the resolved entity.',
  z.strictObject({
    observation_id: uuid,
    kind: z.enum(['observation', 'outcome', 'assertion']),
    provenance_class: z.string(),
    entity_id: uuid
      .nullable()
      .describe("Entity the subject resolved to (for an outcome, its assessment's entity); null when there was none."),
    assessment_id: z.string().nullable().describe('Set for outcomes.'),
    case_id: z.string().nullable(),
    data_class: DataClass,
    observed_at: dateTime,
    recorded_at: dateTime,
  }),
);

// Batches are bounded so one request is one transaction of predictable size.
export const ObservationBatchIn = z.array(ObservationIn).min(1).max(100);
export const OutcomeBatchIn = z.array(OutcomeIn).min(1).max(100);
export const ObservationOutList = z.array(ObservationOut);

export type ObservationIn = z.infer<typeof ObservationIn>;
export type OutcomeIn = z.infer<typeof OutcomeIn>;
export type ObservationOut = z.infer<typeof ObservationOut>;
