import type { Handler } from '../edge/handler.js';
import type { MonitorService } from './service.js';
import type { MonitorCreate } from './schemas.js';
import { requirePrincipal } from '../auth/index.js';
import { monitorBody } from './wire.js';

/**
 * POST /v1/monitors, GET and DELETE /v1/monitors/{monitor_id}, keyed by
 * operationId for app.ts's handler table. The event stream of a monitor
 * is in streams.ts with the other streams.
 */
export function monitorHandlers(
  monitors: MonitorService,
  /** Base of the events_url a monitor's answer carries. */
  publicUrl: () => string,
): [string, Handler][] {
  return [
    [
      'createMonitor',
      async (ctx) => ({
        status: 201,
        body: monitorBody(
          await monitors.open(ctx, requirePrincipal(ctx), ctx.body as MonitorCreate, ctx.ex.headers['x-purpose']),
          publicUrl(),
        ),
      }),
    ],
    [
      'getMonitor',
      async (ctx) => {
        const monitorId = ctx.params.monitor_id!;
        ctx.audit.target_kind = 'monitor';
        ctx.audit.target_id = monitorId;
        return { status: 200, body: monitorBody(await monitors.view(requirePrincipal(ctx), monitorId), publicUrl()) };
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
