import { sql } from 'slonik';
import type { Principal } from '../auth/index.js';
import { withTenant } from '../platform/db/pool.js';
import type { Db } from '../platform/db/pool.js';
import { CaseSummary, type CaseListQuery } from './listSchemas.js';

/**
 * The tenant's cases, newest first (issue 38's listing extension): each is a
 * case actor, its summary read from the persisted snapshot (state, title,
 * purpose, hold). Row-level security keeps it to the key's tenant and mode.
 */
export async function listCases(db: Db, principal: Principal, query: CaseListQuery): Promise<readonly CaseSummary[]> {
  return withTenant(db, principal, (tx) =>
    tx.any(sql.type(CaseSummary)`
    SELECT a.id AS case_id,
           a.snapshot->>'value' AS state,
           a.snapshot->'context'->>'title' AS title,
           a.snapshot->'context'->>'purpose' AS purpose,
           (a.snapshot->'context'->>'legal_hold')::boolean AS legal_hold,
           a.created_at, a.updated_at
    FROM actors a
    WHERE a.kind = 'case'
      ${query.state === undefined ? sql.fragment`` : sql.fragment`AND a.snapshot->>'value' = ${query.state}`}
      ${query.after === undefined ? sql.fragment`` : sql.fragment`AND (a.created_at, a.id) < (SELECT b.created_at, b.id FROM actors b WHERE b.id = ${query.after} AND b.kind = 'case')`}
    ORDER BY a.created_at DESC, a.id DESC
    LIMIT ${query.limit}`),
  );
}
