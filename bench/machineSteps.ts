import { initialTransition as xstateInitial, transition as xstateTransition } from 'xstate';
import { initialTransition, transition } from '../actors/pureTransition.js';
import { inquiryMachine, type InquiryEvent } from '../machines/inquiryMachine.js';
import { anAssessment } from '../test/machines/anAssessment.js';

/**
 * `npx tsx bench/machineSteps.ts`: the process CPU one inquiry's opening
 * spends in the machine (the initial snapshot, then `inquiry.evaluated`,
 * concluded at once: the hot path's two steps), taken by XState's public
 * `initialTransition` / `transition` and by the runtime's own
 * (actors/pureTransition.ts, one inert scope per machine), in turn. Three
 * rounds of 20,000 openings each after a warm-up; docs/design-decisions.md
 * (issue 49, typed actors) reads the figures.
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

const ways = {
  "XState's public functions": () => {
    const [initial] = xstateInitial(inquiryMachine, input);
    xstateTransition(inquiryMachine, initial, evaluated);
  },
  'actors/pureTransition.ts': () => {
    const [initial] = initialTransition(inquiryMachine, input);
    transition(inquiryMachine, initial, evaluated);
  },
};

for (const open of Object.values(ways)) for (let i = 0; i < WARM_UP; i += 1) open();
for (let round = 1; round <= ROUNDS; round += 1) {
  for (const [name, open] of Object.entries(ways)) {
    const before = process.cpuUsage();
    for (let i = 0; i < OPENINGS; i += 1) open();
    const used = process.cpuUsage(before);
    console.log(`round ${round}, ${name}: ${((used.user + used.system) / 1000 / OPENINGS).toFixed(4)} ms of CPU per opening`);
  }
}
