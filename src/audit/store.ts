import { sql, type FragmentSqlToken } from 'slonik';
import { z } from 'zod';
import { withSystem, type Db, type Tx } from '../platform/db/pool.js';
import { jsonb } from '../platform/db/jsonb.js';

/** One audit row, as the service writes it (SPEC AuditEntryOut plus the fields the issue lists). */
export interface AuditRecord {
  audit_id: string;
  occurred_at: string;
  tenant_id: string | null;
  mode: 'live' | 'test' | null;
  principal: string;
  action: string;
  target_kind: string | null;
  target_id: string | null;
  status: number;
  rule: string | null;
  purpose: string | null;
  cost_amount: number | null;
  cost_currency: string | null;
  request_id: string | null;
}

/** The audit row as chained: every field the service wrote except the request id (a log correlation, not a fact). */
export type ChainRow = Omit<AuditRecord, 'request_id'>;

/** Inside a request's own transaction, so the row commits with the effect or not at all. */
export async function insertAudit(tx: Tx, r: AuditRecord): Promise<void> {
  await tx.query(sql.unsafe`${auditInsert(r)}`);
}

/** The insert as a statement fragment, for a command's combined last statement (AuditSink.auditRow). */
export function auditInsert(r: AuditRecord): FragmentSqlToken {
  return sql.fragment`
    INSERT INTO audit_log (audit_id, occurred_at, tenant_id, mode, principal, action, target_kind, target_id,
                           status, rule, purpose, cost_amount, cost_currency, request_id)
    VALUES (${r.audit_id}, ${r.occurred_at}, ${r.tenant_id}, ${r.mode}, ${r.principal}, ${r.action},
            ${r.target_kind}, ${r.target_id}, ${r.status}, ${r.rule}, ${r.purpose}, ${r.cost_amount},
            ${r.cost_currency}, ${r.request_id})`;
}

/**
 * Many calls' rows, of any tenants, in one statement, through the append-only
 * door (tas_audit_append). A shared batch is the service's own cross-tenant
 * work, so it runs as tas_system: a tenant's role may no longer call the
 * door (000011).
 */
export async function appendAuditBatch(db: Db, rows: readonly AuditRecord[]): Promise<void> {
  await withSystem(db, async (tx) => {
    await tx.query(sql.unsafe`SELECT tas_audit_append(${jsonb(rows)})`);
  });
}

/** The columns every reader of the audit trail shares (the list, the chain sealer and verifier). */
export const AuditColumns = z.object({
  audit_id: z.string(),
  occurred_at: z.string(),
  principal: z.string(),
  action: z.string(),
  target_kind: z.string().nullable(),
  target_id: z.string().nullable(),
  status: z.number(),
  rule: z.string().nullable(),
  purpose: z.string().nullable(),
  cost_amount: z.number().nullable(),
  cost_currency: z.string().nullable(),
});

const AuditRow = AuditColumns.extend({ seq: z.number() });
export type AuditRow = z.infer<typeof AuditRow>;

/** Conditions on the listed rows; each one given must hold. */
export interface AuditFilters {
  operation?: string | undefined;
  status?: number | undefined;
  principal?: string | undefined;
  since?: string | undefined;
  until?: string | undefined;
}

/** The tenant's rows (RLS scopes them), oldest first, strictly after the row of seq `afterSeq` (0: from the first). */
export async function listAudit(tx: Tx, afterSeq: number, limit: number, filters: AuditFilters = {}): Promise<readonly AuditRow[]> {
  return tx.any(listAuditQuery(afterSeq, limit, filters));
}

export function listAuditQuery(afterSeq: number, limit: number, filters: AuditFilters = {}) {
  const conditions = [
    sql.fragment`seq > ${afterSeq}`,
    ...(filters.operation !== undefined ? [sql.fragment`action = ${filters.operation}`] : []),
    ...(filters.status !== undefined ? [sql.fragment`status = ${filters.status}`] : []),
    ...(filters.principal !== undefined ? [sql.fragment`principal = ${filters.principal}`] : []),
    ...(filters.since !== undefined ? [sql.fragment`occurred_at >= ${filters.since}::timestamptz`] : []),
    ...(filters.until !== undefined ? [sql.fragment`occurred_at < ${filters.until}::timestamptz`] : []),
  ];
  return sql.type(AuditRow)`
    SELECT seq, audit_id, occurred_at, principal, action, target_kind, target_id, status, rule, purpose,
           cost_amount, cost_currency
    FROM audit_log WHERE ${sql.join(conditions, sql.fragment` AND `)} ORDER BY seq LIMIT ${limit}`;
}

/**
 * Where a page's cursor points: its row's id, and the time range its
 * occurred_at lies in when known (the partition key: the look-up then reads
 * that month's partition only, 000090), or null to look in every month.
 */
export interface CursorRow {
  auditId: string;
  within: { from: string; to: string } | null;
}

/** The seq of the cursor's row when the tenant can see it (RLS scopes the look-up), else null. */
export async function cursorSeq(tx: Tx, cursor: CursorRow): Promise<number | null> {
  return tx.maybeOneFirst(cursorSeqQuery(cursor));
}

export function cursorSeqQuery(cursor: CursorRow) {
  const within =
    cursor.within === null
      ? sql.fragment``
      : sql.fragment` AND occurred_at >= ${cursor.within.from}::timestamptz AND occurred_at < ${cursor.within.to}::timestamptz`;
  return sql.type(z.object({ seq: z.number() }))`SELECT seq FROM audit_log WHERE audit_id = ${cursor.auditId}${within}`;
}
