import { z } from 'zod';
import { component, count, dateTime, MethodologyVersionName, Presentation, Strength, TrustBand, uuid } from '../schemas/common.js';
import { Assessment } from '../assessment/schemas.js';

/**
 * Entities: presentations resolve to entities per tenant and mode; the ledger
 * is every assessment of the entity in order, append-only, each with the
 * inputs that let anyone recompute it (`tas score`).
 */

export const EntityOut = component(
  'EntityOut',
  'A resolved subject as the tenant may see it.',
  z.strictObject({
    entity_id: uuid,
    presentations: z.array(Presentation).describe("The tenant's own values, normalised."),
    created_at: dateTime,
    latest_assessment: Assessment.nullable(),
    ledger_url: z.string(),
  }),
);

export const LedgerEvidenceItem = component(
  'LedgerEvidenceItem',
  'One admitted evidence item, with the fields the methodology function reads and the evidence summary counts. Neutral items are never scored; they are counted in the summary (`signals`, by provenance class and trust band, the observed range). Entries recorded before the ledger kept neutral items list the scored ones only.',
  z.strictObject({
    provenance_class: z.string(),
    trust_band: TrustBand,
    observed_at: dateTime,
    disposition: z.enum(['supports', 'weakens', 'neutral']),
    strength: Strength.optional().describe(
      'Present on every scored trust-method/2 and trust-method/3 item (the version, not the item, decides its weight: v3 weak 1, moderate 3, strong 8; v2 weak 0.5, moderate 1, strong 2); absent on trust-method/1 items and on neutral items.',
    ),
  }),
);

export const LedgerInputs = component(
  'LedgerInputs',
  'Everything the methodology function and the evidence summary need to reproduce the assessment, in stored order.',
  z.strictObject({
    methodology_version: MethodologyVersionName.describe('The version `tas score` applies to these inputs.'),
    as_of: dateTime,
    evidence: z.array(LedgerEvidenceItem),
    absences: count,
    data_snapshots: z
      .array(z.string())
      .optional()
      .describe(
        'The replaceable reference data the evidence was read from (a popularity list, a sanctions list), as `name:file@sha256-prefix`; absent when none was read. `tas score` does not need it: it names the data an answer used after an operator has changed it.',
      ),
  }),
);

export const LedgerEntryOut = component(
  'LedgerEntryOut',
  "One entry of an entity's assessment ledger.",
  z.strictObject({
    entry_id: uuid,
    sequence: z.int().min(1),
    assessment: Assessment,
    inputs: LedgerInputs,
    recorded_at: dateTime,
  }),
);

export const LedgerEntryList = z.array(LedgerEntryOut);

export type EntityOut = z.infer<typeof EntityOut>;
export type LedgerEntryOut = z.infer<typeof LedgerEntryOut>;
export type LedgerInputs = z.infer<typeof LedgerInputs>;
