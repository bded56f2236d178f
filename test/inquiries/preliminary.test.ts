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

describe('willBePreliminary agrees with the inquiry machine', () => {
  for (const allowed of [true, false]) {
    it(`deadline in reasoning, preliminary ${allowed ? 'allowed' : 'not allowed'}`, () => {
      const s = reasoning(allowed, ['k1', 'k2']);
      expect(recordedFlag(s, { type: 'deadline.reached', assessment, timeoutAbsences: [] })).toBe(
        willBePreliminary('reasoning', 'deadline.reached', false, allowed),
      );
    });
    for (const settled of [true, false]) {
      it(`check report in preliminary, settled ${settled}, allowed ${allowed}`, () => {
        const [p] = transition(inquiryMachine, reasoning(true, ['k1', 'k2']), {
          type: 'deadline.reached',
          assessment,
          timeoutAbsences: [],
        });
        const flag = recordedFlag(p, { type: 'check.reported', key: 'k1', signals: [], absences: [], assessment, narrowEnough: settled });
        expect(flag).toBe(willBePreliminary('preliminary', 'check.reported', settled, true));
      });
      it(`settling check report in reasoning, allowed ${allowed}`, () => {
        const flag = recordedFlag(reasoning(allowed, ['k1']), {
          type: 'check.reported',
          key: 'k1',
          signals: [],
          absences: [],
          assessment,
          narrowEnough: settled,
        });
        expect(flag).toBe(willBePreliminary('reasoning', 'check.reported', true, allowed));
      });
    }
    it(`expiry, allowed ${allowed}`, () => {
      expect(recordedFlag(reasoning(allowed, ['k1']), { type: 'reasoning.expired', assessment, timeoutAbsences: [] })).toBe(
        willBePreliminary('reasoning', 'reasoning.expired', false, allowed),
      );
    });
  }
});
