import { z } from 'zod';
import { component, dateTime, idString, RetentionMode, SessionSubject, Stake, uuid } from '../schemas/common.js';

/**
 * Sessions: live intake over WebSocket. Frames go in (presentations, text
 * lines, observations) and events come out on the same socket. Closing a
 * session applies its retention mode (transient: nothing raw is kept, D35).
 */

export const SessionState = z.enum(['open', 'closing', 'closed']);

export const SessionOpen = component(
  'SessionOpen',
  'Opens a live intake session.',
  z.strictObject({
    purpose: idString.describe('Registered purpose id (rule I13).'),
    intent: idString.describe('Registered intent id (rule I14).'),
    subject: SessionSubject.optional().describe('Known subject, even only a claim; frames may add presentations.'),
    stake: Stake,
    retention_mode: RetentionMode.default('standard'),
    consent_ref: idString.optional().describe('Required before audio or video frames (rule D36).'),
    case_id: uuid.optional().describe('Open-ended intake into a case.'),
    // Ten seconds tolerates a reconnect; an hour is the longest a socket may
    // sit idle holding an intake open.
    idle_timeout_seconds: z.int().min(10).max(3600).default(300),
  }),
);

export const SessionOut = component(
  'SessionOut',
  'An opened session. The token is single-use and shown once; present it when connecting to ws_url.',
  z.strictObject({
    session_id: uuid,
    state: SessionState,
    ws_url: z.string(),
    token: z.string(),
    expires_at: dateTime.describe('The token must be used before this moment.'),
    retention_mode: RetentionMode,
  }),
);

export const SessionCloseOut = component(
  'SessionCloseOut',
  'A close accepted; the retention mode is applied as the session drains.',
  z.strictObject({ session_id: uuid, state: SessionState, reason: z.string() }),
);

export type SessionOpen = z.infer<typeof SessionOpen>;
export type SessionOut = z.infer<typeof SessionOut>;
