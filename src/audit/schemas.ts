import { z } from 'zod';
import { component, dateTime, uuid } from '../schemas/common.js';

/** The audit capability's contract for the trail's listing (admin scope); the export's is in exportSchemas.ts. */

export const AuditEntryOut = component(
  'AuditEntryOut',
  'One audited call or analyst action, with its cost.',
  z.strictObject({
    audit_id: uuid,
    occurred_at: dateTime,
    principal: z.string(),
    action: z.string().describe('The operationId of the call (or the analyst action).'),
    target_kind: z.string().nullable(),
    target_id: z.string().nullable(),
    status: z.int().describe('The HTTP status the call was answered with.'),
    rule: z.string().nullable().describe('The rule that refused the call, if one did.'),
    purpose: z.string().nullable().describe('The purpose the call declared, if any.'),
    key_id: uuid.nullable().describe("The key that made the call; null for anonymous calls and the service's own work."),
    cost_amount: z.number().nullable(),
    cost_currency: z.string().nullable(),
  }),
);

export const AuditEntryList = z.array(AuditEntryOut);

export type AuditEntryOut = z.infer<typeof AuditEntryOut>;
