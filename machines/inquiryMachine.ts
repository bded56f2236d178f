import { and, setup } from 'xstate';
import type { Absence, Assessment, AssessmentRecord, OutboxJob, Signal } from './types.js';

/**
 * The inquiry machine (DESIGN.md 2.4). It decides, it never computes: every
 * assessment arrives inside an event, already scored by the caller, and the
 * machine only says which one is issued, when, and what is announced.
 *
 * States:
 * - `accepted` (initial): the request passed validation; the caller runs the
 *   inline checks and sends `inquiry.evaluated`, or `inquiry.rejected` when a
 *   rule refuses it.
 * - `reasoning`: worker checks are outstanding (`pending`). Their results come
 *   back as `check.reported`; the inquiry concludes as soon as the stopping rule
 *   is met (`narrowEnough`) or nothing is pending. Two timers run: the caller's
 *   deadline (`deadline.reached`) and the hard ceiling on reasoning
 *   (`reasoning.expired`).
 * - `preliminary`: the deadline passed on an intent that allows a preliminary
 *   answer (pre_transaction). One has been issued; every later report revises it
 *   (a new ledger row, `AssessmentRevised`) until the rule is met or the ceiling
 *   expires.
 * - `concluded` (final): the last assessment is final; `InquiryConcluded` was announced.
 * - `rejected` (final): refused before any check ran.
 *
 * Outstanding checks at a deadline or expiry become the caller's
 * `timeoutAbsences`. Reports for keys that are not pending (duplicates, late
 * arrivals after a conclusion) are ignored, so a job that runs twice is harmless.
 *
 * Actions the runtime carries out (see actors/types.ts): `updateInquiryStatus`,
 * `recordAssessment`, `appendEvent`, `enqueueJob`, `scheduleEvent`.
 */
export const INQUIRY_MACHINE_VERSION = 1;

export type InquiryStatus = 'accepted' | 'reasoning' | 'preliminary' | 'concluded' | 'rejected';

/**
 * The machine's own actions that the capability carries out in the command's
 * transaction (src/inquiries/effects.ts), by name, with their params. The
 * effect table is typed by it, so a misspelt or missing effect fails `tsc`.
 */
export interface InquiryEffectParams {
  updateInquiryStatus: { status: InquiryStatus };
  recordAssessment: { assessment: Assessment; record: AssessmentRecord | null };
}

export interface PendingCheck {
  /** Stable key of one worker check of this inquiry (what `check.reported` names). */
  key: string;
  job: OutboxJob;
}

export interface InquiryInput {
  inquiry_id: string;
  preliminaryAllowed: boolean;
}

export interface InquiryContext {
  inquiry_id: string;
  preliminaryAllowed: boolean;
  /** Keys of worker checks still outstanding. */
  pending: string[];
  signals: Signal[];
  absences: Absence[];
  assessmentsIssued: number;
  latestAssessmentId: string | null;
}

export type InquiryEvent =
  | {
      type: 'inquiry.evaluated';
      signals: Signal[];
      absences: Absence[];
      pending: PendingCheck[];
      assessment: Assessment;
      record?: AssessmentRecord;
      narrowEnough: boolean;
      deadlineMs: number;
      maxReasoningMs: number;
    }
  | { type: 'inquiry.rejected'; rule: string }
  | {
      type: 'check.reported';
      key: string;
      signals: Signal[];
      absences: Absence[];
      assessment: Assessment;
      record?: AssessmentRecord;
      narrowEnough: boolean;
    }
  | { type: 'deadline.reached'; assessment: Assessment; record?: AssessmentRecord; timeoutAbsences: Absence[] }
  | { type: 'reasoning.expired'; assessment: Assessment; record?: AssessmentRecord; timeoutAbsences: Absence[] };

type IssueKind = 'AssessmentIssued' | 'AssessmentRevised';
interface IssueParams {
  preliminary: boolean;
  announce: IssueKind;
}

function assessmentOf(event: InquiryEvent): Assessment {
  // Only reachable through a transition wired to an event without an assessment: a bug in this file.
  if (!('assessment' in event)) throw new Error(`inquiry machine: ${event.type} carries no assessment`);
  return event.assessment;
}

const status = (s: InquiryStatus) => ({ type: 'updateInquiryStatus' as const, params: { status: s } });

// The ceiling on reasoning ends the inquiry from either open state with what is known by then.
const expire = [
  { guard: 'hasIssuedAssessment', target: 'concluded', actions: ['absorbTimeouts', 'reviseToFinalAssessment', 'announceConclusion'] },
  { target: 'concluded', actions: ['absorbTimeouts', 'issueFinalAssessment', 'announceConclusion'] },
] as const;

// Two stages so the composite actions below can enqueue the runtime actions by name, typed.
const runtimeSetup = setup({
  types: {
    context: {} as InquiryContext,
    events: {} as InquiryEvent,
    input: {} as InquiryInput,
  },
  actions: {
    // Carried out by the runtime; declared here only so their params are typed.
    updateInquiryStatus: (_, _params: InquiryEffectParams['updateInquiryStatus']) => {},
    recordAssessment: (_, _params: InquiryEffectParams['recordAssessment']) => {},
    appendEvent: (_, _params: { type: string; payload: Record<string, unknown> }) => {},
    enqueueJob: (_, _params: OutboxJob) => {},
    scheduleEvent: (_, _params: { event: { type: string }; delayMs: number; timerId: string }) => {},
  },
  guards: {
    isSettledEvaluation: ({ event }) => event.type === 'inquiry.evaluated' && (event.narrowEnough || event.pending.length === 0),
    isPendingReport: ({ context, event }) => event.type === 'check.reported' && context.pending.includes(event.key),
    isSettlingReport: ({ context, event }) =>
      event.type === 'check.reported' && (event.narrowEnough || context.pending.every((k) => k === event.key)),
    isPreliminaryAllowed: ({ context }) => context.preliminaryAllowed,
    hasIssuedAssessment: ({ context }) => context.assessmentsIssued > 0,
  },
});

/**
 * Issuing an assessment: count it, record it in the ledger (in the command's
 * transaction) and announce it on the inquiry's stream, in that order.
 */
function issueAs(params: IssueParams) {
  return runtimeSetup.enqueueActions(({ context, event, enqueue }) => {
    const assessment = { ...assessmentOf(event), preliminary: params.preliminary };
    enqueue.assign({ assessmentsIssued: context.assessmentsIssued + 1, latestAssessmentId: assessment.assessment_id });
    const record = 'record' in event && event.record ? event.record : null;
    enqueue({ type: 'recordAssessment', params: { assessment, record } });
    // The payloads are the documented AssessmentIssued and AssessmentRevised (src/events/schemas.ts); a final one is followed by InquiryConcluded.
    const head = { inquiry_id: context.inquiry_id, status: params.preliminary ? 'preliminary' : 'concluded', assessment };
    const payload =
      params.announce === 'AssessmentRevised' ? { ...head, previous_assessment_id: context.latestAssessmentId, case_id: null } : head;
    enqueue({ type: 'appendEvent', params: { type: params.announce, payload } });
  });
}

export const inquiryMachine = runtimeSetup
  .extend({
    // Resolved inside the pure transition: they update context and expand into the runtime actions above.
    actions: {
      absorbEvaluation: runtimeSetup.assign(({ context, event }) =>
        event.type === 'inquiry.evaluated' ? { signals: event.signals, absences: event.absences } : context,
      ),
      absorbReport: runtimeSetup.assign(({ context, event }) =>
        event.type === 'check.reported'
          ? {
              pending: context.pending.filter((k) => k !== event.key),
              signals: [...context.signals, ...event.signals],
              absences: [...context.absences, ...event.absences],
            }
          : context,
      ),
      absorbTimeouts: runtimeSetup.assign(({ context, event }) =>
        'timeoutAbsences' in event ? { pending: [], absences: [...context.absences, ...event.timeoutAbsences] } : context,
      ),
      startReasoning: runtimeSetup.enqueueActions(({ context, event, enqueue }) => {
        if (event.type !== 'inquiry.evaluated') return;
        enqueue.assign({ pending: event.pending.map((p) => p.key) });
        for (const p of event.pending) enqueue({ type: 'enqueueJob', params: p.job });
        enqueue({
          type: 'scheduleEvent',
          params: { event: { type: 'deadline.reached' }, delayMs: event.deadlineMs, timerId: `${context.inquiry_id}:deadline` },
        });
        enqueue({
          type: 'scheduleEvent',
          params: { event: { type: 'reasoning.expired' }, delayMs: event.maxReasoningMs, timerId: `${context.inquiry_id}:expiry` },
        });
      }),
      issueFinalAssessment: issueAs({ preliminary: false, announce: 'AssessmentIssued' }),
      reviseToFinalAssessment: issueAs({ preliminary: false, announce: 'AssessmentRevised' }),
      issuePreliminaryAssessment: issueAs({ preliminary: true, announce: 'AssessmentIssued' }),
      revisePreliminaryAssessment: issueAs({ preliminary: true, announce: 'AssessmentRevised' }),
      announceConclusion: runtimeSetup.enqueueActions(({ context, event, enqueue }) => {
        enqueue({
          type: 'appendEvent',
          // The final assessment, concluded as of the evidence it stands on (the machine keeps no clock of its own).
          params: {
            type: 'InquiryConcluded',
            payload: {
              inquiry_id: context.inquiry_id,
              assessment: { ...assessmentOf(event), preliminary: false },
              concluded_at: assessmentOf(event).as_of,
            },
          },
        });
      }),
    },
  })
  .createMachine({
    id: 'inquiry',
    initial: 'accepted',
    context: ({ input }) => ({
      inquiry_id: input.inquiry_id,
      preliminaryAllowed: input.preliminaryAllowed,
      pending: [],
      signals: [],
      absences: [],
      assessmentsIssued: 0,
      latestAssessmentId: null,
    }),
    states: {
      accepted: {
        entry: status('accepted'),
        on: {
          'inquiry.evaluated': [
            {
              guard: 'isSettledEvaluation',
              target: 'concluded',
              actions: ['absorbEvaluation', 'issueFinalAssessment', 'announceConclusion'],
            },
            { target: 'reasoning', actions: ['absorbEvaluation', 'startReasoning'] },
          ],
          'inquiry.rejected': { target: 'rejected' },
        },
      },
      reasoning: {
        entry: status('reasoning'),
        on: {
          'check.reported': [
            {
              guard: and(['isPendingReport', 'isSettlingReport']),
              target: 'concluded',
              actions: ['absorbReport', 'issueFinalAssessment', 'announceConclusion'],
            },
            { guard: 'isPendingReport', actions: 'absorbReport' },
          ],
          'deadline.reached': [
            { guard: 'isPreliminaryAllowed', target: 'preliminary', actions: 'issuePreliminaryAssessment' },
            { target: 'concluded', actions: ['absorbTimeouts', 'issueFinalAssessment', 'announceConclusion'] },
          ],
          'reasoning.expired': expire,
        },
      },
      preliminary: {
        entry: status('preliminary'),
        on: {
          'check.reported': [
            {
              guard: and(['isPendingReport', 'isSettlingReport']),
              target: 'concluded',
              actions: ['absorbReport', 'reviseToFinalAssessment', 'announceConclusion'],
            },
            { guard: 'isPendingReport', actions: ['absorbReport', 'revisePreliminaryAssessment'] },
          ],
          'reasoning.expired': expire,
        },
      },
      concluded: { type: 'final', entry: status('concluded') },
      rejected: { type: 'final', entry: status('rejected') },
    },
  });

/**
 * A concluded or rejected inquiry's snapshot as stored: its evidence (the
 * signals and absences it was assessed on) is in its ledger entry, and a
 * final actor never transitions again, so the snapshot does not keep a
 * second copy (actors/runtime.ts `compactFinal`).
 */
export function withoutEvidence<S extends { context: InquiryContext }>(snapshot: S): S {
  return { ...snapshot, context: { ...snapshot.context, signals: [], absences: [] } };
}
