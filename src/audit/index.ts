/** The audit capability's surface: the only file (with schemas.ts) that other folders import. */
export type { AuditWriter } from './auditWriter.js';
export { auditInsert, auditRowsOfTarget, insertAudit } from './commands.js';
export type { AuditRecord } from './commands.js';
export { AUDIT_MONTHS_AHEAD, auditPartitionsAhead, prepareAuditPartitions, retainAudit } from './partitions.js';
export { listAuditEntries } from './listing.js';
export type { AuditListQuery, AuditPage } from './listing.js';
export { exportTrail } from './trailExport.js';
export { verifyTrail } from './trailVerify.js';
export type { TrailVerdict } from './trailVerify.js';
