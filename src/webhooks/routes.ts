import type { Handler } from '../edge/handler.js';
import type { WebhookIn, WebhookPatch, WebhookSecretRotate } from './schemas.js';
import { requirePrincipal } from '../auth/index.js';
import { targetOf } from '../edge/target.js';
import { createWebhookAdmin, type WebhookAdminDeps } from './index.js';

/**
 * /v1/admin/webhooks: HTTP around the webhook admin's commands (admin.ts). A
 * new secret is in the answer that made it and nowhere else, so no answer
 * that carries one is cached.
 */
export type { Redelivery } from './index.js';
export type WebhookRouteDeps = WebhookAdminDeps;

const NO_STORE = { 'Cache-Control': 'no-store' };

/** The webhook handlers keyed by operationId, for app.ts's handler table. */
export function webhookHandlers(deps: WebhookRouteDeps): [string, Handler][] {
  const admin = createWebhookAdmin(deps);
  const target = (ctx: Parameters<Handler>[0]) => targetOf(ctx, 'webhook', 'webhook_id');
  return [
    [
      'createWebhook',
      async (ctx) => ({ status: 201, headers: NO_STORE, body: await admin.register(ctx, requirePrincipal(ctx), ctx.body as WebhookIn) }),
    ],
    [
      'updateWebhook',
      async (ctx) => {
        const { principal, id } = target(ctx);
        return { status: 200, body: await admin.update(ctx, principal, id, ctx.body as WebhookPatch) };
      },
    ],
    [
      'rotateWebhookSecret',
      async (ctx) => {
        const { principal, id } = target(ctx);
        return { status: 200, headers: NO_STORE, body: await admin.rotate(ctx, principal, id, ctx.body as WebhookSecretRotate) };
      },
    ],
    [
      'redeliverWebhookMessage',
      async (ctx) => {
        const { principal, id } = target(ctx);
        return { status: 202, body: await admin.redeliver(principal, id, ctx.params.message_id!) };
      },
    ],
    ['listWebhooks', async (ctx) => ({ status: 200, body: await admin.list(requirePrincipal(ctx)) })],
    [
      'getWebhook',
      async (ctx) => {
        const { principal, id } = target(ctx);
        return { status: 200, body: await admin.get(principal, id) };
      },
    ],
    [
      'deleteWebhook',
      async (ctx) => {
        const { principal, id } = target(ctx);
        await admin.remove(ctx, principal, id);
        return { status: 204 };
      },
    ],
    [
      'listWebhookDeliveries',
      async (ctx) => {
        const { principal, id } = target(ctx);
        return { status: 200, body: await admin.deliveries(principal, id) };
      },
    ],
  ];
}
