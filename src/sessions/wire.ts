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

export function sessionBody(opening: SessionOpening, publicUrl: string): SessionOut {
  if (opening.kind === 'limited') {
    const wait = opening.retryAfterSeconds;
    throw new ServiceProblem('rate-limited', opening.detail, { retry_after: wait }, { 'Retry-After': String(wait) });
  }
  return {
    session_id: opening.sessionId,
    state: 'open',
    ws_url: wsUrlOf(publicUrl, opening.sessionId),
    token: opening.token,
    expires_at: opening.expiresAt,
    retention_mode: opening.retentionMode,
  };
}
