import { auditIdVisible, listAudit } from './store.js';
import { withTenant, type Db } from '../platform/db/pool.js';
import { ValidationFailure } from '../platform/problems.js';
import type { Principal } from '../auth/index.js';
import type { AuditEntryOut } from '../schemas/admin.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A page of the audit list: the filters, and `after`, the audit_id of the last row already read. */
export interface AuditListQuery {
  after?: string;
  limit: number;
  operation?: string;
  status?: number;
  key_id?: string;
  since?: string;
  until?: string;
}

export interface AuditPage {
  entries: AuditEntryOut[];
  /** The next page's query (the same filters, after this page's last row) when there may be one. */
  next: AuditListQuery | null;
}

const KEY_PRINCIPAL = /^key:([0-9a-f-]{36})$/;

/**
 * The tenant's audit rows in the key's mode, oldest first, optionally
 * filtered by operation, status, key and time range.
 */
export async function listAuditEntries(deps: { db: Db }, principal: Principal, query: AuditListQuery): Promise<AuditPage> {
  const { after, limit } = query;
  if (after !== undefined && !UUID.test(after)) {
    throw new ValidationFailure([
      { loc: ['query', 'after'], msg: 'The cursor is the audit_id of a row already read', type: 'uuid_parsing' },
    ]);
  }
  const rows = await withTenant(deps.db, principal, async (tx) => {
    if (after !== undefined && !(await auditIdVisible(tx, after))) {
      throw new ValidationFailure([{ loc: ['query', 'after'], msg: 'Unknown cursor', type: 'cursor_unknown' }]);
    }
    return listAudit(tx, after ?? null, limit, {
      operation: query.operation,
      status: query.status,
      principal: query.key_id === undefined ? undefined : `key:${query.key_id}`,
      since: query.since,
      until: query.until,
    });
  });
  const entries = rows.map((r) => ({
    audit_id: r.audit_id,
    occurred_at: r.occurred_at,
    principal: r.principal,
    action: r.action,
    target_kind: r.target_kind,
    target_id: r.target_id,
    status: r.status,
    rule: r.rule,
    purpose: r.purpose,
    key_id: KEY_PRINCIPAL.exec(r.principal)?.[1] ?? null,
    cost_amount: r.cost_amount,
    cost_currency: r.cost_currency,
  }));
  const last = rows.at(-1);
  return { entries, next: last && rows.length === limit ? { ...query, after: last.audit_id } : null };
}
