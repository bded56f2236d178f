import { describe, expect, it } from 'vitest';
import {
  assign,
  createMachine,
  fromPromise,
  initialTransition as xstateInitial,
  setup,
  transition as xstateTransition,
  type AnyMachineSnapshot,
  type AnyStateMachine,
  type EventObject,
} from 'xstate';
import { initialTransition, transition } from '../../actors/pureTransition.js';
import { inquiryMachine, type InquiryEvent } from '../../machines/inquiryMachine.js';
import { caseMachine, type CaseEvent } from '../../machines/caseMachine.js';
import { monitorMachine, type MonitorEvent } from '../../machines/monitorMachine.js';
import { sessionMachine, type SessionEvent } from '../../machines/sessionMachine.js';
import { anAssessment } from '../machines/anAssessment.js';
import type { Signal } from '../../src/checks/types.js';
import type { TriggerHit } from '../../machines/types.js';

/**
 * actors/pureTransition.ts computes the same steps as XState's own pure
 * functions, with one inert scope per machine instead of an actor per call:
 * same state, context, status and actions (type and params) on paths of all
 * four machines the runtime drives (inquiry, case, monitor, session), twice
 * in a row (nothing leaks from one call into the next), and XState's own
 * answer for a machine that invokes or spawns. It reaches into XState's
 * internals, so xstate is pinned exactly (package.json) and an upgrade is
 * checked here first.
 */
const ID = '00000000-0000-4000-8000-000000000037';
const signal: Signal = {
  kind: 'email_syntax',
  about: 'a@example.com',
  about_type: 'EMAIL',
  disposition: 'supports',
  statement: 'well formed',
  provenance_class: 'computed',
  trust_band: 'high',
  data_class: 'C0',
  observed_at: '2025-01-01T00:00:00.000Z',
};
const evaluated = (over: Partial<Extract<InquiryEvent, { type: 'inquiry.evaluated' }>> = {}): InquiryEvent => ({
  type: 'inquiry.evaluated',
  signals: [signal],
  absences: [],
  pending: [],
  assessment: anAssessment('as-1'),
  narrowEnough: false,
  deadlineMs: 3000,
  maxReasoningMs: 60_000,
  ...over,
});
const job = (key: string) => ({ key, job: { queue: 'checks', name: 'check.run', jobId: `${ID}.${key}`, data: { key } } });
const reported = (key: string, narrowEnough = false): InquiryEvent => ({
  type: 'check.reported',
  key,
  signals: [signal],
  absences: [],
  assessment: anAssessment(`as-${key}`),
  narrowEnough,
});
const timed = (type: 'deadline.reached' | 'reasoning.expired', id: string): InquiryEvent => ({
  type,
  assessment: anAssessment(id),
  timeoutAbsences: [{ about: 'a@example.com', about_type: 'EMAIL', kind: 'timeout', reason: 'slow' }],
});

const plain = ([s, actions]: [AnyMachineSnapshot, readonly { type: string; params?: unknown }[]]) => ({
  value: s.value,
  context: s.context as unknown,
  status: s.status,
  children: Object.keys(s.children),
  actions: actions.map(({ type, params }) => ({ type, params })),
});

// A child's ref differs from run to run (its session id): compared by state, children and action types.
const shape = (p: ReturnType<typeof plain>) => ({
  value: p.value,
  status: p.status,
  children: p.children,
  actions: p.actions.map((a) => a.type),
});

/** Both implementations along one path of events from the initial snapshot, step by step. */
function walk(machine: AnyStateMachine, input: unknown, events: EventObject[]) {
  const ours = [plain(initialTransition(machine, input))];
  const theirs = [plain(xstateInitial(machine, input) as never)];
  let a = initialTransition(machine, input)[0];
  let b = xstateInitial(machine, input)[0] as AnyMachineSnapshot;
  for (const e of events) {
    const x = transition(machine, a, e);
    const y = xstateTransition(machine, b, e) as [AnyMachineSnapshot, never[]];
    ours.push(plain(x));
    theirs.push(plain(y));
    [a, b] = [x[0], y[0]];
  }
  return { ours, theirs };
}

const PATHS: [string, boolean, InquiryEvent[]][] = [
  ['concluded at once', false, [evaluated({ narrowEnough: true })]],
  ['reasoning, then reported', false, [evaluated({ pending: [job('dns'), job('rdap')] }), reported('dns'), reported('rdap')]],
  ['a duplicate report is ignored', false, [evaluated({ pending: [job('dns'), job('rdap')] }), reported('dns'), reported('dns')]],
  ['narrow enough on a report', false, [evaluated({ pending: [job('dns'), job('rdap')] }), reported('dns', true)]],
  ['deadline, then preliminary, revised', true, [evaluated({ pending: [job('dns')] }), timed('deadline.reached', 'as-3'), reported('dns')]],
  ['deadline without preliminary', false, [evaluated({ pending: [job('dns')] }), timed('deadline.reached', 'as-3')]],
  [
    'preliminary, expired',
    true,
    [evaluated({ pending: [job('dns')] }), timed('deadline.reached', 'as-3'), timed('reasoning.expired', 'as-4')],
  ],
  ['rejected', false, [{ type: 'inquiry.rejected', rule: 'I13' }]],
  ['events after the end are ignored', false, [evaluated(), reported('dns'), timed('reasoning.expired', 'as-4')]],
];

// The case machine: opened, worked, held, released, reviewed and closed; and refusals (events its state does not take).
const CASE = '00000000-0000-4000-8000-00000000000c';
const TENANT = '00000000-0000-4000-8000-00000000000b';
const stamp = { at: '2026-01-02T00:00:00.000Z', principal: 'key:k1' };
const caseOpen: CaseEvent = {
  type: 'case.open',
  ...stamp,
  title: 'T',
  purpose: 'investigation',
  description: null,
  authorization: { kind: 'court_order', reference: 'CO-1', issued_by: 'Court' },
  budget: 100,
  entity_ids: ['00000000-0000-4000-8000-00000000000e'],
};
const caseMember: CaseEvent = { type: 'case.member', ...stamp, action: 'add', member: 'analyst-7', role: 'analyst' };
const caseIntake: CaseEvent = {
  type: 'case.intake',
  ...stamp,
  intake_id: 'i1',
  keys: ['EMAIL:a@b.c'],
  entity_ids: [],
  accepted: 1,
  duplicate: 0,
  rejected: 0,
};
const caseAssert: CaseEvent = {
  type: 'case.assert',
  ...stamp,
  observation_id: 'o1',
  disposition: 'supports',
  entity_id: null,
  material_ids: [],
  finding_ids: [],
};
const caseHold: CaseEvent = { type: 'case.hold', ...stamp, reason: 'litigation', reference: 'LH-1' };
const caseRelease: CaseEvent = { type: 'case.release', ...stamp, reason: 'lifted', reference: null };
const caseReview = (outcome: 'sign_off' | 'request_changes'): CaseEvent => ({ type: 'case.review', ...stamp, outcome, note: null });
const caseClose: CaseEvent = { type: 'case.close', ...stamp, finding: 'confirmed' };
const CASE_PATHS: [string, string, CaseEvent[]][] = [
  [
    'opened, worked, held, released, signed off, closed',
    'closed',
    [caseOpen, caseMember, caseIntake, caseAssert, caseHold, caseRelease, caseReview('sign_off'), caseClose],
  ],
  [
    'changes requested, then signed off',
    'closed',
    [caseOpen, caseReview('request_changes'), caseAssert, caseReview('sign_off'), caseClose],
  ],
  ['a close while held is not taken', 'open', [caseOpen, caseHold, caseClose, caseRelease]],
  ['events after the close are ignored', 'closed', [caseOpen, caseReview('sign_off'), caseClose, caseAssert, caseHold]],
];

// The monitor machine: runs that complete, trigger, stay unchanged or fail, one waiting behind another, and the close.
const MONITOR = '00000000-0000-4000-8000-00000000000a';
const due = (runId: string): MonitorEvent => ({ type: 'monitor.rescanDue', runId });
const completed = (runId: string, id: string, triggered: TriggerHit[] = []): MonitorEvent => ({
  type: 'rescan.completed',
  runId,
  assessment: anAssessment(id),
  previous: null,
  triggered,
});
const MONITOR_PATHS: [string, string, string | null, MonitorEvent[]][] = [
  [
    'a baseline, then a triggered run',
    'active',
    null,
    [due('r1'), completed('r1', 'as-1'), due('r2'), completed('r2', 'as-2', [{ reason: 'score_moves_by' }])],
  ],
  ['a triggered run copied onto its case', 'active', CASE, [due('r1'), completed('r1', 'as-1', [{ reason: 'score_moves_by' }])]],
  [
    'unchanged, failed, a duplicate tick',
    'active',
    null,
    [
      due('r1'),
      { type: 'rescan.unchanged', runId: 'r1', checkedAt: '2026-11-25T11:00:00.000Z' },
      due('r2'),
      due('r2'),
      { type: 'rescan.failed', runId: 'r2', reason: 'I13' },
    ],
  ],
  [
    'two runs in flight, then closed',
    'closed',
    null,
    [due('r1'), due('r2'), completed('r2', 'as-2'), { type: 'monitor.close' }, due('r3')],
  ],
];

// The session machine: frames, assessments, a connected socket's drained close, the idle check and a direct close.
const sessionInput = {
  session_id: '00000000-0000-4000-8000-0000000000a1',
  inquiry_id: '00000000-0000-4000-8000-0000000000b2',
  retention_mode: 'standard' as const,
  showFindings: true,
  idleTimeoutMs: 300_000,
  drainTimeoutMs: 10_000,
  claim: null,
  openedAt: Date.parse('2025-01-01T00:00:00.000Z'),
};
const T0 = sessionInput.openedAt;
const final = (id: string) => ({ assessment: anAssessment(id), record: { inputs: { evidence: [] }, findings: { findings: [] } } });
const sessionEvaluated = (seq: number, id: string): SessionEvent => ({
  type: 'evidence.evaluated',
  seq,
  at: T0 + seq * 1000,
  presentations: [{ type: 'EMAIL', value: 'a@example.com', normalised: 'a@example.com' }],
  claim: null,
  testimony: [],
  observations: [],
  entityId: 'ent-1',
  assessment: anAssessment(id),
  record: { inputs: { evidence: [] }, findings: { findings: [] } },
  addedFindings: [],
});
const SESSION_PATHS: [string, string, SessionEvent[]][] = [
  [
    'connected, frames, a requested close drained',
    'closed',
    [
      { type: 'session.connected', at: T0 + 10 },
      sessionEvaluated(1, 'as-1'),
      { type: 'frame.noted', seq: 2, at: T0 + 2000 },
      { type: 'session.closeRequested', reason: 'done', at: T0 + 3000 },
      sessionEvaluated(3, 'as-3'),
      { type: 'session.drainExpired', at: T0 + 14_000, final: final('as-f') },
    ],
  ],
  [
    'an idle check that reschedules, then one that closes',
    'closed',
    [
      { type: 'session.idleCheck', at: T0 + 1000 },
      { type: 'session.idleCheck', at: T0 + 400_000, final: final('as-f') },
    ],
  ],
  [
    'closed at once, then ignored',
    'closed',
    [
      sessionEvaluated(1, 'as-1'),
      { type: 'session.close', reason: 'client', at: T0 + 2000, final: final('as-f') },
      sessionEvaluated(2, 'as-2'),
    ],
  ],
];

describe('pure transitions without an actor per call', () => {
  it.each(PATHS)('the inquiry machine, %s: the same steps as XState', (_name, preliminaryAllowed, events) => {
    for (let round = 0; round < 2; round += 1) {
      const { ours, theirs } = walk(inquiryMachine, { inquiry_id: ID, preliminaryAllowed }, events);
      expect(ours).toEqual(theirs);
    }
  });

  it.each(CASE_PATHS)('the case machine, %s: the same steps as XState, ending %s', (_name, end, events) => {
    for (let round = 0; round < 2; round += 1) {
      const { ours, theirs } = walk(caseMachine, { case_id: CASE, tenant_id: TENANT, mode: 'test' }, events);
      expect(ours).toEqual(theirs);
      expect(ours.at(-1)!.value).toBe(end);
    }
  });

  it.each(MONITOR_PATHS)('the monitor machine, %s: the same steps as XState, ending %s', (_name, end, caseId, events) => {
    for (let round = 0; round < 2; round += 1) {
      const { ours, theirs } = walk(monitorMachine, { monitor_id: MONITOR, tenant_id: TENANT, mode: 'test', case_id: caseId }, events);
      expect(ours).toEqual(theirs);
      expect(ours.at(-1)!.value).toBe(end);
    }
  });

  it.each(SESSION_PATHS)('the session machine, %s: the same steps as XState, ending %s', (_name, end, events) => {
    for (let round = 0; round < 2; round += 1) {
      const { ours, theirs } = walk(sessionMachine, sessionInput, events);
      expect(ours).toEqual(theirs);
      expect(ours.at(-1)!.value).toBe(end);
    }
  });

  it('a machine that invokes gets XState’s own steps (its child included)', () => {
    const invoking = createMachine({
      id: 'invoking',
      initial: 'idle',
      states: { idle: { on: { go: 'busy' } }, busy: { invoke: { id: 'work', src: fromPromise(() => Promise.resolve(1)) } } },
    });
    const { ours, theirs } = walk(invoking, undefined, [{ type: 'go' }]);
    expect(ours.map(shape)).toEqual(theirs.map(shape));
    expect(ours[1]!.children).toEqual(['work']);
  });

  it('a machine that spawns gets XState’s own steps (its child included)', () => {
    const child = createMachine({ id: 'child' });
    const spawning = setup({ actors: { child } }).createMachine({
      id: 'spawning',
      context: { n: 0 },
      initial: 'idle',
      states: { idle: { on: { go: { actions: assign(({ spawn }) => (spawn('child', { id: 'c1' }), { n: 1 })) } } } },
    });
    const { ours, theirs } = walk(spawning, undefined, [{ type: 'go' }]);
    expect(ours.map(shape)).toEqual(theirs.map(shape));
    expect(ours[1]!.children).toEqual(['c1']);
  });
});
