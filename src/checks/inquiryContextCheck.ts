import { SUBJECT_LEVEL, dateOf, isPrimaryPresentation } from './subjectLevel.js';
import { defineCheck, neutral, supports, weakens, type SignalAnswer } from './evidence.js';
import type { InquiryTestimony } from './types.js';

/**
 * Testimony the caller attached to the inquiry itself (`context`): each item
 * with a direction (its `stance`, given or derived from its summary, see
 * src/observations/stance.ts) is one evidence item about the subject, weighed
 * by the provenance class it was given with. Testimony never sets a score; it
 * enters the sum like any item. Answered once, on the first presentation,
 * because it is about the subject, not one of its values.
 */
function answerFor(item: InquiryTestimony, index: number): SignalAnswer | null {
  const observedAt = dateOf(item.observed_at);
  if (observedAt === undefined || item.stance === 'neutral') return null;
  const extra = { observedAt, ref: `context:${index}`, provenanceClass: item.provenance_class };
  return item.stance === 'weakens'
    ? weakens('Testimony attached to this inquiry points against the subject.', extra)
    : supports('Testimony attached to this inquiry speaks for the subject.', extra);
}

export const check = defineCheck(
  {
    id: 'inquiry_context',
    kind: 'inquiry_context',
    looksAt: "testimony the caller attached to the inquiry (its context), with the stance given or derived from its summary",
    declares: [
      { disposition: 'weakens', strength: 'moderate', reason: 'An account of an adverse act, from the caller: real evidence, but one account, not a proven outcome.' },
      { disposition: 'supports', strength: 'moderate', reason: 'Favourable testimony the caller explicitly marked so: as diagnostic as adverse testimony.' },
      { disposition: 'neutral', reason: 'Testimony with no direction is counted, not weighed.' },
    ],
    ...SUBJECT_LEVEL,
  },
  (ctx) => {
    const context = ctx.env.context ?? [];
    if (context.length === 0 || !isPrimaryPresentation(ctx)) return [];
    const directed = context.map(answerFor).filter((a): a is SignalAnswer => a !== null);
    const undirected = context.length - directed.length;
    const count = undirected === 0 ? [] : [neutral(`${undirected} attached ${undirected === 1 ? 'testimony has' : 'testimonies have'} no direction.`)];
    return [...directed, ...count];
  },
);
