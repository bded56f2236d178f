import type { Queue } from 'bullmq';
import type { Logger } from 'pino';
import { ActorNotFoundError } from '../../actors/errors.js';
import type { ActorRuntime } from '../../actors/runtime.js';
import type { MonitorContext, MonitorEvent } from '../../machines/monitorMachine.js';
import { keyStateOf } from '../auth/index.js';
import { findMonitor, type MonitorRow } from './store.js';
import { withTenant, type Mode } from '../platform/db/pool.js';
import type { EventHub } from '../events/index.js';
import { rescanOnce, type RescanDeps, type RescanOutcome } from './rescan.js';
import { unscheduleRescans } from './schedule.js';
import { evaluateTriggers } from './triggers.js';

/**
 * The monitor's two jobs as commands (the worker in src/monitors/jobs.ts only
 * parses and calls):
 *
 * - `tick`: a slot of the monitor's schedule came due; the machine enqueues
 *   the run (or ignores a closed watch or a tick it has seen).
 * - `run`: one rescan (`rescanOnce`), then its result to the machine:
 *   `rescan.completed` (with the triggers met against the machine's last
 *   assessment, read under the actor's row lock), `rescan.unchanged` (then a
 *   `MonitorChecked` signal to the monitor's open streams) or `rescan.failed`.
 *
 * Both are safe to run twice, which is what a worker killed mid-job leads to:
 * the machine ignores a tick it has seen, and a repeated run replays its
 * inquiry instead of appending a second ledger entry.
 */
export interface MonitorRunDeps extends RescanDeps {
  runtime: ActorRuntime;
  /** The `monitors` queue, to end the schedule of a watch that no longer exists. */
  queue: () => Queue;
  hub: Pick<EventHub, 'publishControl'>;
  log: Pick<Logger, 'warn' | 'error'>;
}

export interface TickJob {
  tenantId: string;
  mode: Mode;
  monitorId: string;
}
export interface RunJob extends TickJob {
  runId: string;
}

export function createMonitorRuns(deps: MonitorRunDeps) {
  async function tick(job: TickJob, runId: string, finalAttempt: boolean): Promise<void> {
    const scope = { tenantId: job.tenantId, mode: job.mode };
    try {
      const sent = await deps.runtime.send(scope, { kind: 'monitor', id: job.monitorId }, { type: 'monitor.rescanDue', runId });
      // A schedule outliving its watch (DELETE committed, the removal failed): end it now.
      if (sent.state === 'closed') await unscheduleRescans(deps.queue(), job.monitorId);
    } catch (error) {
      // The schedule is upserted inside the creating transaction, so the first tick can run before
      // the commit: retry. Once retries are spent, that transaction rolled back and no watch exists.
      if (!(error instanceof ActorNotFoundError) || !finalAttempt) throw error;
      deps.log.warn({ actorId: job.monitorId, jobId: runId }, 'schedule of a monitor that does not exist; removed');
      await unscheduleRescans(deps.queue(), job.monitorId);
    }
  }

  /**
   * One rescan, or `waits` while an earlier run of the same watch is still
   * outstanding (the worker delays the job and asks again): a watch's runs
   * go one at a time, so each compares its answer with the one before it.
   * Overlapping runs each compared with the assessment held when they began,
   * and under load every one of them appended and notified. A run that has
   * waited RUN_WAIT_LIMIT_MS goes ahead anyway: no lost run can hold a watch.
   *
   * The actor alone decides both, so a waiting run, asked again every few
   * hundred milliseconds, costs one query; the monitor's row is read only by
   * a run that goes ahead. The actor's `closed` state and the row's are
   * written in one transaction (the `updateMonitorState` effect).
   */
  async function run(job: RunJob, finalAttempt: boolean, queuedAt: number = Date.now()): Promise<RunVerdict> {
    const scope = { tenantId: job.tenantId, mode: job.mode };
    const actor = await deps.runtime.read(scope, { kind: 'monitor', id: job.monitorId });
    // The watch ended after this run was enqueued, or the run already finished (a duplicate job).
    const context = actor?.context;
    if (!actor || actor.state === 'closed' || !context?.inFlight.includes(job.runId)) return 'ran';
    if (context.inFlight.indexOf(job.runId) > 0 && Date.now() - queuedAt < RUN_WAIT_LIMIT_MS) return 'waits';
    const monitor = await withTenant(deps.db, scope, (tx) => findMonitor(tx, job.monitorId));
    if (!monitor || monitor.state === 'closed') return 'ran';
    if (await keyEnded(scope, monitor)) return 'ran';
    let outcome: RescanOutcome;
    try {
      outcome = await rescanOnce(deps, monitor, context.lastAssessment, job.runId);
    } catch (error) {
      if (!finalAttempt) throw error;
      // Out of retries: the run is recorded as failed so the machine stops waiting for it.
      deps.log.error({ err: error, actorId: monitor.id, jobId: job.runId }, 'monitor rescan failed');
      outcome = { ok: false, reason: 'error' };
    }
    const sent = await deps.runtime.send(scope, { kind: 'monitor', id: monitor.id }, (snapshot) =>
      resultOf(snapshot.context, monitor, job.runId, outcome),
    );
    if ('unchanged' in outcome && sent.state !== 'closed') {
      await deps.hub
        .publishControl(monitor.id, { type: 'checked', at: outcome.checkedAt })
        .catch((err: unknown) => deps.log.warn({ err, actorId: monitor.id }, 'monitor streams not told of an unchanged rescan'));
    }
    return 'ran';
  }

  /**
   * A watch lives no longer than the key that opened it (issue 40): before a
   * rescan, a revoked or expired key closes the monitor as DELETE would
   * (the machine's `monitor.close`, the schedule removed, the streams told
   * `key_revoked`), and the run does not ask.
   */
  async function keyEnded(scope: { tenantId: string; mode: Mode }, monitor: MonitorRow): Promise<boolean> {
    const state = await withTenant(deps.db, scope, (tx) => keyStateOf(tx, monitor.created_by_key_id));
    if (state.kind === 'active') return false;
    await deps.runtime.send(scope, { kind: 'monitor', id: monitor.id }, { type: 'monitor.close' });
    await unscheduleRescans(deps.queue(), monitor.id).catch((err: unknown) =>
      deps.log.warn({ err, actorId: monitor.id }, 'monitor schedule not removed; its next tick removes it'),
    );
    await deps.hub
      .publishControl(monitor.id, { type: 'close', reason: state.kind === 'revoked' ? 'key_revoked' : 'key_expired' })
      .catch((err: unknown) => deps.log.warn({ err, actorId: monitor.id }, 'monitor streams not told to close'));
    deps.log.warn({ actorId: monitor.id }, `monitor closed: the key that opened it is ${state.kind}`);
    return true;
  }

  return { tick, run };
}

export type MonitorRuns = ReturnType<typeof createMonitorRuns>;

/** Whether a run job ran (or had nothing left to do), or waits behind an earlier run of its watch. */
export type RunVerdict = 'ran' | 'waits';

/** How long a run waits behind an earlier one before going ahead regardless (a run lost for good must not hold its watch). */
export const RUN_WAIT_LIMIT_MS = 60_000;

/** The run's result event, built under the actor's row lock so `previous` is the assessment the machine holds. */
function resultOf(context: MonitorContext, monitor: MonitorRow, runId: string, outcome: RescanOutcome): MonitorEvent | null {
  if (!context.inFlight.includes(runId)) return null;
  if (!outcome.ok) return { type: 'rescan.failed', runId, reason: outcome.reason };
  if ('unchanged' in outcome) return { type: 'rescan.unchanged', runId, checkedAt: outcome.checkedAt };
  const previous = context.lastAssessment;
  const triggered = evaluateTriggers(monitor.triggers, { current: outcome.assessment, previous, reference: context.reference });
  return { type: 'rescan.completed', runId, assessment: outcome.assessment, previous, triggered };
}
