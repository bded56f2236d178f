import { z } from 'zod';
import { ALL_SCOPES } from './operation.js';
import { component, dateTime, idString, score100, ScopeName, StakeKind, uuid } from './common.js';

/**
 * The control plane (admin scope): keys, policies, webhooks and the audit trail.
 * A key secret and a webhook secret are shown once, in the creating response,
 * and never again (rule I11).
 */

export const KeyMode = z.enum(['live', 'test']);
export const RenderCeiling = z.enum(['none', 'template', 'model']);

export const KeyCreate = component(
  'KeyCreate',
  'Mints an API key with the given scopes.',
  z.strictObject({
    name: idString,
    scopes: z
      .array(ScopeName)
      .min(1)
      .max(ALL_SCOPES.length)
      .refine((s) => new Set(s).size === s.length, { message: 'Scopes must not repeat.' }),
    mode: KeyMode.describe('Test keys see only test data; live keys only live data.'),
    expires_at: dateTime.optional(),
  }),
);

export const KeyOut = component(
  'KeyOut',
  'An API key. `secret` is present only in the answer that minted it; it is stored as a salted hash and cannot be recovered.',
  z.strictObject({
    key_id: uuid,
    name: z.string(),
    scopes: z.array(ScopeName),
    mode: KeyMode,
    prefix: z.string().describe('Public start of the key, for recognising it in logs, for example `tas_live_ab12`.'),
    created_at: dateTime,
    expires_at: dateTime.nullable(),
    secret: z.string().optional(),
  }),
);

export const KeySummary = component(
  'KeySummary',
  "One of the tenant's keys as the list shows it: never its secret, only its public prefix. Extension: not in SPEC.md's control plane table.",
  z.strictObject({
    key_id: uuid,
    name: z.string(),
    scopes: z.array(ScopeName),
    mode: KeyMode,
    prefix: z.string().describe('Public start of the key, for example `tas_live_ab12`.'),
    created_at: dateTime,
    expires_at: dateTime.nullable(),
    revoked_at: dateTime.nullable().describe('When the key was revoked; null while it is valid.'),
    last_used_at: dateTime.nullable().describe('When the key last authenticated a call, to the minute; null if never.'),
  }),
);
export const KeySummaryList = z.array(KeySummary);

export const KeyRotate = component(
  'KeyRotate',
  'Rotates a key: a new key with the same name, scopes and expiry, and the old one ended after a grace period.',
  z.strictObject({
    // A week covers a weekly deploy; longer and the old secret lives on as if never rotated.
    grace_seconds: z
      .int()
      .min(0)
      .max(7 * 86_400)
      .default(0)
      .describe('How long the old key keeps working, so deployments can switch over; 0 revokes it at once.'),
  }),
);

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

export const AuditEntryOut = component(
  'AuditEntryOut',
  'One audited call or analyst action, with its cost.',
  z.strictObject({
    audit_id: uuid,
    occurred_at: dateTime,
    principal: z.string(),
    action: z.string().describe('The operationId of the call (or the analyst action).'),
    target_kind: z.string().nullable(),
    target_id: z.string().nullable(),
    status: z.int().describe('The HTTP status the call was answered with.'),
    rule: z.string().nullable().describe('The rule that refused the call, if one did.'),
    purpose: z.string().nullable().describe('The purpose the call declared, if any.'),
    key_id: uuid.nullable().describe("The key that made the call; null for anonymous calls and the service's own work."),
    cost_amount: z.number().nullable(),
    cost_currency: z.string().nullable(),
  }),
);

export const PolicyOutList = z.array(PolicyOut);
export const AuditEntryList = z.array(AuditEntryOut);

export type KeyCreate = z.infer<typeof KeyCreate>;
export type KeyRotate = z.infer<typeof KeyRotate>;
export type KeyOut = z.infer<typeof KeyOut>;
export type PolicyIn = z.infer<typeof PolicyIn>;
export type PolicyOut = z.infer<typeof PolicyOut>;
export type PolicyCondition = z.infer<typeof PolicyCondition>;
export type AuditEntryOut = z.infer<typeof AuditEntryOut>;
