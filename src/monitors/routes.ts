import type { Handler } from '../edge/handler.js';
import type { MonitorService } from './service.js';
import type { MonitorCreate } from './schemas.js';
import { requirePrincipal } from '../auth/index.js';

/**
 * POST /v1/monitors, GET and DELETE /v1/monitors/{monitor_id}, keyed by
 * operationId for app.ts's handler table. The event stream of a monitor
 * is in streams.ts with the other streams.
 */
export function monitorHandlers(monitors: MonitorService): [string, Handler][] {
  return [
    [
      'createMonitor',
      async (ctx) => ({
        status: 201,
        body: await monitors.open(ctx, requirePrincipal(ctx), ctx.body as MonitorCreate, ctx.ex.headers['x-purpose']),
      }),
    ],
    [
      'getMonitor',
      async (ctx) => {
        const monitorId = ctx.params.monitor_id!;
        ctx.audit.target_kind = 'monitor';
        ctx.audit.target_id = monitorId;
        return { status: 200, body: await monitors.view(requirePrincipal(ctx), monitorId) };
      },
    ],
    [
      'deleteMonitor',
      async (ctx) => {
        await monitors.close(ctx, requirePrincipal(ctx), ctx.params.monitor_id!);
        return { status: 204 };
      },
    ],
  ];
}
