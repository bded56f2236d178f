import { randomUUID } from 'node:crypto';
import { withTenant, type Db, type Mode } from '../platform/db/pool.js';
import { ServiceProblem, ValidationFailure } from '../platform/problems.js';
import { RULES, type RuleId } from '../platform/rules.js';
import type {
  WebhookDeliveryOut,
  WebhookIn,
  WebhookOut,
  WebhookPatch,
  WebhookRedeliveryOut,
  WebhookSecretRotate,
  WebhookSummary,
} from './schemas.js';
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
import type { AuditSink, Principal } from '../auth/index.js';

/**
 * The webhook admin's commands: register, change, rotate the secret of,
 * redeliver through, list, read and delete a tenant's endpoints, and read an
 * endpoint's delivery log. A target passes the SSRF guard first (rule W01;
 * checked again at every send); every change commits with the call's audit
 * row. A new secret is in the answer that made it and nowhere else.
 */
export interface WebhookAdminDeps {
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
const W01: RuleId | null = 'W01' in RULES ? 'W01' : null;
const REFUSED_MESSAGE = 'The target must be https without credentials and resolve only to public addresses.';

const summaryOf = (r: SummaryRow): WebhookSummary => ({
  webhook_id: r.id,
  url: r.url,
  // Stored as the contract admitted them (text[] in the table).
  event_types: r.event_types as WebhookSummary['event_types'],
  description: r.description,
  created_at: r.created_at,
  enabled: r.disabled_at === null,
  disabled_reason: r.disabled_reason,
});

const notFound = () => new ServiceProblem('not-found', 'No such webhook.');

export type WebhookAdmin = ReturnType<typeof createWebhookAdmin>;

export function createWebhookAdmin(deps: WebhookAdminDeps) {
  const now = () => (deps.now ?? (() => new Date()))();
  const refuseTarget = async (principal: Principal, url: string) => {
    const verdict = await checkTarget(url, { allowInsecure: deps.allowInsecureTargets(principal.mode), lookup: deps.lookup });
    // The refusal names the field, never the value nor which address it resolved to.
    if (!verdict.ok) throw new ValidationFailure([{ loc: ['body', 'url'], msg: REFUSED_MESSAGE, type: 'W01' }], W01);
  };

  async function register(call: AuditSink, principal: Principal, input: WebhookIn): Promise<WebhookOut> {
    call.audit.target_kind = 'webhook';
    await refuseTarget(principal, input.url);
    const id = randomUUID();
    const secret = generateWebhookSecret();
    const eventTypes = [...input.event_types];
    const created = await withTenant(deps.db, principal, async (tx) => {
      const row = await insertEndpoint(tx, principal, {
        id,
        url: input.url,
        eventTypes,
        description: input.description ?? null,
        secretSealed: sealSecret(deps.pepper, secret, { tenantId: principal.tenantId, endpointId: id }),
      });
      call.audit.target_id = id;
      await call.auditInTx(tx, 'created');
      return row;
    });
    await deps.onChanged?.(principal).catch(() => undefined);
    return {
      webhook_id: id,
      url: input.url,
      event_types: eventTypes,
      description: input.description ?? null,
      created_at: created.created_at,
      secret,
    };
  }

  async function update(call: AuditSink, principal: Principal, id: string, input: WebhookPatch): Promise<WebhookSummary> {
    if (input.url !== undefined) await refuseTarget(principal, input.url);
    const row = await withTenant(deps.db, principal, async (tx) => {
      const updated = await updateEndpoint(tx, id, {
        ...(input.url !== undefined ? { url: input.url } : {}),
        ...(input.event_types !== undefined ? { eventTypes: input.event_types } : {}),
        ...(input.description !== undefined ? { description: input.description } : {}),
        ...(input.enabled !== undefined ? { enabled: input.enabled } : {}),
      });
      if (!updated) throw notFound();
      await call.auditInTx(tx, 'done');
      return updated;
    });
    await deps.onChanged?.(principal).catch(() => undefined);
    return summaryOf(row);
  }

  async function rotate(call: AuditSink, principal: Principal, id: string, input: WebhookSecretRotate): Promise<WebhookOut> {
    const secret = generateWebhookSecret();
    const previousUntil = input.grace_seconds === 0 ? null : new Date(now().getTime() + input.grace_seconds * 1000).toISOString();
    const row = await withTenant(deps.db, principal, async (tx) => {
      const rotated = await rotateSecret(
        tx,
        id,
        sealSecret(deps.pepper, secret, { tenantId: principal.tenantId, endpointId: id }),
        previousUntil,
      );
      if (!rotated) throw notFound();
      await call.auditInTx(tx, 'done');
      return rotated;
    });
    return {
      webhook_id: id,
      url: row.url,
      event_types: row.event_types as WebhookOut['event_types'],
      description: row.description,
      created_at: row.created_at,
      secret,
    };
  }

  async function redeliver(principal: Principal, id: string, messageId: string): Promise<WebhookRedeliveryOut> {
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
      message_id: messageId,
      event_id: eventIdOf(found.event.stream_id, found.event.seq),
      event_type: found.event.type,
      queued_at: now().toISOString(),
    };
  }

  async function list(principal: Principal): Promise<WebhookSummary[]> {
    const rows = await withTenant(deps.db, principal, (tx) => listEndpoints(tx));
    return rows.map(summaryOf);
  }

  async function get(principal: Principal, id: string): Promise<WebhookSummary> {
    const row = await withTenant(deps.db, principal, (tx) => findEndpoint(tx, id));
    if (!row) throw notFound();
    return summaryOf(row);
  }

  async function remove(call: AuditSink, principal: Principal, id: string): Promise<void> {
    await withTenant(deps.db, principal, async (tx) => {
      if (!(await deleteEndpoint(tx, id))) throw notFound();
      await call.auditInTx(tx, 'removed');
    });
    await deps.onChanged?.(principal).catch(() => undefined);
  }

  /** A deleted webhook's log stays readable; an id the tenant never had is not found. */
  async function deliveries(principal: Principal, id: string): Promise<WebhookDeliveryOut[]> {
    const rows = await withTenant(deps.db, principal, async (tx) => {
      if (!(await endpointExists(tx, id))) throw notFound();
      return deliveriesOf(tx, id);
    });
    return rows.map((r) => ({
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
    }));
  }

  return { register, update, rotate, redeliver, list, get, remove, deliveries };
}
