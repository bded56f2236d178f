import { describe, expect, it } from 'vitest';
import { initialTransition, transition } from 'xstate';
import type { NormalisedPresentation, Signal } from '../../src/checks/types.js';
import {
  isIdleAt,
  SESSION_MACHINE_VERSION,
  sessionMachine,
  type Final,
  type ObservationNote,
  type SessionContext,
  type SessionEvent,
  type SessionStateValue,
} from '../../machines/sessionMachine.js';
import { anAssessment } from './anAssessment.js';

/**
 * Given a state and context, when an event arrives, then the next state,
 * context and the exact actions the runtime must carry out. Every
 * transition of the session machine is here, and so is every ignored event.
 */

const ID = '00000000-0000-4000-8000-0000000000a1';
const INQ = '00000000-0000-4000-8000-0000000000b2';
const T0 = Date.parse('2025-01-01T00:00:00.000Z');
const IDLE = 300_000;
const DRAIN = 10_000;

const EMAIL: NormalisedPresentation = { type: 'EMAIL', value: 'a@example.com', normalised: 'a@example.com' };
const PHONE: NormalisedPresentation = { type: 'PHONE', value: '+44 20 7946 0958', normalised: '+442079460958' };
const TESTIMONY: Signal = {
  kind: 'session_testimony',
  about: 'a@example.com',
  about_type: 'EMAIL',
  disposition: 'neutral',
  statement: 'Testimony (frame 2).',
  provenance_class: 'tenant_supplied',
  trust_band: 'medium',
  data_class: 'C1',
  observed_at: '2025-01-01T00:00:01.000Z',
};
const NOTE: ObservationNote = {
  provenance_class: 'tenant_supplied',
  summary: 'paid late twice',
  observed_at: '2025-01-01T00:00:01.000Z',
  data_class: 'C1',
};
const assessment = (id: string) => anAssessment(id, { inquiry_id: INQ, score: 55, low: 20, high: 85 });
const record = { inputs: { evidence: [] }, findings: { findings: [] } };
const final = (id: string): Final => ({ assessment: assessment(id), record });
const finding = (id: string) => ({ finding_id: id, statement: 's' });

const base: SessionContext = {
  session_id: ID,
  inquiry_id: INQ,
  retention_mode: 'standard',
  showFindings: true,
  idleTimeoutMs: IDLE,
  drainTimeoutMs: DRAIN,
  connected: false,
  lastActivityAt: T0,
  idleChecks: 1,
  presentations: [],
  claim: null,
  testimony: [],
  pendingObservations: [],
  entityId: null,
  findingIds: [],
  framesAccepted: 0,
  assessmentsIssued: 0,
  latestAssessmentId: null,
  closeReason: null,
};
const ctx = (over: Partial<SessionContext> = {}): SessionContext => ({ ...base, ...over });
const given = (value: SessionStateValue, over: Partial<SessionContext> = {}) => sessionMachine.resolveState({ value, context: ctx(over) });

const evaluated = (over: Partial<Extract<SessionEvent, { type: 'evidence.evaluated' }>> = {}): SessionEvent => ({
  type: 'evidence.evaluated',
  seq: 1,
  at: T0 + 1000,
  presentations: [EMAIL],
  claim: null,
  testimony: [],
  observations: [],
  entityId: 'ent-1',
  assessment: assessment('as-1'),
  record,
  addedFindings: [],
  ...over,
});
const closeWith = (reason: string, id = 'as-f', at = T0 + 5000): SessionEvent => ({ type: 'session.close', reason, at, final: final(id) });

const plain = (actions: readonly { type: string; params?: unknown }[]) => actions.map(({ type, params }) => ({ type, params }));
const recorded = (id: string) => ({ type: 'recordAssessment', params: { assessment: assessment(id), record } });
const appended = (type: string, payload: Record<string, unknown>) => ({ type: 'appendEvent', params: { type, payload } });
const status = (state: SessionStateValue, reason: string | null) => ({ type: 'updateSessionStatus', params: { state, reason } });
const idleTimer = (n: number, delayMs: number) => ({
  type: 'scheduleEvent',
  params: { event: { type: 'session.idleCheck' }, delayMs, timerId: `${ID}.idle.${n}` },
});
const closed = (reason: string, id: string, over: Record<string, unknown> = {}) =>
  appended('session.closed', {
    session_id: ID,
    inquiry_id: INQ,
    reason,
    retention_mode: 'standard',
    assessment: assessment(id),
    previous_assessment_id: null,
    frames_accepted: 0,
    closed_at: new Date(T0 + 5000).toISOString(),
    ...over,
  });
// What `closed` keeps: counters and ids; the working state is dropped (retention).
const forgotten = { presentations: [], claim: null, testimony: [], pendingObservations: [], findingIds: [], connected: false };

describe('session machine', () => {
  it('is version 1 with id session', () => {
    expect(SESSION_MACHINE_VERSION).toBe(1);
    expect(sessionMachine.id).toBe('session');
  });

  it('given input, when it starts, then it is open and arms its first idle check', () => {
    const [snap, actions] = initialTransition(sessionMachine, {
      session_id: ID,
      inquiry_id: INQ,
      retention_mode: 'standard',
      showFindings: true,
      idleTimeoutMs: IDLE,
      drainTimeoutMs: DRAIN,
      claim: { country: 'GB' },
      openedAt: T0,
    });
    expect(snap.value).toBe('open');
    expect(snap.context).toEqual(ctx({ claim: { country: 'GB' } }));
    expect(plain(actions)).toEqual([idleTimer(1, IDLE)]);
  });

  interface Case {
    name: string;
    given: [SessionStateValue, Partial<SessionContext>?];
    when: SessionEvent;
    then: { value: SessionStateValue; context: Partial<SessionContext>; actions: object[] };
  }

  it.each<Case>([
    {
      name: 'the socket attaches: connected, and that counts as activity',
      given: ['open'],
      when: { type: 'session.connected', at: T0 + 500 },
      then: { value: 'open', context: { connected: true, lastActivityAt: T0 + 500 }, actions: [] },
    },
    {
      name: 'the first evidence: assessment.issued, its ledger row and its findings',
      given: ['open'],
      when: evaluated({ addedFindings: [finding('f1'), finding('f2')] }),
      then: {
        value: 'open',
        context: {
          presentations: [EMAIL],
          entityId: 'ent-1',
          findingIds: ['f1', 'f2'],
          framesAccepted: 1,
          lastActivityAt: T0 + 1000,
          assessmentsIssued: 1,
          latestAssessmentId: 'as-1',
        },
        actions: [
          recorded('as-1'),
          appended('assessment.issued', { session_id: ID, inquiry_id: INQ, frame_seq: 1, assessment: assessment('as-1') }),
          appended('findings.added', {
            session_id: ID,
            inquiry_id: INQ,
            frame_seq: 1,
            assessment_id: 'as-1',
            findings: [finding('f1'), finding('f2')],
          }),
        ],
      },
    },
    {
      name: 'evidence given when the session opened (seq 0): issued, but not counted as a frame',
      given: ['open'],
      when: evaluated({ seq: 0, at: T0 }),
      then: {
        value: 'open',
        context: { presentations: [EMAIL], entityId: 'ent-1', assessmentsIssued: 1, latestAssessmentId: 'as-1' },
        actions: [
          recorded('as-1'),
          appended('assessment.issued', { session_id: ID, inquiry_id: INQ, frame_seq: 0, assessment: assessment('as-1') }),
        ],
      },
    },
    {
      name: 'later evidence: assessment.revised naming the one it revises; no new findings, no findings event',
      given: ['open', { presentations: [EMAIL], assessmentsIssued: 1, latestAssessmentId: 'as-1', framesAccepted: 1, findingIds: ['f1'] }],
      when: evaluated({ seq: 2, presentations: [EMAIL, PHONE], assessment: assessment('as-2') }),
      then: {
        value: 'open',
        context: {
          presentations: [EMAIL, PHONE],
          entityId: 'ent-1',
          findingIds: ['f1'],
          framesAccepted: 2,
          lastActivityAt: T0 + 1000,
          assessmentsIssued: 2,
          latestAssessmentId: 'as-2',
        },
        actions: [
          recorded('as-2'),
          appended('assessment.revised', {
            session_id: ID,
            inquiry_id: INQ,
            frame_seq: 2,
            assessment: assessment('as-2'),
            previous_assessment_id: 'as-1',
          }),
        ],
      },
    },
    {
      name: 'findings hidden from this key or policy: the assessment is announced, the findings are not',
      given: ['open', { showFindings: false }],
      when: evaluated({ addedFindings: [finding('f1')] }),
      then: {
        value: 'open',
        context: {
          showFindings: false,
          presentations: [EMAIL],
          entityId: 'ent-1',
          findingIds: ['f1'],
          framesAccepted: 1,
          lastActivityAt: T0 + 1000,
          assessmentsIssued: 1,
          latestAssessmentId: 'as-1',
        },
        actions: [
          recorded('as-1'),
          appended('assessment.issued', { session_id: ID, inquiry_id: INQ, frame_seq: 1, assessment: assessment('as-1') }),
        ],
      },
    },
    {
      name: 'testimony in a standard session: kept as a signal, and its note kept for the close',
      given: ['open'],
      when: evaluated({ presentations: [], entityId: null, testimony: [TESTIMONY], observations: [NOTE] }),
      then: {
        value: 'open',
        context: {
          testimony: [TESTIMONY],
          pendingObservations: [NOTE],
          framesAccepted: 1,
          lastActivityAt: T0 + 1000,
          assessmentsIssued: 1,
          latestAssessmentId: 'as-1',
        },
        actions: [
          recorded('as-1'),
          appended('assessment.issued', { session_id: ID, inquiry_id: INQ, frame_seq: 1, assessment: assessment('as-1') }),
        ],
      },
    },
    {
      name: 'more testimony: the event carries the whole evidence, which replaces the old (never appended twice)',
      given: [
        'open',
        { testimony: [TESTIMONY], pendingObservations: [NOTE], assessmentsIssued: 1, latestAssessmentId: 'as-1', framesAccepted: 1 },
      ],
      when: evaluated({
        seq: 2,
        presentations: [],
        entityId: null,
        testimony: [TESTIMONY, { ...TESTIMONY, statement: 'Testimony (frame 3).' }],
        observations: [NOTE],
        assessment: assessment('as-2'),
      }),
      then: {
        value: 'open',
        context: {
          testimony: [TESTIMONY, { ...TESTIMONY, statement: 'Testimony (frame 3).' }],
          pendingObservations: [NOTE, NOTE],
          framesAccepted: 2,
          lastActivityAt: T0 + 1000,
          assessmentsIssued: 2,
          latestAssessmentId: 'as-2',
        },
        actions: [
          recorded('as-2'),
          appended('assessment.revised', {
            session_id: ID,
            inquiry_id: INQ,
            frame_seq: 2,
            assessment: assessment('as-2'),
            previous_assessment_id: 'as-1',
          }),
        ],
      },
    },
    {
      name: 'testimony in a transient session: the signal counts, no note is ever kept (D35)',
      given: ['open', { retention_mode: 'transient' }],
      when: evaluated({ presentations: [], entityId: null, testimony: [TESTIMONY], observations: [NOTE] }),
      then: {
        value: 'open',
        context: {
          retention_mode: 'transient',
          testimony: [TESTIMONY],
          framesAccepted: 1,
          lastActivityAt: T0 + 1000,
          assessmentsIssued: 1,
          latestAssessmentId: 'as-1',
        },
        actions: [
          recorded('as-1'),
          appended('assessment.issued', { session_id: ID, inquiry_id: INQ, frame_seq: 1, assessment: assessment('as-1') }),
        ],
      },
    },
    {
      name: 'a frame that adds nothing: counted as activity, nothing recorded',
      given: ['open', { framesAccepted: 3 }],
      when: { type: 'frame.noted', seq: 4, at: T0 + 2000 },
      then: { value: 'open', context: { framesAccepted: 4, lastActivityAt: T0 + 2000 }, actions: [] },
    },
    {
      name: 'a close frame: the final assessment, the testimony recorded as observations, session.closed',
      given: [
        'open',
        {
          connected: true,
          presentations: [EMAIL],
          testimony: [TESTIMONY],
          pendingObservations: [NOTE],
          entityId: 'ent-1',
          assessmentsIssued: 1,
          latestAssessmentId: 'as-1',
          framesAccepted: 2,
          findingIds: ['f1'],
        },
      ],
      when: closeWith('ended'),
      then: {
        value: 'closed',
        context: {
          ...forgotten,
          entityId: 'ent-1',
          framesAccepted: 2,
          closeReason: 'ended',
          assessmentsIssued: 2,
          latestAssessmentId: 'as-f',
        },
        actions: [
          recorded('as-f'),
          { type: 'recordObservations', params: { entityId: 'ent-1', sessionId: ID, observations: [NOTE] } },
          closed('ended', 'as-f', { previous_assessment_id: 'as-1', frames_accepted: 2 }),
          status('closed', 'ended'),
        ],
      },
    },
    {
      name: 'a REST close with no socket attached: concludes at once',
      given: ['open'],
      when: { type: 'session.closeRequested', reason: 'done', at: T0 + 5000, final: final('as-f') },
      then: {
        value: 'closed',
        context: { ...forgotten, closeReason: 'done', assessmentsIssued: 1, latestAssessmentId: 'as-f' },
        actions: [recorded('as-f'), closed('done', 'as-f'), status('closed', 'done')],
      },
    },
    {
      name: 'a REST close with a socket attached: closing, announced, with a drain deadline',
      given: ['open', { connected: true }],
      when: { type: 'session.closeRequested', reason: 'done', at: T0 + 5000 },
      then: {
        value: 'closing',
        context: { connected: true, closeReason: 'done' },
        actions: [
          appended('session.closing', { session_id: ID, reason: 'done' }),
          { type: 'scheduleEvent', params: { event: { type: 'session.drainExpired' }, delayMs: DRAIN, timerId: `${ID}.drain` } },
          status('closing', 'done'),
        ],
      },
    },
    {
      name: 'closing, a frame received before the close still counts',
      given: ['closing', { connected: true, closeReason: 'done' }],
      when: evaluated(),
      then: {
        value: 'closing',
        context: {
          connected: true,
          closeReason: 'done',
          presentations: [EMAIL],
          entityId: 'ent-1',
          framesAccepted: 1,
          lastActivityAt: T0 + 1000,
          assessmentsIssued: 1,
          latestAssessmentId: 'as-1',
        },
        actions: [
          recorded('as-1'),
          appended('assessment.issued', { session_id: ID, inquiry_id: INQ, frame_seq: 1, assessment: assessment('as-1') }),
        ],
      },
    },
    {
      name: 'closing, the socket drained and concludes: closed with the REST reason',
      given: ['closing', { connected: true, closeReason: 'done' }],
      when: closeWith('ended'),
      then: {
        value: 'closed',
        context: { ...forgotten, closeReason: 'done', assessmentsIssued: 1, latestAssessmentId: 'as-f' },
        actions: [recorded('as-f'), closed('done', 'as-f'), status('closed', 'done')],
      },
    },
    {
      name: 'closing, the drain expires (the socket process died): closed without it',
      given: ['closing', { connected: true, closeReason: 'done' }],
      when: { type: 'session.drainExpired', at: T0 + 5000, final: final('as-f') },
      then: {
        value: 'closed',
        context: { ...forgotten, closeReason: 'done', assessmentsIssued: 1, latestAssessmentId: 'as-f' },
        actions: [recorded('as-f'), closed('done', 'as-f'), status('closed', 'done')],
      },
    },
    {
      name: 'an idle check after a whole idle period without frames: closed as idle',
      given: ['open', { lastActivityAt: T0 }],
      when: { type: 'session.idleCheck', at: T0 + IDLE, final: final('as-f') },
      then: {
        value: 'closed',
        context: { ...forgotten, closeReason: 'idle', assessmentsIssued: 1, latestAssessmentId: 'as-f' },
        actions: [recorded('as-f'), closed('idle', 'as-f', { closed_at: new Date(T0 + IDLE).toISOString() }), status('closed', 'idle')],
      },
    },
    {
      name: 'an idle check while frames keep coming: the next check is due an idle period after the last frame',
      given: ['open', { lastActivityAt: T0 + 100_000, idleChecks: 1 }],
      when: { type: 'session.idleCheck', at: T0 + IDLE },
      then: { value: 'open', context: { lastActivityAt: T0 + 100_000, idleChecks: 2 }, actions: [idleTimer(2, 100_000)] },
    },
  ])('given $given.0, when $when.type: $name', ({ given: [value, over], when, then }) => {
    const [next, actions] = transition(sessionMachine, given(value, over), when);
    expect(next.value).toBe(then.value);
    expect(next.context).toEqual(ctx({ ...over, ...then.context }));
    expect(next.status).toBe(then.value === 'closed' ? 'done' : 'active');
    expect(plain(actions)).toEqual(then.actions);
  });

  it.each<{ name: string; given: [SessionStateValue, Partial<SessionContext>?]; when: SessionEvent }>([
    {
      name: 'a second REST close while closing',
      given: ['closing', { connected: true, closeReason: 'done' }],
      when: { type: 'session.closeRequested', reason: 'again', at: T0 },
    },
    {
      name: 'an idle check while closing',
      given: ['closing', { connected: true }],
      when: { type: 'session.idleCheck', at: T0 + IDLE, final: final('x') },
    },
    { name: 'a drain expiry while open', given: ['open'], when: { type: 'session.drainExpired', at: T0, final: final('x') } },
    { name: 'a late frame', given: ['closed', { assessmentsIssued: 1 }], when: evaluated() },
    { name: 'a late close', given: ['closed', { assessmentsIssued: 1 }], when: closeWith('again') },
    { name: 'a late idle check', given: ['closed'], when: { type: 'session.idleCheck', at: T0 + IDLE, final: final('x') } },
    { name: 'a late drain expiry', given: ['closed'], when: { type: 'session.drainExpired', at: T0, final: final('x') } },
    { name: 'a connection after the close', given: ['closed'], when: { type: 'session.connected', at: T0 } },
  ])('given $given.0, when $name arrives, then nothing changes and nothing is done', ({ given: [value, over], when }) => {
    const before = given(value, over);
    const [next, actions] = transition(sessionMachine, before, when);
    expect(next).toBe(before);
    expect(actions).toEqual([]);
  });

  it('isIdleAt: idle exactly one idle period after the last activity, not a millisecond before', () => {
    expect(isIdleAt({ lastActivityAt: T0, idleTimeoutMs: IDLE }, T0 + IDLE - 1)).toBe(false);
    expect(isIdleAt({ lastActivityAt: T0, idleTimeoutMs: IDLE }, T0 + IDLE)).toBe(true);
  });

  it('given an idle check soon after a frame, when rescheduled, then it never fires sooner than a second', () => {
    const [, actions] = transition(sessionMachine, given('open', { lastActivityAt: T0 }), { type: 'session.idleCheck', at: T0 + IDLE - 5 });
    expect(plain(actions)).toEqual([idleTimer(2, 1000)]);
  });

  it('given a snapshot persisted as JSON, when restored, then it continues where it left off', () => {
    const [start] = initialTransition(sessionMachine, {
      session_id: ID,
      inquiry_id: INQ,
      retention_mode: 'transient',
      showFindings: true,
      idleTimeoutMs: IDLE,
      drainTimeoutMs: DRAIN,
      claim: null,
      openedAt: T0,
    });
    const [withEvidence] = transition(sessionMachine, start, evaluated());
    const restored = sessionMachine.resolveState(JSON.parse(JSON.stringify(sessionMachine.getPersistedSnapshot(withEvidence))));
    const [next, actions] = transition(
      sessionMachine,
      restored,
      evaluated({ seq: 2, presentations: [EMAIL, PHONE], assessment: assessment('as-2') }),
    );
    expect(next.context).toMatchObject({
      presentations: [EMAIL, PHONE],
      assessmentsIssued: 2,
      latestAssessmentId: 'as-2',
      framesAccepted: 2,
    });
    expect(actions.map((a) => (a.type === 'appendEvent' ? (a.params as { type: string }).type : a.type))).toEqual([
      'recordAssessment',
      'assessment.revised',
    ]);
  });
});
