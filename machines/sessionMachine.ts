import { setup } from 'xstate';
import type { Assessment, AssessmentRecord, NormalisedPresentation, Signal, SubjectClaim } from './types.js';

/**
 * The session machine (DESIGN.md 2.8 "Sessions"): a live intake over one
 * WebSocket. Like the inquiry machine it decides and never computes: every
 * assessment arrives inside an event, already scored by the caller under the
 * actor's row lock, and the machine says what is recorded and announced.
 *
 * States:
 * - `open` (initial): frames are being taken. Each frame that adds evidence
 *   arrives as `evidence.evaluated` and issues an assessment (the first is
 *   `assessment.issued`, later ones `assessment.revised`; new findings are
 *   announced as `findings.added`); a frame that adds nothing is
 *   `frame.noted`. A durable idle check (`session.idleCheck`) fires once per
 *   idle period and closes the session when no frame came in for that long.
 * - `closing`: a close was asked for over REST while a socket is attached.
 *   The socket drains the frames it already received (they still count),
 *   then concludes with `session.close`; `session.drainExpired` concludes
 *   without it if the socket's process died meanwhile.
 * - `closed` (final): the final assessment is in the ledger and announced in
 *   `session.closed`; the retention mode was applied: a standard session's
 *   testimony became observations about the entity, and the working state
 *   (presentations, testimony) is dropped from the snapshot either way. A
 *   transient session never held anything raw to begin with (rule D35): the
 *   caller derives every value before it reaches this machine.
 *
 * Events for a state that does not handle them are ignored, so a late timer
 * or a close racing another close is harmless.
 *
 * Actions the runtime carries out (see actors/types.ts): `recordAssessment`,
 * `recordObservations`, `updateSessionStatus`, `appendEvent`, `scheduleEvent`.
 */
export const SESSION_MACHINE_VERSION = 1;

export type SessionStateValue = 'open' | 'closing' | 'closed';
export type RetentionMode = 'standard' | 'transient';

/** A finding as announced; only its id matters to the machine. */
export type FindingBody = Record<string, unknown> & { finding_id: string };

/**
 * The machine's own actions carried out in the command's transaction, by
 * name, with their params: `recordAssessment` is the inquiry's (a session's
 * assessments are its inquiry's ledger entries), the rest src/sessions/effects.ts.
 */
export interface SessionEffectParams {
  recordAssessment: { assessment: Assessment; record: AssessmentRecord };
  recordObservations: { entityId: string | null; sessionId: string; observations: ObservationNote[] };
  updateSessionStatus: { state: SessionStateValue; reason: string | null };
}

/** Testimony as given, kept until close in standard sessions only (transient ones never hold it). */
export interface ObservationNote {
  provenance_class: string;
  summary: string;
  observed_at: string;
  data_class: string;
  consent_ref?: string;
  case_id?: string;
}

export interface Final {
  assessment: Assessment;
  record: AssessmentRecord;
}

export interface SessionInput {
  session_id: string;
  inquiry_id: string;
  retention_mode: RetentionMode;
  showFindings: boolean;
  idleTimeoutMs: number;
  drainTimeoutMs: number;
  claim: SubjectClaim | null;
  openedAt: number;
}

export interface SessionContext {
  session_id: string;
  inquiry_id: string;
  retention_mode: RetentionMode;
  showFindings: boolean;
  idleTimeoutMs: number;
  drainTimeoutMs: number;
  connected: boolean;
  /** Epoch ms of the last accepted frame (or the opening, or the connection). */
  lastActivityAt: number;
  /** Idle checks scheduled so far; numbers each timer id. */
  idleChecks: number;
  presentations: NormalisedPresentation[];
  claim: SubjectClaim | null;
  testimony: Signal[];
  pendingObservations: ObservationNote[];
  entityId: string | null;
  findingIds: string[];
  framesAccepted: number;
  assessmentsIssued: number;
  latestAssessmentId: string | null;
  closeReason: string | null;
}

export type SessionEvent =
  | {
      type: 'evidence.evaluated';
      /** The frame's position on the socket; 0 for the subject given when the session was opened. */
      seq: number;
      at: number;
      /** The session's whole evidence after this frame (presentations, claim, testimony), not a delta. */
      presentations: NormalisedPresentation[];
      claim: SubjectClaim | null;
      testimony: Signal[];
      /** Only the notes this frame added (kept until close by standard sessions). */
      observations: ObservationNote[];
      entityId: string | null;
      assessment: Assessment;
      record: AssessmentRecord;
      addedFindings: FindingBody[];
    }
  | { type: 'frame.noted'; seq: number; at: number }
  | { type: 'session.connected'; at: number }
  /** `final` is computed only when no socket is attached (otherwise the socket drains, then concludes). */
  | { type: 'session.closeRequested'; reason: string; at: number; final?: Final }
  | { type: 'session.close'; reason: string; at: number; final: Final }
  | { type: 'session.idleCheck'; at: number; final?: Final }
  | { type: 'session.drainExpired'; at: number; final: Final };

/** Whether nothing came in for a whole idle period by `at`; the caller asks it too, to compute a final only when needed. */
export function isIdleAt(context: Pick<SessionContext, 'lastActivityAt' | 'idleTimeoutMs'>, at: number): boolean {
  return at - context.lastActivityAt >= context.idleTimeoutMs;
}

// A rescheduled idle check never fires sooner than this: timers are durable jobs, not free.
const MIN_IDLE_CHECK_MS = 1000;

const iso = (at: number) => new Date(at).toISOString();

const base = setup({
  types: {
    context: {} as SessionContext,
    events: {} as SessionEvent,
    input: {} as SessionInput,
  },
  actions: {
    // Carried out by the runtime; declared here only so their params are typed.
    recordAssessment: (_, _params: SessionEffectParams['recordAssessment']) => {},
    recordObservations: (_, _params: SessionEffectParams['recordObservations']) => {},
    updateSessionStatus: (_, _params: SessionEffectParams['updateSessionStatus']) => {},
    appendEvent: (_, _params: { type: string; payload: Record<string, unknown> }) => {},
    scheduleEvent: (_, _params: { event: { type: string }; delayMs: number; timerId: string }) => {},
  },
  guards: {
    isConnected: ({ context }) => context.connected,
    isIdle: ({ context, event }) => event.type === 'session.idleCheck' && event.final !== undefined && isIdleAt(context, event.at),
  },
});

function idleCheck(context: SessionContext, delayMs: number) {
  const n = context.idleChecks + 1;
  return {
    assign: { idleChecks: n },
    timer: {
      type: 'scheduleEvent' as const,
      params: {
        event: { type: 'session.idleCheck' },
        delayMs: Math.max(MIN_IDLE_CHECK_MS, delayMs),
        timerId: `${context.session_id}.idle.${n}`,
      },
    },
  };
}

export const sessionMachine = base
  .extend({
    actions: {
      scheduleFirstIdleCheck: base.enqueueActions(({ context, enqueue }) => {
        const next = idleCheck(context, context.idleTimeoutMs);
        enqueue.assign(next.assign);
        enqueue(next.timer);
      }),
      rescheduleIdleCheck: base.enqueueActions(({ context, event, enqueue }) => {
        if (event.type !== 'session.idleCheck') return;
        const next = idleCheck(context, context.lastActivityAt + context.idleTimeoutMs - event.at);
        enqueue.assign(next.assign);
        enqueue(next.timer);
      }),
      markConnected: base.assign(({ context, event }) =>
        event.type === 'session.connected' ? { connected: true, lastActivityAt: event.at } : context,
      ),
      noteFrame: base.assign(({ context, event }) =>
        event.type === 'frame.noted'
          ? { framesAccepted: context.framesAccepted + 1, lastActivityAt: Math.max(context.lastActivityAt, event.at) }
          : context,
      ),
      /** Absorbs the evidence and issues its assessment: ledger row, announcement, new findings. */
      issueAssessment: base.enqueueActions(({ context, event, enqueue }) => {
        if (event.type !== 'evidence.evaluated') return;
        const first = context.assessmentsIssued === 0;
        enqueue.assign({
          presentations: event.presentations,
          claim: event.claim,
          testimony: event.testimony,
          pendingObservations: context.retention_mode === 'standard' ? [...context.pendingObservations, ...event.observations] : [],
          entityId: event.entityId,
          findingIds: [...context.findingIds, ...event.addedFindings.map((f) => f.finding_id)],
          framesAccepted: context.framesAccepted + (event.seq > 0 ? 1 : 0),
          lastActivityAt: Math.max(context.lastActivityAt, event.at),
          assessmentsIssued: context.assessmentsIssued + 1,
          latestAssessmentId: event.assessment.assessment_id,
        });
        enqueue({ type: 'recordAssessment', params: { assessment: event.assessment, record: event.record } });
        const ids = { session_id: context.session_id, inquiry_id: context.inquiry_id, frame_seq: event.seq };
        enqueue({
          type: 'appendEvent',
          params: first
            ? { type: 'assessment.issued', payload: { ...ids, assessment: event.assessment } }
            : {
                type: 'assessment.revised',
                payload: { ...ids, assessment: event.assessment, previous_assessment_id: context.latestAssessmentId },
              },
        });
        if (context.showFindings && event.addedFindings.length > 0) {
          enqueue({
            type: 'appendEvent',
            params: {
              type: 'findings.added',
              payload: { ...ids, assessment_id: event.assessment.assessment_id, findings: event.addedFindings },
            },
          });
        }
      }),
      beginClosing: base.enqueueActions(({ context, event, enqueue }) => {
        if (event.type !== 'session.closeRequested') return;
        enqueue.assign({ closeReason: event.reason });
        enqueue({
          type: 'appendEvent',
          params: { type: 'session.closing', payload: { session_id: context.session_id, reason: event.reason } },
        });
        enqueue({
          type: 'scheduleEvent',
          params: { event: { type: 'session.drainExpired' }, delayMs: context.drainTimeoutMs, timerId: `${context.session_id}.drain` },
        });
        enqueue({ type: 'updateSessionStatus', params: { state: 'closing', reason: event.reason } });
      }),
      /** The final assessment, the retention step, and `session.closed`. */
      conclude: base.enqueueActions(({ context, event, enqueue }) => {
        if (!('final' in event) || event.final === undefined) return;
        const reason = context.closeReason ?? (event.type === 'session.idleCheck' ? 'idle' : 'reason' in event ? event.reason : 'ended');
        const { assessment, record } = event.final;
        enqueue({ type: 'recordAssessment', params: { assessment, record } });
        if (context.retention_mode === 'standard' && context.pendingObservations.length > 0) {
          enqueue({
            type: 'recordObservations',
            params: { entityId: context.entityId, sessionId: context.session_id, observations: context.pendingObservations },
          });
        }
        enqueue({
          type: 'appendEvent',
          params: {
            type: 'session.closed',
            payload: {
              session_id: context.session_id,
              inquiry_id: context.inquiry_id,
              reason,
              retention_mode: context.retention_mode,
              assessment,
              previous_assessment_id: context.latestAssessmentId,
              frames_accepted: context.framesAccepted,
              closed_at: iso(event.at),
            },
          },
        });
        enqueue({ type: 'updateSessionStatus', params: { state: 'closed', reason } });
        // Retention: the snapshot of a closed session keeps counters and ids only; the evidence lives in the ledger.
        enqueue.assign({
          closeReason: reason,
          connected: false,
          assessmentsIssued: context.assessmentsIssued + 1,
          latestAssessmentId: assessment.assessment_id,
          presentations: [],
          claim: null,
          testimony: [],
          pendingObservations: [],
          findingIds: [],
        });
      }),
    },
  })
  .createMachine({
    id: 'session',
    initial: 'open',
    context: ({ input }) => ({
      session_id: input.session_id,
      inquiry_id: input.inquiry_id,
      retention_mode: input.retention_mode,
      showFindings: input.showFindings,
      idleTimeoutMs: input.idleTimeoutMs,
      drainTimeoutMs: input.drainTimeoutMs,
      connected: false,
      lastActivityAt: input.openedAt,
      idleChecks: 0,
      presentations: [],
      claim: input.claim,
      testimony: [],
      pendingObservations: [],
      entityId: null,
      findingIds: [],
      framesAccepted: 0,
      assessmentsIssued: 0,
      latestAssessmentId: null,
      closeReason: null,
    }),
    states: {
      open: {
        entry: 'scheduleFirstIdleCheck',
        on: {
          'session.connected': { actions: 'markConnected' },
          'evidence.evaluated': { actions: 'issueAssessment' },
          'frame.noted': { actions: 'noteFrame' },
          'session.closeRequested': [
            { guard: 'isConnected', target: 'closing', actions: 'beginClosing' },
            { target: 'closed', actions: 'conclude' },
          ],
          'session.close': { target: 'closed', actions: 'conclude' },
          'session.idleCheck': [{ guard: 'isIdle', target: 'closed', actions: 'conclude' }, { actions: 'rescheduleIdleCheck' }],
        },
      },
      closing: {
        on: {
          // Frames received before the close still count: the socket drains them first.
          'evidence.evaluated': { actions: 'issueAssessment' },
          'frame.noted': { actions: 'noteFrame' },
          'session.close': { target: 'closed', actions: 'conclude' },
          'session.drainExpired': { target: 'closed', actions: 'conclude' },
        },
      },
      closed: { type: 'final' },
    },
  });
