import { sql, type FragmentSqlToken } from 'slonik';
import { z } from 'zod';
import type { Tx } from '../platform/db/pool.js';
import { auditInsert as auditInsertStatement, insertAudit as insertAuditRow, type AuditRecord } from './store.js';

/**
 * The audit's commands to the other capabilities: the call's audit row is
 * written by the audit, in the caller's transaction, so that it commits with
 * the effect it records or not at all. Every other writer of the trail
 * (the batch, the sealer, the retention) stays inside src/audit.
 */
export type { AuditRecord };

/** Writes the call's audit row in the caller's transaction. */
export async function insertAudit(tx: Tx, record: AuditRecord): Promise<void> {
  await insertAuditRow(tx, record);
}

/** The call's audit row as a statement fragment, for a command's combined last statement (AuditSink.auditRow). */
export function auditInsert(record: AuditRecord): FragmentSqlToken {
  return auditInsertStatement(record);
}

/**
 * The audit rows about one target (a case), with their chain links in hex,
 * in the order they were written: what a case's export carries as
 * audit.json. Runs in the caller's tenant transaction.
 */
export async function auditRowsOfTarget(tx: Tx, targetId: string): Promise<readonly Record<string, unknown>[]> {
  return tx.any(sql.type(z.record(z.string(), z.unknown()))`
    SELECT a.audit_id, a.occurred_at, a.principal, a.action, a.target_kind, a.target_id, a.status, a.rule, a.purpose,
           a.cost_amount, a.cost_currency, c.chain_key, c.position::text AS chain_position,
           encode(c.prev_hash, 'hex') AS chain_prev_hash, encode(c.hash, 'hex') AS chain_hash
    FROM audit_log a LEFT JOIN audit_chain c ON c.audit_id = a.audit_id
    WHERE a.target_id = ${targetId} ORDER BY a.occurred_at, a.audit_id`);
}
