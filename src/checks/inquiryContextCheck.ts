import { SUBJECT_LEVEL, dateOf, isPrimaryPresentation, testimonyKey } from './subjectLevel.js';
import { defineCheck, neutral, supports, weakens, type SignalAnswer } from './evidence.js';
import type { EntityHistory, InquiryTestimony } from './types.js';

/**
 * Testimony the caller attached to the inquiry itself (`context`): each item
 * with a direction (its `stance`, given or derived from its summary, see
 * src/entities/stance.ts) is one evidence item about the subject, weighed
 * by the provenance class it was given with. Testimony never sets a score; it
 * enters the sum like any item. Answered once, on the first presentation,
 * because it is about the subject, not one of its values. The context is
 * also kept as testimony about the entity, so the next inquiry finds it in
 * the history: a caller attaching the same report again is told it is on
 * record, and it is weighed once, there (tenant_history).
 */
function answerFor(item: InquiryTestimony, index: number, onRecord: ReadonlySet<string>): SignalAnswer | null {
  const observedAt = dateOf(item.observed_at);
  if (observedAt === undefined || item.stance === 'neutral') return null;
  if (onRecord.has(testimonyKey(item, observedAt))) {
    return neutral('Testimony attached to this inquiry is already on record for this entity and is counted there.', {
      observedAt,
      ref: `context:${index}`,
    });
  }
  const extra = { observedAt, ref: `context:${index}`, provenanceClass: item.provenance_class };
  return item.stance === 'weakens'
    ? weakens('Testimony attached to this inquiry points against the subject.', extra)
    : supports('Testimony attached to this inquiry speaks for the subject.', extra);
}

/** The directed testimony the entity's history already holds, by report. */
function recordedTestimony(history: EntityHistory | undefined): Set<string> {
  const keys = new Set<string>();
  for (const observation of history?.observations ?? []) {
    const observedAt = dateOf(observation.observed_at);
    if (observedAt !== undefined && observation.stance !== undefined && observation.stance !== 'neutral')
      keys.add(testimonyKey(observation, observedAt));
  }
  return keys;
}

export const check = defineCheck(
  {
    id: 'inquiry_context',
    kind: 'inquiry_context',
    looksAt: 'testimony the caller attached to the inquiry (its context), with the stance given or derived from its summary',
    declares: [
      {
        disposition: 'weakens',
        strength: 'moderate',
        reason: 'An account of an adverse act, from the caller: real evidence, but one account, not a proven outcome.',
      },
      {
        disposition: 'supports',
        strength: 'moderate',
        reason: 'Favourable testimony the caller explicitly marked so: as diagnostic as adverse testimony.',
      },
      {
        disposition: 'neutral',
        reason: 'Testimony with no direction is counted, not weighed; a report already on record is weighed once, from the record.',
      },
    ],
    ...SUBJECT_LEVEL,
  },
  (ctx) => {
    const context = ctx.env.context ?? [];
    if (context.length === 0 || !isPrimaryPresentation(ctx)) return [];
    const onRecord = recordedTestimony(ctx.env.history);
    const directed = context.map((item, i) => answerFor(item, i, onRecord)).filter((a): a is SignalAnswer => a !== null);
    const undirected = context.length - directed.length;
    const count =
      undirected === 0 ? [] : [neutral(`${undirected} attached ${undirected === 1 ? 'testimony has' : 'testimonies have'} no direction.`)];
    return [...directed, ...count];
  },
);
