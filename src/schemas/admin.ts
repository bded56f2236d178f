import { z } from 'zod';
import { ALL_SCOPES } from './operation.js';
import { component, dateTime, idString, score100, ScopeName, StakeKind, uuid, valueString } from './common.js';
import { WebhookEventType } from './events.js';

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
    grace_seconds: z.int().min(0).max(7 * 86_400).default(0)
      .describe('How long the old key keeps working, so deployments can switch over; 0 revokes it at once.'),
  }),
);

const bound = score100.optional();
const amountBound = z.number().min(0).max(1e15).optional();

export const PolicyCondition = component(
  'PolicyCondition',
  'All given conditions must hold for the rule to match (an empty condition always matches). Width is high - low.',
  z.strictObject({
    score_gte: bound, score_lte: bound,
    low_gte: bound, low_lte: bound,
    high_gte: bound, high_lte: bound,
    width_gte: bound, width_lte: bound,
    intents: z.array(idString).max(100).optional(),
    purposes: z.array(idString).max(100).optional(),
    stake_kinds: z.array(StakeKind).max(7).optional(),
    amount_gte: amountBound, amount_lte: amountBound,
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
  separate_sign_off: z.boolean().default(false)
    .describe("Extension (issue 18): when true, the key that signs a case off cannot be the one that opened it or made its latest change (rule C04)."),
  default_region: z.string().regex(/^[A-Z]{2}$/, 'An ISO 3166-1 alpha-2 country code, upper case.').nullable().default(null)
    .describe("Extension (issue 14): the region (ISO 3166-1 alpha-2) national-format phone numbers in the tenant's material are read in when the material's subject claims no country; null reads only international numbers."),
  allowed_origins: z
    .array(z.string().max(200).regex(/^https?:\/\/[a-z0-9.-]+(:[0-9]{1,5})?$/, 'An origin: scheme, lower-case host and optional port, no path.'))
    .max(50)
    .default([])
    .describe("Extension (issue 16): origins (`https://app.example.com`) of the tenant's web apps whose pages may call with its keys (rule O01); none by default."),
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

export const WebhookIn = component(
  'WebhookIn',
  'Registers a webhook endpoint. Deliveries are signed per Standard Webhooks.',
  z.strictObject({
    url: z.url({ protocol: /^https?$/ }).max(2048).describe('HTTPS target; private and loopback addresses are refused outside test mode.'),
    event_types: z
      .array(WebhookEventType)
      .min(1)
      .max(4)
      .refine((s) => new Set(s).size === s.length, { message: 'Event types must not repeat.' }),
    description: valueString.optional(),
  }),
);

const webhookFields = {
  webhook_id: uuid,
  url: z.string(),
  event_types: z.array(WebhookEventType),
  description: z.string().nullable(),
  created_at: dateTime,
};

export const WebhookOut = component(
  'WebhookOut',
  'A registered webhook. `secret` (the signing key, `whsec_...`) is present only in the answer that registered it.',
  z.strictObject({ ...webhookFields, secret: z.string().optional() }),
);

export const WebhookPatch = component(
  'WebhookPatch',
  'Changes a webhook: its target (checked again by rule W01), its event types, its description, or whether it is enabled. Only the fields given change.',
  z
    .strictObject({
      url: WebhookIn.shape.url.optional(),
      event_types: WebhookIn.shape.event_types.optional(),
      description: valueString.nullable().optional(),
      enabled: z.boolean().optional().describe('False pauses deliveries; true resumes them, also after the service disabled the endpoint (a 410 from the receiver).'),
    })
    .refine((p) => Object.keys(p).length > 0, { message: 'Give at least one field to change.' }),
);

export const WebhookSecretRotate = component(
  'WebhookSecretRotate',
  'Rotates the signing secret. Until `grace_seconds` have passed, deliveries are signed under both the new and the old secret (Standard Webhooks).',
  z.strictObject({
    grace_seconds: z.int().min(0).max(7 * 86_400).default(86_400).describe('How long the old secret still signs; 0 ends it at once. At most 7 days.'),
  }),
);

export const WebhookRedeliveryOut = component(
  'WebhookRedeliveryOut',
  'A message queued to be delivered again, with the same `webhook-id`, so a receiver that already has it can tell.',
  z.strictObject({
    message_id: z.string(),
    event_id: uuid,
    event_type: z.string(),
    queued_at: dateTime,
  }),
);

export const WebhookSummary = component(
  'WebhookSummary',
  'A registered webhook as listed: never its secret.',
  z.strictObject({
    ...webhookFields,
    enabled: z.boolean().describe('False once the service disabled it (for example its target stopped passing rule W01).'),
    disabled_reason: z.string().nullable(),
  }),
);

export const WebhookDeliveryOut = component(
  'WebhookDeliveryOut',
  'One delivery attempt of one event to a webhook: never the payload, never the receiver\'s answer body.',
  z.strictObject({
    message_id: z.string().describe('The `webhook-id` header: the same on every retry of one delivery.'),
    event_id: uuid,
    event_type: z.string(),
    attempt: z.int().min(1),
    status: z.enum(['succeeded', 'failed', 'retrying', 'gave_up', 'disabled']),
    http_status: z.int().nullable(),
    error: z.string().nullable().describe('Our own neutral words (`timeout`, `http 503`).'),
    next_attempt_at: dateTime.nullable(),
    attempted_at: dateTime,
    latency_ms: z.int().min(0).nullable().describe('From the start of the attempt to the answer, refusal or timeout; null on attempts logged before it was measured.'),
  }),
);

export const WebhookSummaryList = z.array(WebhookSummary);
export const WebhookDeliveryList = z.array(WebhookDeliveryOut);

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
    key_id: uuid.nullable().describe('The key that made the call; null for anonymous calls and the service\'s own work.'),
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
export type WebhookIn = z.infer<typeof WebhookIn>;
export type WebhookOut = z.infer<typeof WebhookOut>;
export type WebhookPatch = z.infer<typeof WebhookPatch>;
export type WebhookSecretRotate = z.infer<typeof WebhookSecretRotate>;
export type AuditEntryOut = z.infer<typeof AuditEntryOut>;
