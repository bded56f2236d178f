import { randomUUID } from 'node:crypto';
import { withTenant, type Db, type Mode } from '../platform/db/pool.js';
import type { Handler } from '../edge/handler.js';
import { ServiceProblem, ValidationFailure } from '../platform/problems.js';
import { RULES, type RuleId } from '../platform/rules.js';
import type { WebhookIn, WebhookOut, WebhookPatch, WebhookSecretRotate } from './schemas.js';
import type { StreamEvent } from '../../actors/types.js';
import { readStreamAfter } from '../events/index.js';
import { eventIdOf } from '../events/index.js';
import { generateWebhookSecret, sealSecret } from './secret.js';
import {
  deleteEndpoint,
  deliveriesOf,
  endpointExists,
  findEndpoint,
  insertEndpoint,
  listEndpoints,
  loggedEventOf,
  rotateSecret,
  updateEndpoint,
  type SummaryRow,
} from './store.js';
import { checkTarget, type LookupAll } from './targets.js';
import { requirePrincipal } from '../auth/index.js';
import { targetOf } from '../edge/target.js';

/**
 * POST /v1/admin/webhooks: registers an endpoint for some event types. The
 * target passes the SSRF guard first (rule W01; checked again at every send),
 * then the endpoint and its sealed signing secret are written with the audit
 * row in one transaction. The secret is in the 201 answer and nowhere else.
 */
export interface WebhookRouteDeps {
  db: Db;
  pepper: string;
  /** Whether keys of this mode may register http and loopback targets (test mode, for local receivers). */
  allowInsecureTargets: (mode: Mode) => boolean;
  /** Host name resolution for the guard; the system resolver by default. */
  lookup?: LookupAll;
  /** Told after a registration commits, so every process's fan-out cache sees the new endpoint. */
  onChanged?: (scope: { tenantId: string; mode: Mode }) => Promise<void>;
  /** Queues one message for delivery again (the composition root adds it to the webhooks queue). */
  redeliver?: (message: Redelivery) => Promise<void>;
  now?: () => Date;
}

export interface Redelivery {
  tenantId: string;
  mode: Mode;
  endpointId: string;
  messageId: string;
  stream: 'inquiry' | 'monitor' | 'case';
  event: StreamEvent;
}

// Until the lead adds W01 to the catalog in src/platform/rules.ts, the 422 still names it and the audit row has no rule.
const W01: RuleId | null = 'W01' in RULES ? ('W01' as RuleId) : null;
const REFUSED_MESSAGE = 'The target must be https without credentials and resolve only to public addresses.';

export function createRegisterWebhook(deps: WebhookRouteDeps): Handler {
  return async (ctx) => {
    const principal = requirePrincipal(ctx);
    const body = ctx.body as WebhookIn;
    ctx.audit.target_kind = 'webhook';
    const verdict = await checkTarget(body.url, { allowInsecure: deps.allowInsecureTargets(principal.mode), lookup: deps.lookup });
    // The refusal names the field, never the value nor which address it resolved to.
    if (!verdict.ok) throw new ValidationFailure([{ loc: ['body', 'url'], msg: REFUSED_MESSAGE, type: 'W01' }], W01);
    const id = randomUUID();
    const secret = generateWebhookSecret();
    const eventTypes = [...body.event_types];
    const created = await withTenant(deps.db, principal, async (tx) => {
      const row = await insertEndpoint(tx, principal, {
        id,
        url: body.url,
        eventTypes,
        description: body.description ?? null,
        secretSealed: sealSecret(deps.pepper, secret, { tenantId: principal.tenantId, endpointId: id }),
      });
      ctx.audit.target_id = id;
      await ctx.auditInTx(tx, 'created');
      return row;
    });
    await deps.onChanged?.(principal).catch(() => undefined);
    const out: WebhookOut = {
      webhook_id: id,
      url: body.url,
      event_types: eventTypes,
      description: body.description ?? null,
      created_at: created.created_at,
      secret,
    };
    return { status: 201, headers: { 'Cache-Control': 'no-store' }, body: out };
  };
}

const summaryOf = (r: SummaryRow) => ({
  webhook_id: r.id,
  url: r.url,
  event_types: r.event_types,
  description: r.description,
  created_at: r.created_at,
  enabled: r.disabled_at === null,
  disabled_reason: r.disabled_reason,
});

const notFound = () => new ServiceProblem('not-found', 'No such webhook.');

function updateWebhook(deps: WebhookRouteDeps): Handler {
  return async (ctx) => {
    const { principal, id } = targetOf(ctx, 'webhook', 'webhook_id');
    const body = ctx.body as WebhookPatch;
    if (body.url !== undefined) {
      const verdict = await checkTarget(body.url, { allowInsecure: deps.allowInsecureTargets(principal.mode), lookup: deps.lookup });
      if (!verdict.ok) throw new ValidationFailure([{ loc: ['body', 'url'], msg: REFUSED_MESSAGE, type: 'W01' }], W01);
    }
    const row = await withTenant(deps.db, principal, async (tx) => {
      const updated = await updateEndpoint(tx, id, {
        ...(body.url !== undefined ? { url: body.url } : {}),
        ...(body.event_types !== undefined ? { eventTypes: body.event_types } : {}),
        ...(body.description !== undefined ? { description: body.description } : {}),
        ...(body.enabled !== undefined ? { enabled: body.enabled } : {}),
      });
      if (!updated) throw notFound();
      await ctx.auditInTx(tx, 'done');
      return updated;
    });
    await deps.onChanged?.(principal).catch(() => undefined);
    return { status: 200, body: summaryOf(row) };
  };
}

function rotateWebhookSecret(deps: WebhookRouteDeps): Handler {
  return async (ctx) => {
    const { principal, id } = targetOf(ctx, 'webhook', 'webhook_id');
    const { grace_seconds } = ctx.body as WebhookSecretRotate;
    const secret = generateWebhookSecret();
    const now = (deps.now ?? (() => new Date()))();
    const previousUntil = grace_seconds === 0 ? null : new Date(now.getTime() + grace_seconds * 1000).toISOString();
    const row = await withTenant(deps.db, principal, async (tx) => {
      const rotated = await rotateSecret(
        tx,
        id,
        sealSecret(deps.pepper, secret, { tenantId: principal.tenantId, endpointId: id }),
        previousUntil,
      );
      if (!rotated) throw notFound();
      await ctx.auditInTx(tx, 'done');
      return rotated;
    });
    const out: WebhookOut = {
      webhook_id: id,
      url: row.url,
      event_types: row.event_types as WebhookOut['event_types'],
      description: row.description,
      created_at: row.created_at,
      secret,
    };
    return { status: 200, headers: { 'Cache-Control': 'no-store' }, body: out };
  };
}

function redeliverMessage(deps: WebhookRouteDeps): Handler {
  return async (ctx) => {
    const { principal, id } = targetOf(ctx, 'webhook', 'webhook_id');
    const messageId = ctx.params.message_id!;
    const found = await withTenant(deps.db, principal, async (tx) => {
      const endpoint = await findEndpoint(tx, id);
      if (!endpoint) throw notFound();
      if (endpoint.disabled_at !== null)
        throw new ServiceProblem('conflict', 'The webhook is disabled; enable it (PATCH enabled: true) before asking for a redelivery.');
      const logged = await loggedEventOf(tx, id, messageId);
      if (!logged) throw new ServiceProblem('not-found', "No such message in this webhook's delivery log.");
      const [event] = await readStreamAfter(tx, logged.stream_id, logged.seq - 1, 1);
      if (!event || event.seq !== logged.seq) throw new ServiceProblem('conflict', 'The event of this message is no longer kept.');
      return { logged, event };
    });
    if (!deps.redeliver) throw new ServiceProblem('unavailable', 'Redelivery is not available in this process.');
    await deps.redeliver({
      tenantId: principal.tenantId,
      mode: principal.mode,
      endpointId: id,
      messageId,
      stream: found.logged.stream,
      event: found.event,
    });
    return {
      status: 202,
      body: {
        message_id: messageId,
        event_id: eventIdOf(found.event.stream_id, found.event.seq),
        event_type: found.event.type,
        queued_at: (deps.now ?? (() => new Date()))().toISOString(),
      },
    };
  };
}

/** The webhook handlers keyed by operationId, for app.ts's handler table. */
export function webhookHandlers(deps: WebhookRouteDeps): [string, Handler][] {
  return [
    ['createWebhook', createRegisterWebhook(deps)],
    ['updateWebhook', updateWebhook(deps)],
    ['rotateWebhookSecret', rotateWebhookSecret(deps)],
    ['redeliverWebhookMessage', redeliverMessage(deps)],
    [
      'listWebhooks',
      async (ctx) => {
        const rows = await withTenant(deps.db, requirePrincipal(ctx), (tx) => listEndpoints(tx));
        return { status: 200, body: rows.map(summaryOf) };
      },
    ],
    [
      'getWebhook',
      async (ctx) => {
        const { principal, id } = targetOf(ctx, 'webhook', 'webhook_id');
        const row = await withTenant(deps.db, principal, (tx) => findEndpoint(tx, id));
        if (!row) throw notFound();
        return { status: 200, body: summaryOf(row) };
      },
    ],
    [
      'deleteWebhook',
      async (ctx) => {
        const { principal, id } = targetOf(ctx, 'webhook', 'webhook_id');
        await withTenant(deps.db, principal, async (tx) => {
          if (!(await deleteEndpoint(tx, id))) throw notFound();
          await ctx.auditInTx(tx, 'removed');
        });
        await deps.onChanged?.(principal).catch(() => undefined);
        return { status: 204 };
      },
    ],
    [
      'listWebhookDeliveries',
      async (ctx) => {
        const { principal, id } = targetOf(ctx, 'webhook', 'webhook_id');
        const rows = await withTenant(deps.db, principal, async (tx) => {
          // A deleted webhook's log stays readable; an id the tenant never had is 404.
          if (!(await endpointExists(tx, id))) throw notFound();
          return deliveriesOf(tx, id);
        });
        return {
          status: 200,
          body: rows.map((r) => ({
            message_id: r.webhook_id,
            event_id: r.event_id,
            event_type: r.event_type,
            attempt: r.attempt,
            status: r.status,
            http_status: r.http_status,
            error: r.error,
            next_attempt_at: r.next_attempt_at,
            attempted_at: r.created_at,
            latency_ms: r.latency_ms,
          })),
        };
      },
    ],
  ];
}
