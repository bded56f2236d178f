import { cursorSeq, listAudit, type CursorRow } from './store.js';
import { withTenant, type Db } from '../platform/db/pool.js';
import { ValidationFailure } from '../platform/problems.js';
import type { Principal } from '../auth/index.js';
import type { AuditEntryOut } from './schemas.js';

/**
 * A page's cursor: the last row's audit_id and its occurred_at (milliseconds
 * since the epoch), `<audit_id>.<ms>`, so the look-up of the row reads its
 * month's partition only (000090). Opaque to clients (SPEC leaves the form
 * unshown); the bare audit_id of a row, the form given before, is accepted.
 */
const CURSOR = /^([0-9a-f]{8}-[0-9a-f]{4}-([0-9a-f])[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12})(?:\.(\d{1,13}))?$/i;
// A bare UUIDv7's own time is read within this much of the row's (the edge takes both at the call's start).
const ID_TIME_SLACK_MS = 60_000;

export function auditCursor(row: { audit_id: string; occurred_at: string }): string {
  return `${row.audit_id}.${Date.parse(row.occurred_at)}`;
}

/** Where to look for the cursor's row: the exact millisecond, a bare v7 id's own time, or (null) every month. */
function cursorRows(after: string): CursorRow[] | null {
  const m = CURSOR.exec(after);
  if (!m) return null;
  const auditId = m[1]!.toLowerCase();
  const within = (from: number, to: number) => ({ from: new Date(from).toISOString(), to: new Date(to).toISOString() });
  if (m[3] !== undefined) return [{ auditId, within: within(Number(m[3]), Number(m[3]) + 1) }];
  const everywhere = { auditId, within: null };
  if (m[2] !== '7') return [everywhere];
  // RFC 9562: a v7 id opens with its 48-bit millisecond time. The id's time is not the row's (the
  // session upgrade's rows have v4 ids, and nothing ties the two), so a miss looks everywhere.
  const idTime = Number.parseInt(auditId.slice(0, 8) + auditId.slice(9, 13), 16);
  return [{ auditId, within: within(idTime - ID_TIME_SLACK_MS, idTime + ID_TIME_SLACK_MS) }, everywhere];
}

/** A page of the audit list: the filters, and `after`, the cursor of the last row already read. */
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
  const cursor = after === undefined ? [] : cursorRows(after);
  if (cursor === null) {
    throw new ValidationFailure([
      { loc: ['query', 'after'], msg: 'The cursor is the one a page gave, or the audit_id of a row already read', type: 'uuid_parsing' },
    ]);
  }
  const rows = await withTenant(deps.db, principal, async (tx) => {
    let afterSeq = after === undefined ? 0 : null;
    for (const where of cursor) afterSeq ??= await cursorSeq(tx, where);
    if (afterSeq === null) {
      throw new ValidationFailure([{ loc: ['query', 'after'], msg: 'Unknown cursor', type: 'cursor_unknown' }]);
    }
    return listAudit(tx, afterSeq, limit, {
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
  return { entries, next: last && rows.length === limit ? { ...query, after: auditCursor(last) } : null };
}
