import { z } from 'zod';
import { component, dateTime, uuid } from '../schemas/common.js';
import { CaseState } from '../events/schemas.js';

/**
 * The tenant's cases as a list (issue 38): an extension of the contract, so
 * that a client (the investigator's console among them) finds a case without
 * an id from elsewhere and without an admin key to read the audit trail.
 */
export const CaseSummary = component(
  'CaseSummary',
  "One of the tenant's cases as the list shows it; `GET /v1/cases/{case_id}` reads the whole case.",
  z.strictObject({
    case_id: uuid,
    state: CaseState,
    title: z.string(),
    purpose: z.string(),
    legal_hold: z.boolean(),
    created_at: dateTime,
    updated_at: dateTime,
  }),
);
export type CaseSummary = z.infer<typeof CaseSummary>;

export const CaseSummaryList = component('CaseSummaryList', 'Cases, newest first.', z.array(CaseSummary));

export const CaseListQuery = z.strictObject({
  after: uuid.optional().describe('Continue after this case_id (the last one of the previous page).'),
  // A page a console can show at once.
  limit: z.coerce.number().int().min(1).max(500).default(50),
  state: CaseState.optional().describe('Only cases in this state.'),
});
export type CaseListQuery = z.infer<typeof CaseListQuery>;
