import { z } from 'zod';
import { ALL_SCOPES } from '../schemas/operation.js';
import { component, dateTime, idString, ScopeName, uuid } from '../schemas/common.js';

/**
 * The tenancy capability's contract: API keys, minted, listed and rotated
 * (admin scope). A key secret is shown once, in the creating response, and
 * never again (rule I11).
 */

export const KeyMode = z.enum(['live', 'test']);

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

export type KeyCreate = z.infer<typeof KeyCreate>;
export type KeyRotate = z.infer<typeof KeyRotate>;
export type KeyOut = z.infer<typeof KeyOut>;
