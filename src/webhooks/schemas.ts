import { z } from 'zod';
import { component, dateTime, uuid, valueString } from '../schemas/common.js';
import { WebhookEventType } from '../events/schemas.js';

/** The webhook registrations and their delivery log (admin scope); a secret is shown once, in the creating response (rule I11). */

export const WebhookIn = component(
  'WebhookIn',
  'Registers a webhook endpoint. Deliveries are signed per Standard Webhooks.',
  z.strictObject({
    url: z
      .url({ protocol: /^https?$/ })
      .max(2048)
      .describe('HTTPS target; private and loopback addresses are refused outside test mode.'),
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
      enabled: z
        .boolean()
        .optional()
        .describe('False pauses deliveries; true resumes them, also after the service disabled the endpoint (a 410 from the receiver).'),
    })
    .refine((p) => Object.keys(p).length > 0, { message: 'Give at least one field to change.' }),
);

export const WebhookSecretRotate = component(
  'WebhookSecretRotate',
  'Rotates the signing secret. Until `grace_seconds` have passed, deliveries are signed under both the new and the old secret (Standard Webhooks).',
  z.strictObject({
    grace_seconds: z
      .int()
      .min(0)
      .max(7 * 86_400)
      .default(86_400)
      .describe('How long the old secret still signs; 0 ends it at once. At most 7 days.'),
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
  "One delivery attempt of one event to a webhook: never the payload, never the receiver's answer body.",
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
    latency_ms: z
      .int()
      .min(0)
      .nullable()
      .describe('From the start of the attempt to the answer, refusal or timeout; null on attempts logged before it was measured.'),
  }),
);

export const WebhookSummaryList = z.array(WebhookSummary);
export const WebhookDeliveryList = z.array(WebhookDeliveryOut);

export type WebhookIn = z.infer<typeof WebhookIn>;
export type WebhookOut = z.infer<typeof WebhookOut>;
export type WebhookPatch = z.infer<typeof WebhookPatch>;
export type WebhookSecretRotate = z.infer<typeof WebhookSecretRotate>;
export type WebhookSummary = z.infer<typeof WebhookSummary>;
export type WebhookDeliveryOut = z.infer<typeof WebhookDeliveryOut>;
export type WebhookRedeliveryOut = z.infer<typeof WebhookRedeliveryOut>;
