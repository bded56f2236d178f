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
import { anAssessment } from '../machines/anAssessment.js';
import type { Signal } from '../../src/checks/types.js';

/**
 * actors/pureTransition.ts computes the same steps as XState's own pure
 * functions, with one inert scope per machine instead of an actor per call:
 * same state, context, status and actions (type and params) on every path of
 * the inquiry machine, twice in a row (nothing leaks from one call into the
 * next), and XState's own answer for a machine that invokes or spawns.
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

describe('pure transitions without an actor per call', () => {
  it.each(PATHS)('the inquiry machine, %s: the same steps as XState', (_name, preliminaryAllowed, events) => {
    for (let round = 0; round < 2; round += 1) {
      const { ours, theirs } = walk(inquiryMachine, { inquiry_id: ID, preliminaryAllowed }, events);
      expect(ours).toEqual(theirs);
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
