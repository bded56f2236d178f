import { ServiceProblem } from '../platform/problems.js';
import type { SessionOut } from './schemas.js';
import type { SessionOpening } from './service.js';

/**
 * A session's opening as the wire carries it (issue 49 item 5): the session
 * with the address of its socket, absolute under the public base with its
 * scheme made ws(s); or the refusal of a key or tenant at its cap, 429 with
 * Retry-After. Built here and nowhere else.
 */
export const sessionSocketPath = (sessionId: string): string => `/v1/sessions/${sessionId}/ws`;

export function wsUrlOf(publicUrl: string, sessionId: string): string {
  return `${publicUrl.replace(/^http/, 'ws').replace(/\/$/, '')}${sessionSocketPath(sessionId)}`;
}

type Opened = Extract<SessionOpening, { kind: 'opened' }>;
type Limited = Extract<SessionOpening, { kind: 'limited' }>;

export function sessionBody(opening: Opened, publicUrl: string): SessionOut {
  return {
    session_id: opening.sessionId,
    state: 'open',
    ws_url: wsUrlOf(publicUrl, opening.sessionId),
    token: opening.token,
    expires_at: opening.expiresAt,
    retention_mode: opening.retentionMode,
  };
}

/** 429 with Retry-After and the same wait in the problem's `retry_after`. */
export function limitedProblem(limited: Limited): ServiceProblem {
  const wait = limited.retryAfterSeconds;
  return new ServiceProblem('rate-limited', limited.detail, { retry_after: wait }, { 'Retry-After': String(wait) });
}
