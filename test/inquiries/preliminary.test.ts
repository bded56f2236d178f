import { describe, expect, it } from 'vitest';
import { initialTransition, transition, type AnyMachineSnapshot } from 'xstate';
import { inquiryMachine, type InquiryEvent } from '../../machines/inquiryMachine.js';
import { willBePreliminary } from '../../src/inquiries/preliminary.js';
import { anAssessment } from '../machines/anAssessment.js';

/**
 * The caller predicts whether an assessment will be preliminary (policy label
 * rules may look at it); the machine decides. Walk every case and compare.
 */
const assessment = anAssessment('a');
const job = { queue: 'checks', name: 'check.run', jobId: 'k1', data: {} };

function reasoning(preliminaryAllowed: boolean, pending: string[]): AnyMachineSnapshot {
  const [s0] = initialTransition(inquiryMachine, { inquiry_id: 'i', preliminaryAllowed });
  const [s1] = transition(inquiryMachine, s0, {
    type: 'inquiry.evaluated',
    signals: [],
    absences: [],
    pending: pending.map((key) => ({ key, job: { ...job, jobId: key } })),
    assessment,
    narrowEnough: false,
    deadlineMs: 100,
    maxReasoningMs: 1000,
  });
  return s1;
}

function recordedFlag(snapshot: AnyMachineSnapshot, event: InquiryEvent): boolean | null {
  const [, actions] = transition(inquiryMachine, snapshot, event);
  const record = actions.find((a) => a.type === 'recordAssessment') as unknown as
    { params: { assessment: { preliminary: boolean } } } | undefined;
  return record ? record.params.assessment.preliminary : null;
}

/** A check report's case: where the inquiry stands, what is still pending, what the report says. */
interface ReportCase {
  state: 'reasoning' | 'preliminary';
  allowed: boolean;
  pending: string[];
  narrowEnough: boolean;
}

// Every combination the machine can reach: `preliminary` only when the intent allows a preliminary answer.
const reportCases: ReportCase[] = (['reasoning', 'preliminary'] as const).flatMap((state) =>
  [true, false]
    .filter((allowed) => state === 'reasoning' || allowed)
    .flatMap((allowed) =>
      [['k1'], ['k1', 'k2']].flatMap((pending) => [true, false].map((narrowEnough) => ({ state, allowed, pending, narrowEnough }))),
    ),
);

describe('willBePreliminary agrees with the inquiry machine', () => {
  for (const allowed of [true, false]) {
    it(`deadline in reasoning, preliminary ${allowed ? 'allowed' : 'not allowed'}`, () => {
      const s = reasoning(allowed, ['k1', 'k2']);
      expect(recordedFlag(s, { type: 'deadline.reached', assessment, timeoutAbsences: [] })).toBe(
        willBePreliminary('reasoning', 'deadline.reached', false, allowed),
      );
    });
    it(`expiry, allowed ${allowed}`, () => {
      expect(recordedFlag(reasoning(allowed, ['k1']), { type: 'reasoning.expired', assessment, timeoutAbsences: [] })).toBe(
        willBePreliminary('reasoning', 'reasoning.expired', false, allowed),
      );
    });
  }

  for (const c of reportCases) {
    it(`check report in ${c.state}, ${c.pending.length} pending, narrow enough ${c.narrowEnough}, allowed ${c.allowed}`, () => {
      // given an inquiry in c.state with c.pending outstanding
      const before = reasoning(c.allowed, c.pending);
      const [s] =
        c.state === 'preliminary'
          ? transition(inquiryMachine, before, { type: 'deadline.reached', assessment, timeoutAbsences: [] })
          : [before];
      expect(s.value).toBe(c.state);
      // when k1 reports; settled as src/inquiries/continuation.ts computes it
      const settled = c.narrowEnough || c.pending.length === 1;
      const flag = recordedFlag(s, {
        type: 'check.reported',
        key: 'k1',
        signals: [],
        absences: [],
        assessment,
        narrowEnough: c.narrowEnough,
      });
      // then the machine issues an assessment when the report settles or revises a preliminary one, flagged as predicted
      const issues = settled || c.state === 'preliminary';
      expect(flag).toBe(issues ? willBePreliminary(c.state, 'check.reported', settled, c.allowed) : null);
    });
  }
});
