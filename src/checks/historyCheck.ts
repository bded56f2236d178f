import { SUBJECT_LEVEL, dateOf, isPrimaryPresentation, testimonyKey } from './subjectLevel.js';
import { defineCheck, neutral, supports, weakens, type SignalAnswer } from './evidence.js';
import type { EntityHistory } from './types.js';

/**
 * What the tenant's own records say about the resolved entity. Outcomes of
 * earlier decisions are the evidence: a default, reversal or exposure weakens,
 * a repayment, settlement or confirmation supports, each dated when it
 * happened so that old outcomes fade. Earlier assessments and observations
 * without a direction are reported only: feeding old scores back in would
 * count the same evidence twice.
 *
 * History belongs to the entity, not to one presentation, so it is answered
 * once, on the subject's first presentation. No history yields nothing: a new
 * entity is not a failed check.
 */
const WEAKENING_OUTCOMES: ReadonlySet<string> = new Set(['defaulted', 'reversed', 'exposed']);
const SUPPORTING_OUTCOMES: ReadonlySet<string> = new Set(['repaid', 'settled', 'confirmed']);

function latest(dates: readonly (Date | undefined)[]): Date | undefined {
  const valid = dates.filter((date): date is Date => date !== undefined);
  return valid.length === 0 ? undefined : new Date(Math.max(...valid.map((date) => date.getTime())));
}

/**
 * One answer per distinct outcome report. A report sent again for the same
 * decision (same decision_ref and kind, a client's retry) is the same report:
 * the latest copy stands and it counts once. Reports without a decision_ref
 * are each their own.
 */
function outcomeAnswers(history: EntityHistory): SignalAnswer[] {
  const reports = new Map<string, EntityHistory['outcomes'][number]>();
  history.outcomes.forEach((outcome, i) =>
    reports.set(outcome.ref === undefined ? `#${i}` : JSON.stringify([outcome.kind, outcome.ref]), outcome),
  );
  const answers: SignalAnswer[] = [];
  for (const [key, outcome] of reports) {
    const observedAt = dateOf(outcome.observed_at);
    if (observedAt === undefined) continue;
    const answer = WEAKENING_OUTCOMES.has(outcome.kind) ? weakens : SUPPORTING_OUTCOMES.has(outcome.kind) ? supports : null;
    if (answer === null) continue;
    const statement = `The tenant recorded that an earlier dealing with this entity was ${outcome.kind} (${observedAt.toISOString().slice(0, 10)}).`;
    answers.push(answer(statement, { kind: 'tenant_outcome', observedAt, ref: `outcome:${key}` }));
  }
  return answers;
}

/**
 * Testimony with a direction is evidence about the entity, each report its
 * own item, weighed by the provenance class it was given with (self-attested
 * testimony counts least). The same report restated word for word with the
 * same date (a caller attaching the same context to every inquiry) counts
 * once. It never sets a score: it enters the sum.
 */
function testimonyAnswers(history: EntityHistory): SignalAnswer[] {
  const reports = new Map<string, SignalAnswer>();
  history.observations.forEach((observation, i) => {
    const observedAt = dateOf(observation.observed_at);
    if (observedAt === undefined || observation.stance === undefined || observation.stance === 'neutral') return;
    const key = testimonyKey(observation, observedAt);
    const date = observedAt.toISOString().slice(0, 10);
    const extra = {
      kind: 'tenant_observation',
      observedAt,
      ref: `observation:${observation.id ?? `#${i}`}`,
      provenanceClass: observation.provenance_class,
    };
    reports.set(
      key,
      observation.stance === 'weakens'
        ? weakens(`Testimony recorded about this entity points against it (${date}).`, extra)
        : supports(`Testimony recorded about this entity speaks for it (${date}).`, extra),
    );
  });
  return [...reports.values()];
}

function assessmentAnswer(history: EntityHistory): SignalAnswer[] {
  const last = history.assessments.at(-1);
  if (last === undefined) return [];
  const count = history.assessments.length;
  const observedAt = dateOf(last.as_of);
  const times = count === 1 ? 'once' : `${count} times`;
  const statement = `The entity was assessed ${times} before; the latest score was ${last.score} (interval ${last.low}–${last.high}).`;
  return [neutral(statement, { kind: 'tenant_prior_assessment', observedAt })];
}

function observationAnswer(history: EntityHistory): SignalAnswer[] {
  const undirected = history.observations.filter((observation) => observation.stance === undefined || observation.stance === 'neutral');
  const count = undirected.length;
  if (count === 0) return [];
  const observedAt = latest(undirected.map((observation) => dateOf(observation.observed_at)));
  const plural = count === 1 ? 'observation' : 'observations';
  return [neutral(`The tenant has recorded ${count} ${plural} about this entity.`, { kind: 'tenant_observation', observedAt })];
}

export const check = defineCheck(
  {
    id: 'tenant_history',
    kind: 'tenant_history',
    looksAt: "the tenant's own outcomes, earlier assessments and testimony about the resolved entity",
    declares: [
      {
        kind: 'tenant_outcome',
        disposition: 'weakens',
        strength: 'strong',
        reason: "The tenant's own adverse outcome (defaulted, reversed, exposed) is the most diagnostic fact there is.",
        cited: "docs/methodology.md section 5: the tenant's own outcomes are strong",
      },
      {
        kind: 'tenant_outcome',
        disposition: 'supports',
        strength: 'moderate',
        reason: "The tenant's own good outcome is real evidence, but bad actors build a good record first.",
      },
      {
        kind: 'tenant_prior_assessment',
        disposition: 'neutral',
        reason: 'An earlier score is derived from evidence already counted; counting it again would count it twice.',
      },
      {
        kind: 'tenant_observation',
        disposition: 'weakens',
        strength: 'moderate',
        reason: 'Testimony of an adverse act is a report, not a proven outcome: real, but one account of it.',
      },
      {
        kind: 'tenant_observation',
        disposition: 'supports',
        strength: 'moderate',
        reason: 'Testimony the tenant marked as favourable is one account, as diagnostic as adverse testimony.',
      },
      { kind: 'tenant_observation', disposition: 'neutral', reason: 'A count of testimony with no direction, reported only.' },
    ],
    ...SUBJECT_LEVEL,
  },
  (ctx) => {
    const history = ctx.env.history;
    if (history === undefined || !isPrimaryPresentation(ctx)) return [];
    return [...outcomeAnswers(history), ...testimonyAnswers(history), ...assessmentAnswer(history), ...observationAnswer(history)];
  },
);
