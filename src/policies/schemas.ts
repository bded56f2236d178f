import { z } from 'zod';
import { component, dateTime, idString, score100, StakeKind } from '../schemas/common.js';

/**
 * The policies capability's contract (admin scope): a tenant's policy, its
 * label rules and what it allows. Publishing changes labels and never scores.
 */

export const RenderCeiling = z.enum(['none', 'template', 'model']);

const bound = score100.optional();
const amountBound = z.number().min(0).max(1e15).optional();

export const PolicyCondition = component(
  'PolicyCondition',
  'All given conditions must hold for the rule to match (an empty condition always matches). Width is high - low.',
  z.strictObject({
    score_gte: bound,
    score_lte: bound,
    low_gte: bound,
    low_lte: bound,
    high_gte: bound,
    high_lte: bound,
    width_gte: bound,
    width_lte: bound,
    intents: z.array(idString).max(100).optional(),
    purposes: z.array(idString).max(100).optional(),
    stake_kinds: z.array(StakeKind).max(7).optional(),
    amount_gte: amountBound,
    amount_lte: amountBound,
    preliminary: z.boolean().optional(),
  }),
);

export const PolicyRule = component(
  'PolicyRule',
  'A label rule; rules are tried in order and the first that matches gives the label.',
  z.strictObject({ label: idString, when: PolicyCondition }),
);

const policyFields = {
  allowed_purposes: z.array(idString).max(100).describe('Purposes inquiries may declare (rule I13).'),
  allowed_intents: z.array(idString).max(100).describe('Intents inquiries may use (rule I14).'),
  render_ceiling: RenderCeiling.describe('The most a report may be rendered with; asks above it are clamped.'),
  show_findings: z.boolean().describe('Whether findings appear in inquiry responses (the key also needs the findings scope).'),
  separate_sign_off: z
    .boolean()
    .default(false)
    .describe(
      'Extension (issue 18): when true, the key that signs a case off cannot be the one that opened it or made its latest change (rule C04).',
    ),
  default_region: z
    .string()
    .regex(/^[A-Z]{2}$/, 'An ISO 3166-1 alpha-2 country code, upper case.')
    .nullable()
    .default(null)
    .describe(
      "Extension (issues 14 and 47): the tenant's default country (ISO 3166-1 alpha-2), where a phone number written without a country code is read when the subject claims no country: in the tenant's material, and in an inquiry's presentations when the claimed country is absent or the number is valid only here (it is not a claim: nothing is said to agree or differ with it). Null reads such a number only in the claimed country; with none, the phone checks answer that a country is needed, not that the number is invalid.",
    ),
  allowed_origins: z
    .array(
      z
        .string()
        .max(200)
        .regex(/^https?:\/\/[a-z0-9.-]+(:[0-9]{1,5})?$/, 'An origin: scheme, lower-case host and optional port, no path.'),
    )
    .max(50)
    .default([])
    .describe(
      "Extension (issue 16): origins (`https://app.example.com`) of the tenant's web apps whose pages may call with its keys (rule O01); none by default.",
    ),
  // A hundred ordered rules is far beyond any real label ladder and keeps
  // labelling a linear scan of trivial cost.
  rules: z.array(PolicyRule).max(100),
};

export const PolicyIn = component(
  'PolicyIn',
  'A new policy version. Publishing changes labels and never scores.',
  z.strictObject(policyFields),
);

export const PolicyOut = component(
  'PolicyOut',
  'A published policy version.',
  z.strictObject({
    ...policyFields,
    policy_version: z.int().min(1),
    created_at: dateTime,
    current: z.boolean(),
  }),
);

export const PolicyOutList = z.array(PolicyOut);

export type PolicyIn = z.infer<typeof PolicyIn>;
export type PolicyOut = z.infer<typeof PolicyOut>;
export type PolicyCondition = z.infer<typeof PolicyCondition>;
