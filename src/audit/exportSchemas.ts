import { z } from 'zod';

/** The query of `exportAudit` (trailExport.ts): a period of UTC days of sealing, both ends included. */
export const AuditExportQuery = z.strictObject({
  from: z.iso.date().describe('The first UTC day of the period (YYYY-MM-DD).'),
  to: z.iso.date().describe('The last UTC day of the period (YYYY-MM-DD), at most 365 days after `from`.'),
});
export type AuditExportQuery = z.infer<typeof AuditExportQuery>;
