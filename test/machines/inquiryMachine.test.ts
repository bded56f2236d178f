import { describe, expect, it } from 'vitest';
import { initialTransition, transition } from 'xstate';
import type { OutboxJob } from '../../actors/types.js';
import type { Absence, Signal } from '../../src/checks/types.js';
import {
  INQUIRY_MACHINE_VERSION,
  inquiryMachine,
  type InquiryContext,
  type InquiryEvent,
  type InquiryStatus,
} from '../../machines/inquiryMachine.js';
import { anAssessment } from './anAssessment.js';

/**
 * Given a state and context, when an event arrives, then the next state,
 * context and the exact list of actions the runtime must carry out.
 * Every transition of the machine is here, and so is every ignored event.
 */

const ID = '00000000-0000-4000-8000-000000000001';
const signal = (kind: string): Signal => ({
  kind,
  about: 'a@example.com',
  about_type: 'EMAIL',
  disposition: 'supports',
  statement: `${kind} holds`,
  provenance_class: 'computed',
  trust_band: 'high',
  data_class: 'C0',
  observed_at: '2025-01-01T00:00:00.000Z',
});
const absence = (kind: Absence['kind'], about = 'a@example.com'): Absence => ({ about, about_type: 'EMAIL', kind, reason: `${kind}` });
const assessment = (id: string) => anAssessment(id, { score: 61, low: 50, high: 70 });
const job = (key: string): OutboxJob => ({ queue: 'checks', name: 'check.run', jobId: `${ID}.${key}`, data: { key } });

const S1 = signal('email_syntax');
const S2 = signal('domain_age');
const A1 = absence('no_data');
const T1 = absence('timeout', 'example.com');

const base: InquiryContext = {
  inquiry_id: ID,
  preliminaryAllowed: false,
  pending: [],
  signals: [],
  absences: [],
  assessmentsIssued: 0,
  latestAssessmentId: null,
};
const ctx = (over: Partial<InquiryContext> = {}): InquiryContext => ({ ...base, ...over });
const given = (value: InquiryStatus, over: Partial<InquiryContext> = {}) => inquiryMachine.resolveState({ value, context: ctx(over) });

const evaluated = (over: Partial<Extract<InquiryEvent, { type: 'inquiry.evaluated' }>> = {}): InquiryEvent => ({
  type: 'inquiry.evaluated',
  signals: [S1],
  absences: [A1],
  pending: [],
  assessment: assessment('as-1'),
  narrowEnough: false,
  deadlineMs: 3000,
  maxReasoningMs: 60_000,
  ...over,
});
const reported = (key: string, over: Partial<Extract<InquiryEvent, { type: 'check.reported' }>> = {}): InquiryEvent => ({
  type: 'check.reported',
  key,
  signals: [S2],
  absences: [],
  assessment: assessment('as-2'),
  narrowEnough: false,
  ...over,
});
const deadline = (id = 'as-3'): InquiryEvent => ({ type: 'deadline.reached', assessment: assessment(id), timeoutAbsences: [T1] });
const expired = (id = 'as-4'): InquiryEvent => ({ type: 'reasoning.expired', assessment: assessment(id), timeoutAbsences: [T1] });
const rejected: InquiryEvent = { type: 'inquiry.rejected', rule: 'I13' };

// The runtime's view of the actions: type and params, nothing else.
const plain = (actions: readonly { type: string; params?: unknown }[]) => actions.map(({ type, params }) => ({ type, params }));
const status = (s: InquiryStatus) => ({ type: 'updateInquiryStatus', params: { status: s } });
const record = (id: string, preliminary: boolean) => ({
  type: 'recordAssessment',
  params: { assessment: { ...assessment(id), preliminary }, record: null },
});
// The documented payloads (src/events/schemas.ts): the assessment nested, with the inquiry and its status; a revision names the one before.
const announce = (type: string, id: string, preliminary: boolean, previous?: string) => {
  const head = { inquiry_id: ID, status: preliminary ? 'preliminary' : 'concluded', assessment: { ...assessment(id), preliminary } };
  return {
    type: 'appendEvent',
    params: { type, payload: previous === undefined ? head : { ...head, previous_assessment_id: previous, case_id: null } },
  };
};
const concludedWith = (id: string) => ({
  type: 'appendEvent',
  params: {
    type: 'InquiryConcluded',
    payload: { inquiry_id: ID, assessment: { ...assessment(id), preliminary: false }, concluded_at: assessment(id).as_of },
  },
});

describe('inquiry machine', () => {
  it('is version 1 with id inquiry', () => {
    expect(INQUIRY_MACHINE_VERSION).toBe(1);
    expect(inquiryMachine.id).toBe('inquiry');
  });

  it('given input, when it starts, then it is accepted and says so', () => {
    const [snap, actions] = initialTransition(inquiryMachine, { inquiry_id: ID, preliminaryAllowed: true });
    expect(snap.value).toBe('accepted');
    expect(snap.context).toEqual(ctx({ preliminaryAllowed: true }));
    expect(plain(actions)).toEqual([status('accepted')]);
  });

  interface Case {
    name: string;
    given: [InquiryStatus, Partial<InquiryContext>?];
    when: InquiryEvent;
    then: { value: InquiryStatus; context: Partial<InquiryContext>; actions: object[] };
  }

  it.each<Case>([
    {
      name: 'accepted, evaluated narrow enough with checks pending: concludes at once, enqueues nothing',
      given: ['accepted'],
      when: evaluated({ narrowEnough: true, pending: [{ key: 'dns', job: job('dns') }] }),
      then: {
        value: 'concluded',
        context: { signals: [S1], absences: [A1], pending: [], assessmentsIssued: 1, latestAssessmentId: 'as-1' },
        actions: [record('as-1', false), announce('AssessmentIssued', 'as-1', false), concludedWith('as-1'), status('concluded')],
      },
    },
    {
      name: 'accepted, evaluated with nothing pending: concludes at once',
      given: ['accepted'],
      when: evaluated(),
      then: {
        value: 'concluded',
        context: { signals: [S1], absences: [A1], assessmentsIssued: 1, latestAssessmentId: 'as-1' },
        actions: [record('as-1', false), announce('AssessmentIssued', 'as-1', false), concludedWith('as-1'), status('concluded')],
      },
    },
    {
      name: 'accepted, evaluated not narrow with checks pending: reasons, enqueues each job and arms both timers',
      given: ['accepted'],
      when: evaluated({
        pending: [
          { key: 'dns', job: job('dns') },
          { key: 'rdap', job: job('rdap') },
        ],
      }),
      then: {
        value: 'reasoning',
        context: { signals: [S1], absences: [A1], pending: ['dns', 'rdap'] },
        actions: [
          { type: 'enqueueJob', params: job('dns') },
          { type: 'enqueueJob', params: job('rdap') },
          { type: 'scheduleEvent', params: { event: { type: 'deadline.reached' }, delayMs: 3000, timerId: `${ID}:deadline` } },
          { type: 'scheduleEvent', params: { event: { type: 'reasoning.expired' }, delayMs: 60_000, timerId: `${ID}:expiry` } },
          status('reasoning'),
        ],
      },
    },
    {
      name: 'accepted, rejected by a rule: rejected',
      given: ['accepted'],
      when: rejected,
      then: { value: 'rejected', context: {}, actions: [status('rejected')] },
    },
    {
      name: 'reasoning, a pending check reports and others remain: absorbs it quietly',
      given: ['reasoning', { pending: ['dns', 'rdap'], signals: [S1] }],
      when: reported('dns', { absences: [A1] }),
      then: { value: 'reasoning', context: { pending: ['rdap'], signals: [S1, S2], absences: [A1] }, actions: [] },
    },
    {
      name: 'reasoning, the last pending check reports: concludes with a final assessment',
      given: ['reasoning', { pending: ['dns'], signals: [S1] }],
      when: reported('dns'),
      then: {
        value: 'concluded',
        context: { pending: [], signals: [S1, S2], assessmentsIssued: 1, latestAssessmentId: 'as-2' },
        actions: [record('as-2', false), announce('AssessmentIssued', 'as-2', false), concludedWith('as-2'), status('concluded')],
      },
    },
    {
      name: 'reasoning, a report makes the interval narrow enough: concludes with checks still pending',
      given: ['reasoning', { pending: ['dns', 'rdap'] }],
      when: reported('dns', { narrowEnough: true }),
      then: {
        value: 'concluded',
        context: { pending: ['rdap'], signals: [S2], assessmentsIssued: 1, latestAssessmentId: 'as-2' },
        actions: [record('as-2', false), announce('AssessmentIssued', 'as-2', false), concludedWith('as-2'), status('concluded')],
      },
    },
    {
      name: 'reasoning, the deadline passes where a preliminary answer is allowed: issues a preliminary one',
      given: ['reasoning', { preliminaryAllowed: true, pending: ['dns'] }],
      when: deadline(),
      then: {
        value: 'preliminary',
        context: { preliminaryAllowed: true, pending: ['dns'], assessmentsIssued: 1, latestAssessmentId: 'as-3' },
        actions: [record('as-3', true), announce('AssessmentIssued', 'as-3', true), status('preliminary')],
      },
    },
    {
      name: 'reasoning, the deadline passes where no preliminary answer is allowed: outstanding checks time out, concludes',
      given: ['reasoning', { pending: ['dns'], absences: [A1] }],
      when: deadline(),
      then: {
        value: 'concluded',
        context: { pending: [], absences: [A1, T1], assessmentsIssued: 1, latestAssessmentId: 'as-3' },
        actions: [record('as-3', false), announce('AssessmentIssued', 'as-3', false), concludedWith('as-3'), status('concluded')],
      },
    },
    {
      name: 'reasoning, reasoning expires with nothing issued yet: concludes with its first assessment',
      given: ['reasoning', { pending: ['dns'] }],
      when: expired(),
      then: {
        value: 'concluded',
        context: { pending: [], absences: [T1], assessmentsIssued: 1, latestAssessmentId: 'as-4' },
        actions: [record('as-4', false), announce('AssessmentIssued', 'as-4', false), concludedWith('as-4'), status('concluded')],
      },
    },
    {
      name: 'reasoning, reasoning expires after an assessment was issued: the final one is a revision',
      given: ['reasoning', { pending: ['dns'], assessmentsIssued: 1, latestAssessmentId: 'as-0' }],
      when: expired(),
      then: {
        value: 'concluded',
        context: { pending: [], absences: [T1], assessmentsIssued: 2, latestAssessmentId: 'as-4' },
        actions: [record('as-4', false), announce('AssessmentRevised', 'as-4', false, 'as-0'), concludedWith('as-4'), status('concluded')],
      },
    },
    {
      name: 'preliminary, a pending check reports and others remain: revises the preliminary assessment',
      given: ['preliminary', { preliminaryAllowed: true, pending: ['dns', 'rdap'], assessmentsIssued: 1, latestAssessmentId: 'as-3' }],
      when: reported('dns'),
      then: {
        value: 'preliminary',
        context: { preliminaryAllowed: true, pending: ['rdap'], signals: [S2], assessmentsIssued: 2, latestAssessmentId: 'as-2' },
        actions: [record('as-2', true), announce('AssessmentRevised', 'as-2', true, 'as-3')],
      },
    },
    {
      name: 'preliminary, the last pending check reports: the final revision concludes it',
      given: ['preliminary', { preliminaryAllowed: true, pending: ['dns'], assessmentsIssued: 1, latestAssessmentId: 'as-3' }],
      when: reported('dns'),
      then: {
        value: 'concluded',
        context: { preliminaryAllowed: true, pending: [], signals: [S2], assessmentsIssued: 2, latestAssessmentId: 'as-2' },
        actions: [record('as-2', false), announce('AssessmentRevised', 'as-2', false, 'as-3'), concludedWith('as-2'), status('concluded')],
      },
    },
    {
      name: 'preliminary, a report makes the interval narrow enough: the final revision concludes it',
      given: ['preliminary', { preliminaryAllowed: true, pending: ['dns', 'rdap'], assessmentsIssued: 1, latestAssessmentId: 'as-3' }],
      when: reported('rdap', { narrowEnough: true }),
      then: {
        value: 'concluded',
        context: { preliminaryAllowed: true, pending: ['dns'], signals: [S2], assessmentsIssued: 2, latestAssessmentId: 'as-2' },
        actions: [record('as-2', false), announce('AssessmentRevised', 'as-2', false, 'as-3'), concludedWith('as-2'), status('concluded')],
      },
    },
    {
      name: 'preliminary, reasoning expires: outstanding checks time out, the final revision concludes it',
      given: ['preliminary', { preliminaryAllowed: true, pending: ['dns'], assessmentsIssued: 1, latestAssessmentId: 'as-3' }],
      when: expired(),
      then: {
        value: 'concluded',
        context: { preliminaryAllowed: true, pending: [], absences: [T1], assessmentsIssued: 2, latestAssessmentId: 'as-4' },
        actions: [record('as-4', false), announce('AssessmentRevised', 'as-4', false, 'as-3'), concludedWith('as-4'), status('concluded')],
      },
    },
  ])('given $given.0, when $when.type: $name', ({ given: [value, over], when, then }) => {
    const [next, actions] = transition(inquiryMachine, given(value, over), when);
    expect(next.value).toBe(then.value);
    expect(next.context).toEqual(ctx({ ...over, ...then.context }));
    expect(next.status).toBe(then.value === 'concluded' || then.value === 'rejected' ? 'done' : 'active');
    expect(plain(actions)).toEqual(then.actions);
  });

  // Events a state does not handle, reports for keys that are not pending, and anything after the end.
  it.each<{ name: string; given: [InquiryStatus, Partial<InquiryContext>?]; when: InquiryEvent }>([
    { name: 'a check report before evaluation', given: ['accepted'], when: reported('dns') },
    { name: 'a deadline before evaluation', given: ['accepted'], when: deadline() },
    { name: 'an expiry before evaluation', given: ['accepted'], when: expired() },
    { name: 'a report for a key that is not pending', given: ['reasoning', { pending: ['dns'] }], when: reported('whois') },
    { name: 'a second evaluation', given: ['reasoning', { pending: ['dns'] }], when: evaluated() },
    { name: 'a rejection once reasoning', given: ['reasoning', { pending: ['dns'] }], when: rejected },
    {
      name: 'a narrow-enough report for a key that is not pending',
      given: ['reasoning', { pending: ['dns'] }],
      when: reported('x', { narrowEnough: true }),
    },
    {
      name: 'a report for a key that is not pending',
      given: ['preliminary', { pending: ['dns'], assessmentsIssued: 1 }],
      when: reported('whois'),
    },
    { name: 'the deadline again', given: ['preliminary', { pending: ['dns'], assessmentsIssued: 1 }], when: deadline() },
    { name: 'a second evaluation', given: ['preliminary', { pending: ['dns'], assessmentsIssued: 1 }], when: evaluated() },
    { name: 'a late check report', given: ['concluded', { pending: ['dns'], assessmentsIssued: 1 }], when: reported('dns') },
    { name: 'a late deadline', given: ['concluded', { assessmentsIssued: 1 }], when: deadline() },
    { name: 'a late expiry', given: ['concluded', { assessmentsIssued: 1 }], when: expired() },
    { name: 'a new evaluation', given: ['concluded', { assessmentsIssued: 1 }], when: evaluated() },
    { name: 'an evaluation', given: ['rejected'], when: evaluated() },
    { name: 'an expiry', given: ['rejected'], when: expired() },
  ])('given $given.0, when $name arrives, then nothing changes and nothing is done', ({ given: [value, over], when }) => {
    const before = given(value, over);
    const [next, actions] = transition(inquiryMachine, before, when);
    expect(next).toBe(before);
    expect(actions).toEqual([]);
  });

  it('given reasoning, when the same check reports twice, then the duplicate is ignored', () => {
    const [afterFirst, first] = transition(inquiryMachine, given('reasoning', { pending: ['dns', 'rdap'] }), reported('dns'));
    expect(first).toEqual([]);
    const [afterSecond, second] = transition(inquiryMachine, afterFirst, reported('dns'));
    expect(afterSecond).toBe(afterFirst);
    expect(second).toEqual([]);
    expect(afterSecond.context).toEqual(ctx({ pending: ['rdap'], signals: [S2] }));
  });

  it('given a full pre_transaction run, when driven end to end, then every assessment is counted once', () => {
    let [snap] = initialTransition(inquiryMachine, { inquiry_id: ID, preliminaryAllowed: true });
    const steps: InquiryEvent[] = [
      evaluated({
        pending: [
          { key: 'dns', job: job('dns') },
          { key: 'rdap', job: job('rdap') },
        ],
      }),
      deadline('p-1'),
      reported('dns', { assessment: assessment('p-2') }),
      reported('dns', { assessment: assessment('dup') }),
      reported('rdap', { assessment: assessment('f-1') }),
    ];
    const types: string[][] = [];
    for (const event of steps) {
      const [next, actions] = transition(inquiryMachine, snap, event);
      snap = next;
      types.push(actions.map((a) => (a.type === 'appendEvent' ? `event:${(a.params as { type: string }).type}` : a.type)));
    }
    expect(snap.value).toBe('concluded');
    expect(snap.context).toMatchObject({ assessmentsIssued: 3, latestAssessmentId: 'f-1', pending: [] });
    expect(types).toEqual([
      ['enqueueJob', 'enqueueJob', 'scheduleEvent', 'scheduleEvent', 'updateInquiryStatus'],
      ['recordAssessment', 'event:AssessmentIssued', 'updateInquiryStatus'],
      ['recordAssessment', 'event:AssessmentRevised'],
      [],
      ['recordAssessment', 'event:AssessmentRevised', 'event:InquiryConcluded', 'updateInquiryStatus'],
    ]);
  });

  it('given a snapshot persisted as JSON, when restored, then it continues where it left off', () => {
    const [start] = initialTransition(inquiryMachine, { inquiry_id: ID, preliminaryAllowed: false });
    const [reasoning] = transition(inquiryMachine, start, evaluated({ pending: [{ key: 'dns', job: job('dns') }] }));
    const stored = JSON.parse(JSON.stringify(inquiryMachine.getPersistedSnapshot(reasoning)));
    const [next, actions] = transition(inquiryMachine, inquiryMachine.resolveState(stored), reported('dns'));
    expect(next.value).toBe('concluded');
    expect(plain(actions).map((a) => a.type)).toEqual(['recordAssessment', 'appendEvent', 'appendEvent', 'updateInquiryStatus']);
  });
});

describe('the ledger record travels with the assessment, not into the announced event', () => {
  it('given an evaluation carrying a record, then recordAssessment gets it and the AssessmentIssued payload does not', () => {
    const [start] = initialTransition(inquiryMachine, { inquiry_id: 'inq-r', preliminaryAllowed: false });
    const ledger = { inputs: { absences: 0 }, findings: { secret: 'kept in the ledger only' } };
    const [, actions] = transition(inquiryMachine, start, {
      type: 'inquiry.evaluated',
      signals: [],
      absences: [],
      pending: [],
      assessment: anAssessment('a-r'),
      record: ledger,
      narrowEnough: true,
      deadlineMs: 1000,
      maxReasoningMs: 5000,
    });
    const recorded = actions.find((a) => a.type === 'recordAssessment') as unknown as { params: { record: unknown } };
    const announced = actions.find((a) => a.type === 'appendEvent') as unknown as { params: { payload: Record<string, unknown> } };
    expect(recorded.params.record).toEqual(ledger);
    expect(JSON.stringify(announced.params.payload)).not.toContain('kept in the ledger only');
  });
});
