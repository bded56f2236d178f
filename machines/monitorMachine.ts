import { setup } from 'xstate';
import type { Assessment, OutboxJob, TriggerHit } from './types.js';

/**
 * The monitor machine (DESIGN.md 2.8 "Monitors"): a standing watch on a
 * subject. Like the inquiry machine it decides and never computes: each
 * rescan's assessment arrives already scored, with the triggers it met
 * already evaluated (src/monitors/triggers.ts) against the `lastAssessment`
 * and `reference` this machine holds.
 *
 * States:
 * - `active` (initial): watching, no rescan outstanding. A BullMQ job
 *   scheduler sends `monitor.rescanDue` every cadence, with the scheduled
 *   job's id as `runId`; the machine enqueues the rescan (`monitor.run`, job id
 *   derived from the run id) and moves to `rescanning`.
 * - `rescanning`: one or more runs are outstanding (`inFlight`). Each ends
 *   with `rescan.completed` (its assessment becomes `lastAssessment`, and
 *   when triggers fired `MonitorTriggered` is appended to the stream),
 *   `rescan.unchanged` (the answer equalled `lastAssessment`: no inquiry was
 *   opened, only the heartbeat is recorded) or `rescan.failed`. The last outstanding run's end returns to `active`.
 *   A run that comes due while another is still outstanding is enqueued too,
 *   rather than dropped: every scheduled run gets its inquiry.
 * - `closed` (final): DELETE sent `monitor.close`, from either open state.
 *   Everything later (a late tick, a run finishing) is ignored.
 *
 * Duplicates are harmless: a `monitor.rescanDue` for a run that is outstanding
 * or among the last RECENT_RUNS finished ones is ignored (a tick job that ran
 * twice after a worker crash), and so is a result for a run that is not
 * outstanding (a rescan job that ran twice).
 *
 * Actions the runtime carries out (see actors/types.ts): `updateMonitorState`,
 * `recordMonitorAssessment` and `recordMonitorHeartbeat` (in-transaction
 * effects on the monitors row),
 * `appendEvent`, `enqueueJob`.
 */
export const MONITOR_MACHINE_VERSION = 1;
export const MONITOR_QUEUE = 'monitors';
export const MONITOR_RUN_JOB = 'monitor.run';
// Finished run ids remembered to recognise a re-delivered tick. A duplicate
// tick arrives within a stall-recovery interval, a few cadences at most; the
// deterministic job id of the run and the inquiry's idempotency key are the
// layers behind this one.
export const RECENT_RUNS = 64;

export type MonitorStatus = 'active' | 'rescanning' | 'closed';

/** The machine's own actions carried out in the command's transaction (src/monitors/effects.ts), by name, with their params. */
export interface MonitorEffectParams {
  updateMonitorState: { state: MonitorStatus };
  recordMonitorAssessment: { assessmentId: string; checkedAt: string };
  recordMonitorHeartbeat: { checkedAt: string };
  copyToCaseStream: { caseId: string; type: string; payload: Record<string, unknown> };
}

export interface MonitorInput {
  monitor_id: string;
  tenant_id: string;
  mode: 'live' | 'test';
  case_id: string | null;
}

export interface MonitorContext extends MonitorInput {
  /** Run ids enqueued and not yet finished. */
  inFlight: string[];
  /** The last RECENT_RUNS finished run ids, oldest first. */
  recentRuns: string[];
  lastAssessment: Assessment | null;
  /** What `score_moves_by` measures from: the last announced assessment, or the first one. */
  reference: Assessment | null;
}

export type MonitorEvent =
  | { type: 'monitor.rescanDue'; runId: string }
  | { type: 'rescan.completed'; runId: string; assessment: Assessment; previous: Assessment | null; triggered: TriggerHit[] }
  | { type: 'rescan.unchanged'; runId: string; checkedAt: string }
  | { type: 'rescan.failed'; runId: string; reason: string }
  | { type: 'monitor.close' };

const status = (s: MonitorStatus) => ({ type: 'updateMonitorState' as const, params: { state: s } });

/** The rescan job of one run: its id is derived from the run id, so enqueueing it twice adds it once. */
export function rescanJobOf(context: MonitorInput, runId: string): OutboxJob {
  return {
    queue: MONITOR_QUEUE,
    name: MONITOR_RUN_JOB,
    jobId: `${runId}.run`,
    data: { tenantId: context.tenant_id, mode: context.mode, monitorId: context.monitor_id, runId },
  };
}

const runIdOf = (event: MonitorEvent): string | null => ('runId' in event ? event.runId : null);

const runtimeSetup = setup({
  types: {
    context: {} as MonitorContext,
    events: {} as MonitorEvent,
    input: {} as MonitorInput,
  },
  actions: {
    // Carried out by the runtime; declared here only so their params are typed.
    updateMonitorState: (_, _params: MonitorEffectParams['updateMonitorState']) => {},
    recordMonitorAssessment: (_, _params: MonitorEffectParams['recordMonitorAssessment']) => {},
    recordMonitorHeartbeat: (_, _params: MonitorEffectParams['recordMonitorHeartbeat']) => {},
    appendEvent: (_, _params: { type: string; payload: Record<string, unknown> }) => {},
    copyToCaseStream: (_, _params: MonitorEffectParams['copyToCaseStream']) => {},
    enqueueJob: (_, _params: OutboxJob) => {},
  },
  guards: {
    isNewRun: ({ context, event }) => {
      const runId = runIdOf(event);
      return runId !== null && !context.inFlight.includes(runId) && !context.recentRuns.includes(runId);
    },
    isInFlight: ({ context, event }) => {
      const runId = runIdOf(event);
      return runId !== null && context.inFlight.includes(runId);
    },
    isLastInFlight: ({ context, event }) => context.inFlight.length === 1 && context.inFlight[0] === runIdOf(event),
  },
});

export const monitorMachine = runtimeSetup
  .extend({
    // Resolved inside the pure transition: they update context and expand into the runtime actions above.
    actions: {
      startRun: runtimeSetup.enqueueActions(({ context, event, enqueue }) => {
        if (event.type !== 'monitor.rescanDue') return;
        enqueue.assign({ inFlight: [...context.inFlight, event.runId] });
        enqueue({ type: 'enqueueJob', params: rescanJobOf(context, event.runId) });
      }),
      finishRun: runtimeSetup.assign(({ context, event }) => {
        const runId = runIdOf(event);
        return {
          inFlight: context.inFlight.filter((r) => r !== runId),
          recentRuns: [...context.recentRuns, runId!].slice(-RECENT_RUNS),
        };
      }),
      absorbAssessment: runtimeSetup.enqueueActions(({ context, event, enqueue }) => {
        if (event.type !== 'rescan.completed') return;
        const announce = event.triggered.length > 0;
        enqueue.assign({
          lastAssessment: event.assessment,
          reference: announce || context.reference === null ? event.assessment : context.reference,
        });
        enqueue({
          type: 'recordMonitorAssessment',
          params: { assessmentId: event.assessment.assessment_id, checkedAt: event.assessment.as_of },
        });
        if (!announce) return;
        const payload = {
          monitor_id: context.monitor_id,
          reasons: event.triggered.map((t) => t.reason),
          assessment: event.assessment,
          previous_assessment: event.previous,
          case_id: context.case_id,
        };
        enqueue({ type: 'appendEvent', params: { type: 'MonitorTriggered', payload } });
        // A monitor opened in a case is part of the case: its stream carries the event too (SPEC: the case stream's event types).
        if (context.case_id !== null)
          enqueue({ type: 'copyToCaseStream', params: { caseId: context.case_id, type: 'MonitorTriggered', payload } });
      }),
      // An unchanged rescan appended nothing to the ledger: the machine keeps its last assessment and only the heartbeat is written.
      recordHeartbeat: runtimeSetup.enqueueActions(({ event, enqueue }) => {
        if (event.type !== 'rescan.unchanged') return;
        enqueue({ type: 'recordMonitorHeartbeat', params: { checkedAt: event.checkedAt } });
      }),
    },
  })
  .createMachine({
    id: 'monitor',
    initial: 'active',
    context: ({ input }) => ({
      monitor_id: input.monitor_id,
      tenant_id: input.tenant_id,
      mode: input.mode,
      case_id: input.case_id,
      inFlight: [],
      recentRuns: [],
      lastAssessment: null,
      reference: null,
    }),
    states: {
      active: {
        entry: status('active'),
        on: {
          'monitor.rescanDue': { guard: 'isNewRun', target: 'rescanning', actions: 'startRun' },
          'monitor.close': { target: 'closed' },
        },
      },
      rescanning: {
        entry: status('rescanning'),
        on: {
          'monitor.rescanDue': { guard: 'isNewRun', actions: 'startRun' },
          'rescan.completed': [
            { guard: 'isLastInFlight', target: 'active', actions: ['absorbAssessment', 'finishRun'] },
            { guard: 'isInFlight', actions: ['absorbAssessment', 'finishRun'] },
          ],
          'rescan.unchanged': [
            { guard: 'isLastInFlight', target: 'active', actions: ['recordHeartbeat', 'finishRun'] },
            { guard: 'isInFlight', actions: ['recordHeartbeat', 'finishRun'] },
          ],
          'rescan.failed': [
            { guard: 'isLastInFlight', target: 'active', actions: 'finishRun' },
            { guard: 'isInFlight', actions: 'finishRun' },
          ],
          'monitor.close': { target: 'closed' },
        },
      },
      closed: { type: 'final', entry: status('closed') },
    },
  });
