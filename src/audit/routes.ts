import { auditIdVisible, listAudit } from './store.js';
import { withTenant, type Db } from '../platform/db/pool.js';
import type { Handler } from '../edge/handler.js';
import { ValidationFailure } from '../platform/problems.js';
import { requirePrincipal } from '../auth/index.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * GET /v1/admin/audit: the tenant's audit rows in the key's mode, oldest
 * first, optionally filtered by operation, status, key and time range. The
 * `after` cursor is the audit_id of the last row already read; a
 * `Link: rel="next"` header gives the next page, with the same filters, when
 * there may be one.
 */
type AuditListQuery = {
  after?: string;
  limit: number;
  operation?: string;
  status?: number;
  key_id?: string;
  since?: string;
  until?: string;
};

const KEY_PRINCIPAL = /^key:([0-9a-f-]{36})$/;
export function createListAudit(deps: { db: Db }): Handler {
  return async (ctx) => {
    const principal = requirePrincipal(ctx);
    const query = ctx.query as AuditListQuery;
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
    const body = rows.map((r) => ({
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
    const headers: Record<string, string> = {};
    const last = rows.at(-1);
    if (last && rows.length === limit) {
      const next = new URLSearchParams({ after: last.audit_id, limit: String(limit) });
      for (const name of ['operation', 'status', 'key_id', 'since', 'until'] as const)
        if (query[name] !== undefined) next.set(name, String(query[name]));
      headers.Link = `</v1/admin/audit?${next.toString()}>; rel="next"`;
    }
    return { status: 200, body, headers };
  };
}
