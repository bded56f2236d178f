import type { OperationSpec } from './operation.js';
import { CaseListQuery, CaseSummaryList } from '../cases/listSchemas.js';

/** Listing the tenant's cases: an extension of the contract (issue 38, src/cases/listSchemas.ts). */
export const CASE_LIST_OPERATIONS: readonly OperationSpec[] = [
  {
    operationId: 'listCases',
    method: 'get',
    path: '/v1/cases',
    tag: 'Cases',
    auth: 'cases',
    summary: "List the tenant's cases",
    description:
      'An extension of the contract (issue 38): the contract reads a case only by its id. Newest first, ' +
      "the key's tenant and mode only, in pages (`limit`, then `after` the last `case_id`); `state` keeps one state.",
    query: CaseListQuery,
    success: { status: 200, description: 'The cases, newest first.', schema: CaseSummaryList },
    validation: true,
  },
];
