import { z } from 'zod';
import { PolicyIn } from '../policies/schemas.js';
import { StakeKind, Tier } from '../schemas/common.js';
import type { InquiryFacts } from './evaluate.js';

/**
 * The inquiry's facts as the engine keeps them in `inquiries.request` (the
 * row is written by openInquiry, read back by the view and by every
 * continuation), parsed on the way back in, never cast. Objects are loose:
 * a field this reader does not name is kept, not dropped, so a fact added
 * later survives a round trip through an older reader. The policy is parsed
 * as the policies table's own rows are (PolicyIn).
 */
const Presentation = z.looseObject({ type: z.string(), value: z.string(), normalised: z.string(), malformed: z.string().optional() });

export const StoredInquiryFacts = z.looseObject({
  inquiryId: z.string(),
  entityId: z.string().nullable(),
  intent: z.string(),
  purpose: z.string(),
  stake: z.looseObject({ kind: StakeKind, amount: z.number().optional(), reversible: z.boolean().optional() }),
  tierCeiling: Tier,
  subject: z.array(z.looseObject({ type: z.string(), value: z.string() })),
  presentations: z.array(Presentation),
  claim: z
    .looseObject({
      name: z.string().optional(),
      country: z.string().optional(),
      email: z.string().optional(),
      phone: z.string().optional(),
      organisation: z.string().optional(),
      website: z.string().optional(),
    })
    .optional(),
  policy: z.looseObject({ version: z.int(), body: PolicyIn }).nullable(),
  render: z.enum(['none', 'template', 'model']),
  renderLang: z.string().optional(),
  gaps: z.array(
    z.looseObject({ tier: Tier, kind: z.string(), count: z.number(), reason: z.enum(['beyond_tier_ceiling', 'switched_off']) }),
  ),
  checksRun: z.number(),
  graph: z
    .looseObject({
      shared: z.array(
        z.looseObject({
          type: z.string(),
          value: z.string(),
          normalised: z.string(),
          otherEntities: z.number(),
          adverseEntities: z.number().optional(),
        }),
      ),
    })
    .optional(),
  deadlineAt: z.number(),
  pendingIndex: z.record(z.string(), Presentation),
  materialBindings: z
    .array(z.looseObject({ material_id: z.string(), binding_id: z.string(), type: z.string(), value: z.string() }))
    .optional(),
});

export function parseInquiryFacts(stored: unknown): InquiryFacts {
  const facts = StoredInquiryFacts.parse(stored);
  // JSON drops a key whose value was undefined; the facts name it all the same.
  return { ...facts, claim: facts.claim, renderLang: facts.renderLang, graph: facts.graph };
}

/**
 * What reading an inquiry needs of its facts (its policy and how to render),
 * which a session's inquiry keeps too (SessionFacts, src/sessions/evaluate.ts).
 */
export const StoredViewFacts = z.looseObject({
  policy: StoredInquiryFacts.shape.policy,
  render: StoredInquiryFacts.shape.render,
  renderLang: StoredInquiryFacts.shape.renderLang,
});
export type ViewFacts = Pick<InquiryFacts, 'policy' | 'render' | 'renderLang'>;

export function parseViewFacts(stored: unknown): ViewFacts {
  const facts = StoredViewFacts.parse(stored);
  return { policy: facts.policy, render: facts.render, renderLang: facts.renderLang };
}
