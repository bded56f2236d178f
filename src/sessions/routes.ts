import { requirePrincipal } from '../auth/index.js';
import type { Handler } from '../edge/handler.js';
import type { SessionOpen } from './schemas.js';
import type { SessionCaps, SessionService } from './service.js';

/**
 * POST /v1/sessions and POST /v1/sessions/{session_id}/close, keyed by
 * operationId for app.ts's handler table. The session's WebSocket is in
 * sessionSocket.ts.
 */
export function sessionHandlers(sessions: SessionService, caps: SessionCaps): [string, Handler][] {
  return [
    [
      'openSession',
      async (ctx) => ({
        status: 201,
        body: await sessions.open(ctx, requirePrincipal(ctx), ctx.body as SessionOpen, ctx.ex.headers['x-purpose'], caps),
      }),
    ],
    [
      'closeSession',
      async (ctx) => ({
        status: 202,
        body: await sessions.close(ctx, requirePrincipal(ctx), ctx.params.session_id!, (ctx.query as { reason: string }).reason),
      }),
    ],
  ];
}
