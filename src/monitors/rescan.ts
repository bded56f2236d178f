import { newRowId } from '../platform/ids.js';
import type { Principal } from '../auth/index.js';
import { auditInsert, insertAudit, type AuditRecord } from '../audit/index.js';
import { findIdempotencyKey } from '../inquiries/index.js';
import type { MonitorRow } from './store.js';
import { withTenant, type Db, type Tx } from '../platform/db/pool.js';
import type { AuditFacts, CallOutcome } from '../auth/index.js';
import { statusOf } from '../platform/outcomes.js';
import { ServiceProblem, ValidationFailure } from '../platform/problems.js';
import type { AuditSink } from '../inquiries/index.js';
import type { InquiryService } from '../inquiries/index.js';
import type { ProbedEvidence } from '../inquiries/index.js';
import { rescanAsk } from './ask.js';
import type { Assessment } from '../../machines/types.js';

/**
 * One rescan's inquiry: the monitor's declared question asked again, as the
 * monitor (`monitor:<id>`, never the key that opened it), with the run id as
 * idempotency key. A run retried or delivered twice therefore replays the
 * first inquiry instead of appending a second ledger entry.
 *
 * Every run that ends writes exactly one audit row: in the inquiry's own
 * transaction when an attempt opens one, otherwise (a refusal) on its own.
 * A retry that finds the run's inquiry already opened by an earlier attempt
 * (a worker killed after that transaction committed) writes none: the
 * earlier attempt's transaction holds the run's row.
 */
export type RescanOutcome =
  { ok: true; assessment: Assessment } | { ok: true; unchanged: true; checkedAt: string } | { ok: false; reason: string };

/** The inquiry of an earlier attempt of this run is still reasoning: retry the job later. */
export class RescanPendingError extends Error {
  override name = 'RescanPendingError';
}

export interface RescanDeps {
  db: Db;
  inquiries: Pick<InquiryService, 'inquire' | 'view' | 'probe'>;
  now?: () => Date;
}

/**
 * Whether two answers say the same (issue 18): score, interval, the tenant's
 * label and the evidence counts. Times are left out (every rescan is as of
 * its own now), and so are ids.
 */
export function sameAnswer(a: Pick<Assessment, 'score' | 'low' | 'high' | 'label'> & { evidence?: unknown }, b: Assessment): boolean {
  return (
    a.score === b.score &&
    a.low === b.low &&
    a.high === b.high &&
    (a.label?.value ?? null) === (b.label?.value ?? null) &&
    evidenceKey(a.evidence) === evidenceKey(b.evidence)
  );
}

function evidenceKey(evidence: unknown): string {
  const e = (evidence ?? {}) as Record<string, unknown>;
  const sorted = (o: unknown) => JSON.stringify(Object.entries((o ?? {}) as Record<string, unknown>).sort(([x], [y]) => (x < y ? -1 : 1)));
  return [e.signals, e.failed_signals, e.contradictions, sorted(e.by_provenance_class), sorted(e.by_trust_band)].join('|');
}

/**
 * One rescan. When the monitor holds an assessment, the question is first
 * asked without writing (`probe`); an answer equal to the last one ends the
 * run as unchanged, with its audit row and nothing else. Otherwise (the first
 * rescan, a change, or a run an earlier attempt already opened an inquiry
 * for) the monitor's inquiry is opened as before.
 */
export async function rescanOnce(deps: RescanDeps, monitor: MonitorRow, last: Assessment | null, runId: string): Promise<RescanOutcome> {
  if (last === null) return runRescanInquiry(deps, monitor, runId);
  const principal = rescanPrincipal(monitor);
  if (await withTenant(deps.db, principal, (tx) => findIdempotencyKey(tx, runId))) return runRescanInquiry(deps, monitor, runId);
  const audit = rescanAudit(deps.db, principal, monitor.id, deps.now ?? (() => new Date()));
  try {
    const probe = await deps.inquiries.probe(principal, rescanAsk(monitor, runId, principal.scopes));
    if (!sameAnswer(probe.assessment, last)) return runRescanInquiry(deps, monitor, runId, probe);
    await audit.writeNow('done');
    return { ok: true, unchanged: true, checkedAt: probe.assessment.as_of };
  } catch (error) {
    return refusedRun(error, audit);
  }
}

/** A refusal that every retry would meet again ends the run; anything else is thrown for the queue to retry. */
async function refusedRun(error: unknown, audit: RescanAudit): Promise<RescanOutcome> {
  if (error instanceof ValidationFailure) {
    // The tenant withdrew the purpose or intent since the watch opened: this run is refused, the watch goes on.
    audit.audit.rule = error.rule;
    await audit.writeNow(error);
    return { ok: false, reason: error.rule ?? 'refused' };
  }
  if (error instanceof ServiceProblem && error.refusesTheCall && error.code !== 'conflict') {
    // Refused the same way on every retry (an entity_id no longer visible, say): this run fails, the watch goes on.
    await audit.writeNow(error);
    return { ok: false, reason: error.code };
  }
  throw error;
}

export function rescanPrincipal(m: Pick<MonitorRow, 'id' | 'tenant_id' | 'mode' | 'created_by_key_id'>): Principal {
  // `inquiries` to ask; no `findings`, since a rescan reads only the assessment.
  return {
    tenantId: m.tenant_id,
    mode: m.mode,
    keyId: m.created_by_key_id,
    scopes: new Set(['inquiries', 'monitors']),
    label: `monitor:${m.id}`,
  };
}

interface RescanAudit extends AuditSink {
  written(): boolean;
  /** The run's row on its own, for a run that opened no inquiry: how it ended (an outcome, or the refusal). */
  writeNow(ending: CallOutcome | ServiceProblem | ValidationFailure): Promise<void>;
}

function rescanAudit(db: Db, principal: Principal, monitorId: string, now: () => Date): RescanAudit {
  let written = false;
  const occurredAt = now().toISOString();
  const audit: AuditFacts = {
    action: 'rescanMonitor',
    target_kind: 'monitor',
    target_id: monitorId,
    purpose: null,
    rule: null,
    cost_amount: null,
    cost_currency: null,
  };
  // The row's status is the one the edge would answer the same ending with (statusOf), as for a call over HTTP.
  const record = (ending: CallOutcome | ServiceProblem | ValidationFailure): AuditRecord => ({
    audit_id: newRowId(),
    occurred_at: occurredAt,
    tenant_id: principal.tenantId,
    mode: principal.mode,
    principal: principal.label,
    status: statusOf(ending),
    request_id: null,
    ...audit,
  });
  return {
    audit,
    async auditInTx(tx: Tx, outcome: CallOutcome) {
      await insertAudit(tx, record(outcome));
      written = true;
    },
    auditRow(outcome: CallOutcome) {
      written = true;
      return auditInsert(record(outcome));
    },
    auditRecord(outcome: CallOutcome) {
      written = true;
      return record(outcome);
    },
    written: () => written,
    async writeNow(ending) {
      await withTenant(db, principal, (tx) => insertAudit(tx, record(ending)));
      written = true;
    },
  };
}

export async function runRescanInquiry(
  deps: RescanDeps,
  monitor: MonitorRow,
  runId: string,
  probed?: ProbedEvidence,
): Promise<RescanOutcome> {
  const principal = rescanPrincipal(monitor);
  const audit = rescanAudit(deps.db, principal, monitor.id, deps.now ?? (() => new Date()));
  try {
    const answer = await deps.inquiries.inquire(audit, principal, rescanAsk(monitor, runId, principal.scopes), undefined, probed);
    if (!audit.written() && !answer.replayed) await audit.writeNow('done');
    return { ok: true, assessment: answer.assessment };
  } catch (error) {
    if (error instanceof ServiceProblem && error.code === 'conflict') return fromEarlierAttempt(deps, principal, runId);
    return refusedRun(error, audit);
  }
}

/**
 * An earlier attempt of this run (a worker that died mid-inquiry) opened the
 * inquiry and never stored its answer. Only this run uses the key, so there
 * is no concurrent caller to wait for: once that inquiry has an answer, it is
 * this run's answer.
 */
async function fromEarlierAttempt(deps: RescanDeps, principal: Principal, runId: string): Promise<RescanOutcome> {
  const claim = await withTenant(deps.db, principal, (tx) => findIdempotencyKey(tx, runId));
  if (!claim) throw new RescanPendingError(`run ${runId} is claimed but its inquiry is not visible yet`);
  const view = await deps.inquiries.view(principal, claim.inquiry_id).catch((error: unknown) => {
    if (error instanceof ServiceProblem && error.code === 'not-found')
      throw new RescanPendingError(`inquiry ${claim.inquiry_id} has no assessment yet`);
    throw error;
  });
  if (view.status === 'accepted' || view.status === 'reasoning')
    throw new RescanPendingError(`inquiry ${claim.inquiry_id} is still reasoning`);
  // The earlier attempt's transaction, which opened this inquiry, wrote the run's audit row.
  return { ok: true, assessment: view.assessment };
}
