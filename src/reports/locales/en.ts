import type { Num, ReportMessages } from './types.js';

/** English: the reference wording every other locale translates. */

const s = (n: Num, one: string, other: string): string => `${n.text} ${n.one ? one : other}`;

const PROVENANCE: Record<string, string> = {
  third_party: 'third-party',
  computed: 'computed',
  tenant_supplied: 'supplied by you',
  self_attested: 'self-attested',
  analyst_asserted: 'analyst-asserted',
};

const WIDTH = {
  narrow: 'the evidence agrees and is enough to place the score closely.',
  moderate: 'the evidence places the score only roughly; more evidence would narrow it.',
  wide: 'the evidence is thin or in conflict, so the true value could lie anywhere in that range.',
};

const ABSENCE = {
  timeout: 'did not answer in time',
  error: 'failed with an error',
  no_data: 'found no data',
  refused: 'met a refusal',
  budget: 'could not run: the budget was spent',
  unregistered: 'could not run: the type is not registered for your account',
};

const HEADLINE = {
  higher: 'Higher trust indicated',
  middle: 'Moderate trust indicated',
  lower: 'Lower trust indicated',
};

export const en: ReportMessages = {
  titles: {
    summary: 'Summary',
    evidence: 'Evidence',
    contradictions: 'Contradictions',
    gaps: 'What could not be checked',
    method: 'Method',
  },

  scoreLine: ({ score, low, high }) => `The score is ${score.text} out of 100, with an interval from ${low.text} to ${high.text}.`,
  widthLine: ({ width, band }) => `The interval is ${s(width, 'point', 'points')} wide: ${WIDTH[band]}`,
  labelLine: ({ value, version }) => `Your policy (version ${version.text}) labels this result “${value}”.`,
  noLabel: () => 'No label applies: none of your policies labels this result.',
  preliminary: () =>
    'This assessment is preliminary: the evidence gathered so far did not yet meet the stopping rule, and it will be refined.',

  evidenceTotals: ({ signals }) => `The assessment rests on ${s(signals, 'signal', 'signals')}.`,
  noEvidence: () => 'No evidence was admitted, so the interval is as wide as the method allows.',
  byProvenance: ({ list }) => `By provenance: ${list}.`,
  byTrustBand: ({ high, medium, low }) => `By trust band: ${high.text} high, ${medium.text} medium, ${low.text} low.`,
  supporting: ({ count, list }) => `${s(count, 'finding supports', 'findings support')} trust: ${list}`,
  weakening: ({ count, list }) => `${s(count, 'finding weakens', 'findings weaken')} trust: ${list}`,
  neutral: ({ count }) => `${s(count, 'finding is', 'findings are')} neutral: counted, without moving the score.`,
  moreNotQuoted: ({ count }) => `(${count.text} more not quoted)`,
  findingsNotShown: () => 'Individual findings are not part of this report.',
  finding: ({ statement }) => statement,
  provenanceClass: (id) => PROVENANCE[id],

  contradictions: ({ count }) =>
    `${s(count, 'piece of evidence points', 'pieces of evidence point')} the other way from the rest. Conflicting evidence is not averaged away: it widens the interval.`,
  conflictOn: ({ type, supports, weakens }) => `On the presented ${type}: ${supports.text} supporting, ${weakens.text} weakening.`,

  coverage: ({ run, answered, unanswered }) =>
    `Of ${s(run, 'check', 'checks')} run, ${answered.text} answered and ${unanswered.text} did not.`,
  absence: ({ kind, type, count }) => `${s(count, 'check', 'checks')} on the presented ${type} ${ABSENCE[kind]}.`,
  tierGap: ({ kind, tier, count }) =>
    `${s(count, 'check', 'checks')} of the kind “${kind}” would need tier ${tier}, above this inquiry's tier ceiling, so ${count.one ? 'it was' : 'they were'} not run.`,
  switchedOffGap: ({ kind, count }) =>
    `${s(count, 'check', 'checks')} of the kind “${kind}” ${count.one ? 'is' : 'are'} switched off in this deployment, so ${count.one ? 'it was' : 'they were'} not run; this counts neither for nor against the subject.`,
  failedSignals: ({ count }) => `${s(count, 'check', 'checks')} produced nothing usable.`,
  gapsMeaning: () => 'What could not be checked counts neither for nor against the subject; it widens the interval instead.',
  noGaps: () => 'Every check that ran answered, and the tier ceiling put nothing out of reach.',

  method: ({ version, asOf }) =>
    `Methodology version ${version}, with evidence current as of ${asOf}. The score and interval come from one published function applied to the admitted evidence; no person set or adjusted them.`,
  methodLabel: () => 'Labels come from your own published policy and never change the score.',

  shareHeadline: ({ band, preliminary }) => `${HEADLINE[band]}${preliminary ? ' (preliminary)' : ''}`,
  shareBody: ({ score, low, high, asOf }) => `Score ${score.text} of 100, interval ${low.text} to ${high.text}, as of ${asOf}.`,
  shareLabel: ({ value }) => `Label: ${value}.`,
};
