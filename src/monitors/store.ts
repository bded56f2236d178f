import { sql } from 'slonik';
import { z } from 'zod';
import type { Mode, Tx } from '../platform/db/pool.js';
import { AssessmentRow } from '../inquiries/index.js';
import { jsonb } from '../platform/db/jsonb.js';

/**
 * One function per query on monitors (the read model of monitor actors).
 * Every function runs in a tenant-scoped transaction, so another tenant's or
 * mode's monitor reads exactly like no monitor.
 */
export interface NewMonitor {
  id: string;
  tenantId: string;
  mode: Mode;
  subject: Record<string, unknown>;
  intent: string;
  purpose: string;
  stake: Record<string, unknown>;
  triggers: Record<string, unknown>;
  cadenceSeconds: number;
  caseId: string | null;
  createdBy: string;
  createdByKeyId: string;
}

export async function insertMonitor(tx: Tx, m: NewMonitor): Promise<void> {
  await tx.query(sql.unsafe`
    INSERT INTO monitors (id, tenant_id, mode, subject, intent, purpose, stake, triggers, cadence_seconds, case_id,
                          created_by, created_by_key_id, state)
    VALUES (${m.id}, ${m.tenantId}, ${m.mode}, ${jsonb(m.subject)}, ${m.intent}, ${m.purpose},
            ${jsonb(m.stake)}, ${jsonb(m.triggers)}, ${m.cadenceSeconds}, ${m.caseId},
            ${m.createdBy}, ${m.createdByKeyId}, 'active')`);
}

const MonitorRow = z.object({
  id: z.string(),
  tenant_id: z.string(),
  mode: z.enum(['live', 'test']),
  subject: z.record(z.string(), z.unknown()),
  intent: z.string(),
  purpose: z.string(),
  stake: z.record(z.string(), z.unknown()),
  triggers: z.record(z.string(), z.unknown()),
  cadence_seconds: z.number().int(),
  case_id: z.string().nullable(),
  created_by: z.string(),
  created_by_key_id: z.string(),
  state: z.enum(['active', 'rescanning', 'closed']),
  created_at: z.string(),
  closed_at: z.string().nullable(),
  last_assessment_id: z.string().nullable(),
  last_checked_at: z.string().nullable(),
  unchanged_rescans: z.number().int(),
});
export type MonitorRow = z.infer<typeof MonitorRow>;

export async function findMonitor(tx: Tx, id: string): Promise<MonitorRow | null> {
  return tx.maybeOne(sql.type(MonitorRow)`
    SELECT id, tenant_id, mode, subject, intent, purpose, stake, triggers, cadence_seconds, case_id, created_by,
           created_by_key_id, state, created_at, closed_at, last_assessment_id, last_checked_at, unchanged_rescans::int
    FROM monitors WHERE id = ${id}`);
}

/** The ledger row a monitor's last rescan issued, if it had one. */
export async function lastMonitorAssessment(tx: Tx, monitorId: string): Promise<AssessmentRow | null> {
  return tx.maybeOne(sql.type(AssessmentRow)`
    SELECT a.id, a.inquiry_id, a.entity_id, a.score, a.low, a.high, a.preliminary, a.as_of, a.methodology_version,
           a.label, a.evidence, a.findings
    FROM monitors m JOIN assessments a ON a.id = m.last_assessment_id
    WHERE m.id = ${monitorId}`);
}

export async function updateMonitorState(tx: Tx, id: string, state: 'active' | 'rescanning' | 'closed'): Promise<void> {
  await tx.query(sql.unsafe`
    UPDATE monitors SET state = ${state},
      closed_at = CASE WHEN ${state} = 'closed' THEN now() ELSE NULL END
    WHERE id = ${id}`);
}

export async function setMonitorAssessment(tx: Tx, id: string, assessmentId: string, checkedAt: string): Promise<void> {
  await tx.query(sql.unsafe`UPDATE monitors SET last_assessment_id = ${assessmentId}, last_checked_at = ${checkedAt} WHERE id = ${id}`);
}

/** An unchanged rescan: when the subject was last checked, and one more quiet rescan. Nothing else is written. */
export async function recordMonitorHeartbeat(tx: Tx, id: string, checkedAt: string): Promise<void> {
  await tx.query(
    sql.unsafe`UPDATE monitors SET last_checked_at = ${checkedAt}, unchanged_rescans = unchanged_rescans + 1 WHERE id = ${id}`,
  );
}

/** Whether the monitor was closed (its stream can get nothing more). */
export async function monitorClosed(tx: Tx, id: string): Promise<boolean> {
  return tx.exists(sql.unsafe`SELECT 1 FROM monitors WHERE id = ${id} AND state = 'closed'`);
}
