import { requirePrincipal } from '../auth/index.js';
import type { Handler } from '../edge/handler.js';
import type { SessionOpen } from './schemas.js';
import type { SessionCaps, SessionService } from './service.js';
import { limitedProblem, sessionBody } from './wire.js';

/**
 * POST /v1/sessions and POST /v1/sessions/{session_id}/close, keyed by
 * operationId for app.ts's handler table. The session's WebSocket is in
 * socketRoutes.ts; the wire bodies (ws_url, the 429) are built in wire.ts.
 */
export function sessionHandlers(
  sessions: SessionService,
  caps: SessionCaps,
  /** Base of ws_url; known only once the server listens when the port is chosen by the OS. */
  publicUrl: () => string,
): [string, Handler][] {
  return [
    [
      'openSession',
      // 201 with the socket's address, or 429 with Retry-After when the key or its tenant is at its cap.
      async (ctx) => {
        const opening = await sessions.open(ctx, requirePrincipal(ctx), ctx.body as SessionOpen, ctx.ex.headers['x-purpose'], caps);
        if (opening.kind === 'limited') throw limitedProblem(opening);
        return { status: 201, body: sessionBody(opening, publicUrl()) };
      },
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
