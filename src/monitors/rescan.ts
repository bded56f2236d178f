import { randomUUID } from 'node:crypto';
import type { Principal } from '../auth/authenticate.js';
import { insertAudit, type AuditRecord } from '../db/audit.js';
import { findIdempotencyKey } from '../db/inquiries.js';
import type { MonitorRow } from '../db/monitors.js';
import { withTenant, type Db, type Tx } from '../db/pool.js';
import type { AuditFacts } from '../auth/call.js';
import { ServiceProblem, ValidationFailure } from '../platform/problems.js';
import type { AuditSink } from '../inquiries/engine.js';
import type { InquiryService } from '../inquiries/service.js';
import { InquiryRequest } from '../schemas/inquiries.js';
import type { MonitorAssessment } from '../../machines/monitorMachine.js';

/**
 * One rescan's inquiry: the monitor's declared question asked again, as the
 * monitor (`monitor:<id>`, never the key that opened it), with the run id as
 * idempotency key. A run retried or delivered twice therefore replays the
 * first inquiry instead of appending a second ledger entry.
 *
 * Every attempt writes exactly one audit row: in the inquiry's own
 * transaction when it opens one, otherwise (a replay, a refusal) on its own.
 */
export type RescanOutcome = { ok: true; assessment: MonitorAssessment } | { ok: false; reason: string };

/** The inquiry of an earlier attempt of this run is still reasoning: retry the job later. */
export class RescanPendingError extends Error {
  override name = 'RescanPendingError';
}

export interface RescanDeps {
  db: Db;
  inquiries: Pick<InquiryService, 'inquire' | 'view'>;
  now?: () => Date;
}

export function rescanPrincipal(m: Pick<MonitorRow, 'id' | 'tenant_id' | 'mode' | 'created_by_key_id'>): Principal {
  // `inquiries` to ask; no `findings`, since a rescan reads only the assessment.
  return { tenantId: m.tenant_id, mode: m.mode, keyId: m.created_by_key_id, scopes: new Set(['inquiries', 'monitors']), label: `monitor:${m.id}` };
}

interface RescanAudit extends AuditSink {
  written(): boolean;
  writeNow(status: number): Promise<void>;
}

function rescanAudit(db: Db, principal: Principal, monitorId: string, now: () => Date): RescanAudit {
  let written = false;
  const occurredAt = now().toISOString();
  const audit: AuditFacts = { action: 'rescanMonitor', target_kind: 'monitor', target_id: monitorId, purpose: null, rule: null, cost_amount: null, cost_currency: null };
  const record = (status: number): AuditRecord => ({
    audit_id: randomUUID(), occurred_at: occurredAt, tenant_id: principal.tenantId, mode: principal.mode,
    principal: principal.label, status, request_id: null, ...audit,
  });
  return {
    audit,
    async auditInTx(tx: Tx, status: number) {
      await insertAudit(tx, record(status));
      written = true;
    },
    written: () => written,
    async writeNow(status) {
      await withTenant(db, principal, (tx) => insertAudit(tx, record(status)));
      written = true;
    },
  };
}

export async function runRescanInquiry(deps: RescanDeps, monitor: MonitorRow, runId: string): Promise<RescanOutcome> {
  const principal = rescanPrincipal(monitor);
  const audit = rescanAudit(deps.db, principal, monitor.id, deps.now ?? (() => new Date()));
  const body = InquiryRequest.parse({ subject: monitor.subject, intent: monitor.intent, purpose: monitor.purpose, stake: monitor.stake, idempotency_key: runId });
  try {
    const answer = await deps.inquiries.inquire(audit, principal, body);
    if (!audit.written()) await audit.writeNow(answer.status);
    return { ok: true, assessment: assessmentIn(answer.body) };
  } catch (error) {
    if (error instanceof ValidationFailure) {
      // The tenant withdrew the purpose or intent since the watch opened: this run is refused, the watch goes on.
      audit.audit.rule = error.rule;
      await audit.writeNow(422);
      return { ok: false, reason: error.rule ?? 'refused' };
    }
    if (error instanceof ServiceProblem && error.code === 'conflict') return fromEarlierAttempt(deps, principal, runId, audit);
    if (error instanceof ServiceProblem && error.status < 500) {
      // Refused the same way on every retry (an entity_id no longer visible, say): this run fails, the watch goes on.
      await audit.writeNow(error.status);
      return { ok: false, reason: error.code };
    }
    throw error;
  }
}

/**
 * An earlier attempt of this run (a worker that died mid-inquiry) opened the
 * inquiry and never stored its answer. Only this run uses the key, so there
 * is no concurrent caller to wait for: once that inquiry has an answer, it is
 * this run's answer.
 */
async function fromEarlierAttempt(deps: RescanDeps, principal: Principal, runId: string, audit: RescanAudit): Promise<RescanOutcome> {
  const claim = await withTenant(deps.db, principal, (tx) => findIdempotencyKey(tx, runId));
  if (!claim) throw new RescanPendingError(`run ${runId} is claimed but its inquiry is not visible yet`);
  const view = await deps.inquiries.view(principal, claim.inquiry_id).catch((error: unknown) => {
    if (error instanceof ServiceProblem && error.code === 'not-found') throw new RescanPendingError(`inquiry ${claim.inquiry_id} has no assessment yet`);
    throw error;
  });
  if (view.status === 'accepted' || view.status === 'reasoning') throw new RescanPendingError(`inquiry ${claim.inquiry_id} is still reasoning`);
  audit.audit.target_kind = 'inquiry';
  audit.audit.target_id = claim.inquiry_id;
  await audit.writeNow(200);
  return { ok: true, assessment: assessmentIn(view) };
}

function assessmentIn(body: unknown): MonitorAssessment {
  const assessment = (body as { assessment?: MonitorAssessment } | null)?.assessment;
  if (!assessment || typeof assessment.assessment_id !== 'string') throw new Error('inquiry answer without an assessment');
  return assessment;
}
