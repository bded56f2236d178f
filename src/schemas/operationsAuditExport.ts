import type { OperationSpec } from './operation.js';
import { AuditExportQuery } from '../audit/exportSchemas.js';

/** Exporting the tenant's audit trail with its chain and seals: an extension of the control plane (issue 50, src/audit/trailExport.ts). */
export const AUDIT_EXPORT_OPERATIONS: readonly OperationSpec[] = [
  {
    operationId: 'exportAudit',
    method: 'get',
    path: '/v1/admin/audit/export',
    tag: 'Control plane',
    auth: 'admin',
    summary: "Export the tenant's audit trail for a period, with its chain and seals",
    description:
      'An extension of the control plane (issue 50). NDJSON: a header line, the seals of the days in the period ' +
      "(the key's tenant and mode have one hash chain, sealed once a day), then every row they cover with its link, " +
      "in chain order. `tas audit verify --file` checks it offline, with no other tenant's data.",
    query: AuditExportQuery,
    success: { status: 200, description: 'The trail, as NDJSON.', contentType: 'application/x-ndjson' },
    validation: true,
  },
];
