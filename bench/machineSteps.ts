import { initialTransition, transition } from 'xstate';
import { inquiryMachine, type InquiryEvent } from '../machines/inquiryMachine.js';
import { anAssessment } from '../test/machines/anAssessment.js';

/**
 * `npx tsx bench/machineSteps.ts`: the process CPU one inquiry's opening
 * spends in the machine (XState's `initialTransition`, then `transition`
 * with `inquiry.evaluated`, concluded at once: the hot path's two steps), as
 * the actor runtime takes them. Three rounds of 20,000 openings after a
 * warm-up of 2,000; the figure per opening is what docs/design-decisions.md
 * (issue 49, typed actors) compares with the service CPU of an inquiry.
 */
const ROUNDS = 3;
const OPENINGS = 20_000;
const WARM_UP = 2_000;

const input = { inquiry_id: '00000000-0000-4000-8000-000000000049', preliminaryAllowed: false };
const evaluated: InquiryEvent = {
  type: 'inquiry.evaluated',
  signals: [],
  absences: [],
  pending: [],
  assessment: anAssessment('bench'),
  narrowEnough: true,
  deadlineMs: 3000,
  maxReasoningMs: 60_000,
};

function open(): void {
  const [initial] = initialTransition(inquiryMachine, input);
  transition(inquiryMachine, initial, evaluated);
}

for (let i = 0; i < WARM_UP; i += 1) open();
for (let round = 1; round <= ROUNDS; round += 1) {
  const before = process.cpuUsage();
  for (let i = 0; i < OPENINGS; i += 1) open();
  const used = process.cpuUsage(before);
  const msPerOpening = (used.user + used.system) / 1000 / OPENINGS;
  console.log(`round ${round}: ${msPerOpening.toFixed(4)} ms of CPU per opening (initial snapshot and inquiry.evaluated)`);
}
