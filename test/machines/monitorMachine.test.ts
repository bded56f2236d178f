import { describe, expect, it } from 'vitest';
import { initialTransition, transition } from 'xstate';
import {
  MONITOR_MACHINE_VERSION,
  RECENT_RUNS,
  monitorMachine,
  rescanJobOf,
  type MonitorContext,
  type MonitorEvent,
  type MonitorStatus,
} from '../../machines/monitorMachine.js';
import type { TriggerHit } from '../../src/monitors/triggers.js';
import { anAssessment } from './anAssessment.js';
import type { Assessment } from '../../machines/types.js';

/**
 * Given a state and context, when an event arrives, then the next state,
 * context and the exact list of actions the runtime must carry out. Every
 * transition of the machine is here, and so is every ignored event.
 */

const ID = '00000000-0000-4000-8000-00000000000a';
const TENANT = '00000000-0000-4000-8000-00000000000b';
const CASE = '00000000-0000-4000-8000-00000000000c';
const input = { monitor_id: ID, tenant_id: TENANT, mode: 'test' as const, case_id: null };

const assessment = (id: string, score = 60): Assessment =>
  anAssessment(id, { score, low: score - 10, high: score + 10, label: null, as_of: `2026-11-25T10:00:0${id.at(-1)}.000Z` });
const A1 = assessment('as-1', 70);
const A2 = assessment('as-2', 40);

const base: MonitorContext = { ...input, inFlight: [], recentRuns: [], lastAssessment: null, reference: null };
const ctx = (over: Partial<MonitorContext> = {}): MonitorContext => ({ ...base, ...over });
const given = (value: MonitorStatus, over: Partial<MonitorContext> = {}) => monitorMachine.resolveState({ value, context: ctx(over) });

const due = (runId: string): MonitorEvent => ({ type: 'monitor.rescanDue', runId });
const completed = (runId: string, a: Assessment, triggered: TriggerHit[] = [], previous: Assessment | null = null): MonitorEvent => ({
  type: 'rescan.completed',
  runId,
  assessment: a,
  previous,
  triggered,
});
const failed = (runId: string): MonitorEvent => ({ type: 'rescan.failed', runId, reason: 'I13' });
const unchanged = (runId: string): MonitorEvent => ({ type: 'rescan.unchanged', runId, checkedAt: '2026-11-25T11:00:00.000Z' });
const heartbeat = { type: 'recordMonitorHeartbeat', params: { checkedAt: '2026-11-25T11:00:00.000Z' } };
const close: MonitorEvent = { type: 'monitor.close' };

// The runtime's view of the actions: type and params, nothing else.
const plain = (actions: readonly { type: string; params?: unknown }[]) => actions.map(({ type, params }) => ({ type, params }));
const status = (s: MonitorStatus) => ({ type: 'updateMonitorState', params: { state: s } });
const enqueue = (runId: string) => ({ type: 'enqueueJob', params: rescanJobOf(input, runId) });
const record = (a: Assessment) => ({ type: 'recordMonitorAssessment', params: { assessmentId: a.assessment_id, checkedAt: a.as_of } });
const triggeredEvent = (a: Assessment, previous: Assessment | null, reasons: string[], caseId: string | null = null) => ({
  type: 'appendEvent',
  params: { type: 'MonitorTriggered', payload: { monitor_id: ID, reasons, assessment: a, previous_assessment: previous, case_id: caseId } },
});

const copiedToCase = (a: Assessment, previous: Assessment | null, reasons: string[], caseId: string) => ({
  type: 'copyToCaseStream',
  params: {
    caseId,
    type: 'MonitorTriggered',
    payload: { monitor_id: ID, reasons, assessment: a, previous_assessment: previous, case_id: caseId },
  },
});

describe('monitor machine', () => {
  it('is version 1 with id monitor', () => {
    expect(MONITOR_MACHINE_VERSION).toBe(1);
    expect(monitorMachine.id).toBe('monitor');
  });

  it('given input, when it starts, then it is active and says so', () => {
    const [snap, actions] = initialTransition(monitorMachine, input);
    expect(snap.value).toBe('active');
    expect(snap.context).toEqual(ctx());
    expect(plain(actions)).toEqual([status('active')]);
  });

  it('derives the rescan job id from the run id, so a second enqueue of one run adds nothing', () => {
    expect(rescanJobOf(input, 'repeat:m:1000')).toEqual({
      queue: 'monitors',
      name: 'monitor.run',
      jobId: 'repeat:m:1000.run',
      data: { tenantId: TENANT, mode: 'test', monitorId: ID, runId: 'repeat:m:1000' },
    });
  });

  interface Case {
    name: string;
    given: [MonitorStatus, Partial<MonitorContext>?];
    when: MonitorEvent;
    then: { value: MonitorStatus; context: Partial<MonitorContext>; actions: object[] };
  }

  it.each<Case>([
    {
      name: 'active, a run comes due: enqueues its rescan and is rescanning',
      given: ['active'],
      when: due('r1'),
      then: { value: 'rescanning', context: { inFlight: ['r1'] }, actions: [enqueue('r1'), status('rescanning')] },
    },
    {
      name: 'active, closed: closed',
      given: ['active', { lastAssessment: A1 }],
      when: close,
      then: { value: 'closed', context: {}, actions: [status('closed')] },
    },
    {
      name: 'rescanning, another run comes due before the first ends: enqueued too, none is dropped',
      given: ['rescanning', { inFlight: ['r1'] }],
      when: due('r2'),
      then: { value: 'rescanning', context: { inFlight: ['r1', 'r2'] }, actions: [enqueue('r2')] },
    },
    {
      name: 'rescanning, the first rescan completes (the baseline): recorded, nothing announced, back to active',
      given: ['rescanning', { inFlight: ['r1'] }],
      when: completed('r1', A1),
      then: {
        value: 'active',
        context: { inFlight: [], recentRuns: ['r1'], lastAssessment: A1, reference: A1 },
        actions: [record(A1), status('active')],
      },
    },
    {
      name: 'rescanning, a rescan completes with triggers met: recorded, MonitorTriggered with both assessments, the reference moves',
      given: ['rescanning', { inFlight: ['r2'], recentRuns: ['r1'], lastAssessment: A1, reference: A1 }],
      when: completed('r2', A2, [{ reason: 'label_change' }, { reason: 'score_moves_by' }], A1),
      then: {
        value: 'active',
        context: { inFlight: [], recentRuns: ['r1', 'r2'], lastAssessment: A2, reference: A2 },
        actions: [record(A2), triggeredEvent(A2, A1, ['label_change', 'score_moves_by']), status('active')],
      },
    },
    {
      name: 'rescanning, a rescan ends unchanged: only the heartbeat, the last assessment and the reference stay, nothing announced',
      given: ['rescanning', { inFlight: ['r2'], recentRuns: ['r1'], lastAssessment: A1, reference: A1 }],
      when: unchanged('r2'),
      then: {
        value: 'active',
        context: { inFlight: [], recentRuns: ['r1', 'r2'], lastAssessment: A1, reference: A1 },
        actions: [heartbeat, status('active')],
      },
    },
    {
      name: 'rescanning with two runs out, one ends unchanged: the heartbeat, still rescanning',
      given: ['rescanning', { inFlight: ['r1', 'r2'], lastAssessment: A1, reference: A1 }],
      when: unchanged('r1'),
      then: { value: 'rescanning', context: { inFlight: ['r2'], recentRuns: ['r1'], lastAssessment: A1 }, actions: [heartbeat] },
    },
    {
      name: 'rescanning, an unchanged result for a run not outstanding (a duplicate job): ignored',
      given: ['rescanning', { inFlight: ['r2'], recentRuns: ['r1'], lastAssessment: A1, reference: A1 }],
      when: unchanged('r1'),
      then: { value: 'rescanning', context: { inFlight: ['r2'], recentRuns: ['r1'] }, actions: [] },
    },
    {
      name: 'rescanning, a rescan completes with no trigger met: recorded, the reference stays',
      given: ['rescanning', { inFlight: ['r2'], recentRuns: ['r1'], lastAssessment: A1, reference: A1 }],
      when: completed('r2', A2, [], A1),
      then: {
        value: 'active',
        context: { inFlight: [], recentRuns: ['r1', 'r2'], lastAssessment: A2, reference: A1 },
        actions: [record(A2), status('active')],
      },
    },
    {
      name: 'rescanning with two runs out, one completes: recorded and announced, still rescanning',
      given: ['rescanning', { inFlight: ['r1', 'r2'], lastAssessment: A1, reference: A1, case_id: CASE }],
      when: completed('r2', A2, [{ reason: 'score_below' }], A1),
      then: {
        value: 'rescanning',
        context: { inFlight: ['r1'], recentRuns: ['r2'], lastAssessment: A2, reference: A2 },
        // Opened in a case: the event goes onto the case's stream too.
        actions: [record(A2), triggeredEvent(A2, A1, ['score_below'], CASE), copiedToCase(A2, A1, ['score_below'], CASE)],
      },
    },
    {
      name: 'rescanning, the only run fails: back to active, the last assessment kept',
      given: ['rescanning', { inFlight: ['r2'], lastAssessment: A1, reference: A1 }],
      when: failed('r2'),
      then: { value: 'active', context: { inFlight: [], recentRuns: ['r2'] }, actions: [status('active')] },
    },
    {
      name: 'rescanning with two runs out, one fails: still rescanning',
      given: ['rescanning', { inFlight: ['r1', 'r2'] }],
      when: failed('r1'),
      then: { value: 'rescanning', context: { inFlight: ['r2'], recentRuns: ['r1'] }, actions: [] },
    },
    {
      name: 'rescanning, closed: closed with the run outstanding (its result will be ignored)',
      given: ['rescanning', { inFlight: ['r1'] }],
      when: close,
      then: { value: 'closed', context: {}, actions: [status('closed')] },
    },
  ])('given $given.0, when $when.type: $name', ({ given: [value, over], when, then }) => {
    const [next, actions] = transition(monitorMachine, given(value, over), when);
    expect(next.value).toBe(then.value);
    expect(next.context).toEqual(ctx({ ...over, ...then.context }));
    expect(next.status).toBe(then.value === 'closed' ? 'done' : 'active');
    expect(plain(actions)).toEqual(then.actions);
  });

  // Duplicates (a tick or a run delivered twice), events a state does not handle, and anything after the end.
  it.each<{ name: string; given: [MonitorStatus, Partial<MonitorContext>?]; when: MonitorEvent }>([
    { name: 'a tick for a run already finished', given: ['active', { recentRuns: ['r1'] }], when: due('r1') },
    { name: 'a result while no run is out', given: ['active', { recentRuns: ['r1'] }], when: completed('r1', A1) },
    { name: 'a failure while no run is out', given: ['active'], when: failed('r1') },
    { name: 'a tick for the run already out', given: ['rescanning', { inFlight: ['r1'] }], when: due('r1') },
    { name: 'a tick for a run already finished', given: ['rescanning', { inFlight: ['r2'], recentRuns: ['r1'] }], when: due('r1') },
    { name: 'a result for a run not out', given: ['rescanning', { inFlight: ['r2'], recentRuns: ['r1'] }], when: completed('r1', A1) },
    { name: 'a failure for a run not out', given: ['rescanning', { inFlight: ['r2'] }], when: failed('r9') },
    { name: 'a late tick', given: ['closed'], when: due('r3') },
    { name: 'a late result', given: ['closed', { inFlight: ['r1'] }], when: completed('r1', A1) },
    { name: 'a late failure', given: ['closed', { inFlight: ['r1'] }], when: failed('r1') },
    { name: 'a second close', given: ['closed'], when: close },
  ])('given $given.0, when $name arrives, then nothing changes and nothing is done', ({ given: [value, over], when }) => {
    const before = given(value, over);
    const [next, actions] = transition(monitorMachine, before, when);
    expect(next).toBe(before);
    expect(actions).toEqual([]);
  });

  it('given many finished runs, when one more finishes, then only the last RECENT_RUNS are remembered', () => {
    const recent = Array.from({ length: RECENT_RUNS }, (_, i) => `old-${i}`);
    const [next] = transition(monitorMachine, given('rescanning', { inFlight: ['new'], recentRuns: recent }), failed('new'));
    expect(next.context.recentRuns).toHaveLength(RECENT_RUNS);
    expect(next.context.recentRuns[0]).toBe('old-1');
    expect(next.context.recentRuns.at(-1)).toBe('new');
  });

  it('given a snapshot persisted as JSON, when restored, then it continues where it left off', () => {
    const [start] = initialTransition(monitorMachine, input);
    const [rescanning] = transition(monitorMachine, start, due('r1'));
    const restored = monitorMachine.resolveState(JSON.parse(JSON.stringify(monitorMachine.getPersistedSnapshot(rescanning))));
    const [next, actions] = transition(monitorMachine, restored, completed('r1', A1));
    expect(next.value).toBe('active');
    expect(next.context.lastAssessment).toEqual(A1);
    expect(plain(actions)).toEqual([record(A1), status('active')]);
  });
});
