import { randomUUID } from 'node:crypto';
import { withTenant, type Db, type Mode } from '../../db/pool.js';
import type { Handler } from '../../http/handler.js';
import { ValidationFailure } from '../../platform/problems.js';
import { RULES, type RuleId } from '../../rules.js';
import type { WebhookIn, WebhookOut } from '../../schemas/admin.js';
import { generateWebhookSecret, sealSecret } from '../../webhooks/secret.js';
import { insertEndpoint } from '../../webhooks/store.js';
import { checkTarget, type LookupAll } from '../../webhooks/targets.js';
import { requirePrincipal } from '../../auth/principal.js';

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
}

// Until the lead adds W01 to the catalog in src/rules.ts, the 422 still names it and the audit row has no rule.
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
      await ctx.auditInTx(tx, 201);
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

/** The webhook handlers keyed by operationId, for app.ts's handler table. */
export function webhookHandlers(deps: WebhookRouteDeps): [string, Handler][] {
  return [['createWebhook', createRegisterWebhook(deps)]];
}
