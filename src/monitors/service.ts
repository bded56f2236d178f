import { randomUUID } from 'node:crypto';
import type { Queue } from 'bullmq';
import type { Logger } from 'pino';
import type { ActorRuntime } from '../../actors/runtime.js';
import type { MonitorInput } from '../../machines/monitorMachine.js';
import type { Principal } from '../auth/index.js';
import { findMonitor, insertMonitor, lastMonitorAssessment, type MonitorRow } from './store.js';
import { withTenant, type Db } from '../platform/db/pool.js';
import type { EventHub } from '../events/index.js';
import type { CallContext } from '../auth/index.js';
import { ServiceProblem, ValidationFailure } from '../platform/problems.js';
import { admitInquiry } from '../inquiries/index.js';
import { assessmentOf } from '../assessment/index.js';
import type { PolicyCache } from '../policies/index.js';
import type { RegistryCache } from '../registry/index.js';
import { monitorAsk } from './ask.js';
import type { MonitorCreate, MonitorOut } from './schemas.js';
import { nextRunAt, scheduleRescans, unscheduleRescans } from './schedule.js';

/**
 * Opening, reading and ending monitors (the HTTP side; rescans are
 * src/monitors/jobs.ts). Opening is one transaction: the monitors row, the
 * actor, the audit row and, last, the upsert of the BullMQ job scheduler, so
 * a failed upsert leaves no monitor without a cadence. Ending commits
 * `monitor.close` first, then removes the schedule and ends open streams;
 * a schedule that survives a failed removal is removed by its next tick.
 */
export interface MonitorServiceDeps {
  db: Db;
  runtime: ActorRuntime;
  /** The `monitors` queue, where the job schedulers live. */
  queue: () => Queue;
  hub: Pick<EventHub, 'publishControl'>;
  registry: RegistryCache;
  policies: PolicyCache;
  /** The operator's cadence floor (TAS_MIN_MONITOR_CADENCE_SECONDS). */
  minCadenceSeconds: number;
  log: Pick<Logger, 'warn'>;
}

/**
 * A monitor as its commands answer it: without the address of its stream
 * (events_url), which its route adds (wire.ts monitorBody).
 */
export type MonitorView = Omit<MonitorOut, 'events_url'>;

export interface MonitorService {
  open(ctx: CallContext, principal: Principal, body: MonitorCreate, purposeHeader?: string): Promise<MonitorView>;
  view(principal: Principal, monitorId: string): Promise<MonitorView>;
  close(ctx: CallContext, principal: Principal, monitorId: string): Promise<void>;
}

export function createMonitorService(deps: MonitorServiceDeps): MonitorService {
  const notFound = () => new ServiceProblem('not-found', 'No such monitor.');

  async function open(ctx: CallContext, principal: Principal, body: MonitorCreate, purposeHeader?: string): Promise<MonitorView> {
    ctx.audit.purpose = body.purpose;
    if (body.cadence_seconds < deps.minCadenceSeconds) {
      throw new ValidationFailure([
        { loc: ['body', 'cadence_seconds'], msg: `Input should be greater than or equal to ${deps.minCadenceSeconds}`, type: 'too_small' },
      ]);
    }
    // The same admission as an inquiry, so a purpose refused there is refused here identically (rule I13).
    await admitInquiry({ registry: deps.registry, policies: deps.policies }, principal, monitorAsk(body), purposeHeader);
    const id = randomUUID();
    ctx.audit.target_kind = 'monitor';
    ctx.audit.target_id = id;
    const input: MonitorInput = { monitor_id: id, tenant_id: principal.tenantId, mode: principal.mode, case_id: body.case_id ?? null };
    await deps.runtime.create(principal, {
      kind: 'monitor',
      id,
      input,
      prepare: (tx) =>
        insertMonitor(tx, {
          id,
          tenantId: principal.tenantId,
          mode: principal.mode,
          subject: body.subject,
          intent: body.intent,
          purpose: body.purpose,
          stake: body.stake,
          triggers: body.triggers,
          cadenceSeconds: body.cadence_seconds,
          caseId: input.case_id,
          createdBy: principal.label,
          createdByKeyId: principal.keyId,
        }),
      inTx: async (tx) => {
        await ctx.auditInTx(tx, 'created');
        // Last before commit: the first tick may run before the commit lands, and retries until it has.
        await scheduleRescans(deps.queue(), {
          monitorId: id,
          tenantId: principal.tenantId,
          mode: principal.mode,
          cadenceSeconds: body.cadence_seconds,
        });
      },
    });
    return view(principal, id);
  }

  async function view(principal: Principal, monitorId: string): Promise<MonitorView> {
    const found = await withTenant(deps.db, principal, async (tx) => {
      const monitor = await findMonitor(tx, monitorId);
      return monitor ? { monitor, assessment: await lastMonitorAssessment(tx, monitorId) } : null;
    });
    if (!found) throw notFound();
    const next = found.monitor.state === 'closed' ? null : await nextRunAt(deps.queue(), monitorId);
    // The ledger's evidence column holds the EvidenceSummary the assessment was issued with.
    const last = found.assessment ? assessmentOf(found.assessment) : null;
    return monitorView(found.monitor, last, next);
  }

  async function close(ctx: CallContext, principal: Principal, monitorId: string): Promise<void> {
    ctx.audit.target_kind = 'monitor';
    ctx.audit.target_id = monitorId;
    const monitor = await withTenant(deps.db, principal, (tx) => findMonitor(tx, monitorId));
    if (!monitor) throw notFound();
    // Ending an ended watch changes nothing and answers the same 204, so a retried DELETE is safe.
    await deps.runtime.send(
      principal,
      { kind: 'monitor', id: monitorId },
      { type: 'monitor.close' },
      { inTx: (tx) => ctx.auditInTx(tx, 'removed') },
    );
    await unscheduleRescans(deps.queue(), monitorId).catch((err) =>
      deps.log.warn({ err, actorId: monitorId }, 'monitor schedule not removed; its next tick removes it'),
    );
    await deps.hub
      .publishControl(monitorId, { type: 'close', reason: 'monitor_deleted' })
      .catch((err) => deps.log.warn({ err, actorId: monitorId }, 'monitor streams not told to close'));
  }

  return { open, view, close };
}

function monitorView(m: MonitorRow, lastAssessment: MonitorOut['last_assessment'], nextRun: string | null): MonitorView {
  return {
    monitor_id: m.id,
    state: m.state,
    subject: m.subject,
    intent: m.intent,
    purpose: m.purpose,
    stake: m.stake as MonitorOut['stake'],
    cadence_seconds: m.cadence_seconds,
    triggers: m.triggers,
    case_id: m.case_id,
    next_run_at: nextRun,
    last_assessment: lastAssessment,
    last_checked_at: m.last_checked_at,
    unchanged_rescans: m.unchanged_rescans,
    created_at: m.created_at,
  };
}
