import { sql } from 'slonik';
import { z } from 'zod';
import type { Mode, Tx } from '../platform/db/pool.js';

/**
 * One function per query on webhook_endpoints and webhook_deliveries; the
 * connection comes first and is a tenant-scoped transaction (withTenant), so
 * row-level security confines every query to one tenant and mode.
 */
export interface Scope {
  tenantId: string;
  mode: Mode;
}

const EndpointRow = z.object({
  id: z.string(),
  url: z.string(),
  event_types: z.array(z.string()),
  description: z.string().nullable(),
  secret_sealed: z.instanceof(Buffer),
  previous_secret_sealed: z.instanceof(Buffer).nullable(),
  previous_secret_expires_at: z.string().nullable(),
  created_at: z.string(),
  disabled_at: z.string().nullable(),
});
export type EndpointRow = z.infer<typeof EndpointRow>;

export interface NewEndpoint {
  id: string;
  url: string;
  eventTypes: readonly string[];
  description: string | null;
  secretSealed: Buffer;
}

export async function insertEndpoint(tx: Tx, scope: Scope, e: NewEndpoint): Promise<{ created_at: string }> {
  return tx.one(sql.type(z.object({ created_at: z.string() }))`
    INSERT INTO webhook_endpoints (id, tenant_id, mode, url, event_types, description, secret_sealed)
    VALUES (${e.id}, ${scope.tenantId}, ${scope.mode}, ${e.url}, ${sql.array([...e.eventTypes], 'text')},
            ${e.description}, ${sql.binary(e.secretSealed)})
    RETURNING created_at`);
}

/** The enabled endpoints subscribed to one event type, oldest first. */
export async function listSubscribedEndpoints(tx: Tx, eventType: string): Promise<readonly string[]> {
  return tx.anyFirst(sql.type(z.object({ id: z.string() }))`
    SELECT id FROM webhook_endpoints
    WHERE disabled_at IS NULL AND ${eventType} = ANY (event_types)
    ORDER BY created_at, id`);
}

export async function loadEndpoint(tx: Tx, id: string): Promise<EndpointRow | null> {
  return tx.maybeOne(sql.type(EndpointRow)`
    SELECT id, url, event_types, description, secret_sealed, previous_secret_sealed, previous_secret_expires_at, created_at, disabled_at
    FROM webhook_endpoints WHERE id = ${id}`);
}

export async function disableEndpoint(tx: Tx, id: string, reason: string): Promise<boolean> {
  const row = await tx.maybeOne(sql.type(z.object({ id: z.string() }))`
    UPDATE webhook_endpoints SET disabled_at = now(), disabled_reason = ${reason}
    WHERE id = ${id} AND disabled_at IS NULL RETURNING id`);
  return row !== null;
}

const SummaryRow = z.object({
  id: z.string(),
  url: z.string(),
  event_types: z.array(z.string()),
  description: z.string().nullable(),
  created_at: z.string(),
  disabled_at: z.string().nullable(),
  disabled_reason: z.string().nullable(),
});
export type SummaryRow = z.infer<typeof SummaryRow>;

// The reason a tenant's own deletion is recorded under; such endpoints are no longer listed or read.
export const DELETED_REASON = 'deleted by the tenant';

/** The tenant's endpoints of this mode, oldest first, deleted ones left out. */
export async function listEndpoints(tx: Tx): Promise<readonly SummaryRow[]> {
  return tx.any(sql.type(SummaryRow)`
    SELECT id, url, event_types, description, created_at, disabled_at, disabled_reason FROM webhook_endpoints
    WHERE disabled_reason IS DISTINCT FROM ${DELETED_REASON} ORDER BY created_at, id`);
}

export async function findEndpoint(tx: Tx, id: string): Promise<SummaryRow | null> {
  return tx.maybeOne(sql.type(SummaryRow)`
    SELECT id, url, event_types, description, created_at, disabled_at, disabled_reason FROM webhook_endpoints
    WHERE id = ${id} AND disabled_reason IS DISTINCT FROM ${DELETED_REASON}`);
}

export interface EndpointPatch {
  url?: string;
  eventTypes?: readonly string[];
  description?: string | null;
  enabled?: boolean;
}

// The reason a tenant's own pause is recorded under; `enabled: true` clears it, as it clears a disabling by the service.
export const PAUSED_REASON = 'disabled by the tenant';

/** Changes what the patch names; a deleted endpoint is not found. */
export async function updateEndpoint(tx: Tx, id: string, p: EndpointPatch): Promise<SummaryRow | null> {
  const sets = [sql.fragment`updated_at = now()`];
  if (p.url !== undefined) sets.push(sql.fragment`url = ${p.url}`);
  if (p.eventTypes !== undefined) sets.push(sql.fragment`event_types = ${sql.array([...p.eventTypes], 'text')}`);
  if (p.description !== undefined) sets.push(sql.fragment`description = ${p.description}`);
  if (p.enabled === true) sets.push(sql.fragment`disabled_at = NULL`, sql.fragment`disabled_reason = NULL`);
  if (p.enabled === false)
    sets.push(
      sql.fragment`disabled_at = COALESCE(disabled_at, now())`,
      sql.fragment`disabled_reason = COALESCE(disabled_reason, ${PAUSED_REASON})`,
    );
  return tx.maybeOne(sql.type(SummaryRow)`
    UPDATE webhook_endpoints SET ${sql.join(sets, sql.fragment`, `)}
    WHERE id = ${id} AND disabled_reason IS DISTINCT FROM ${DELETED_REASON}
    RETURNING id, url, event_types, description, created_at, disabled_at, disabled_reason`);
}

/**
 * A new signing secret; the current one becomes the previous one until
 * `previousUntil` (none when null: the old secret stops at once).
 */
export async function rotateSecret(tx: Tx, id: string, sealed: Buffer, previousUntil: string | null): Promise<SummaryRow | null> {
  return tx.maybeOne(sql.type(SummaryRow)`
    UPDATE webhook_endpoints SET
      previous_secret_sealed = CASE WHEN ${previousUntil}::timestamptz IS NULL THEN NULL ELSE secret_sealed END,
      previous_secret_expires_at = ${previousUntil}::timestamptz,
      secret_sealed = ${sql.binary(sealed)},
      updated_at = now()
    WHERE id = ${id} AND disabled_reason IS DISTINCT FROM ${DELETED_REASON}
    RETURNING id, url, event_types, description, created_at, disabled_at, disabled_reason`);
}

const LoggedEvent = z.object({ stream_id: z.string(), seq: z.number(), stream: z.enum(['inquiry', 'monitor', 'case']) });

/** The event a logged message carried, when its attempts recorded it. */
export async function loggedEventOf(tx: Tx, endpointId: string, messageId: string): Promise<z.infer<typeof LoggedEvent> | null> {
  return tx.maybeOne(sql.type(LoggedEvent)`
    SELECT stream_id, seq, stream FROM webhook_deliveries
    WHERE endpoint_id = ${endpointId} AND webhook_id = ${messageId} AND stream_id IS NOT NULL
    ORDER BY id DESC LIMIT 1`);
}

/** Whether the tenant ever had this endpoint, deleted or not. */
export async function endpointExists(tx: Tx, id: string): Promise<boolean> {
  return tx.exists(sql.unsafe`SELECT 1 FROM webhook_endpoints WHERE id = ${id}`);
}

/** Deletes an endpoint as far as the tenant is concerned: disabled for good (its delivery log keeps referring to it). */
export async function deleteEndpoint(tx: Tx, id: string): Promise<boolean> {
  const row = await tx.maybeOne(sql.type(z.object({ id: z.string() }))`
    UPDATE webhook_endpoints SET disabled_at = COALESCE(disabled_at, now()), disabled_reason = ${DELETED_REASON}
    WHERE id = ${id} AND disabled_reason IS DISTINCT FROM ${DELETED_REASON} RETURNING id`);
  return row !== null;
}

const DeliveryRow = z.object({
  webhook_id: z.string(),
  event_id: z.string(),
  event_type: z.string(),
  attempt: z.number(),
  status: z.enum(['succeeded', 'failed', 'retrying', 'gave_up', 'disabled']),
  http_status: z.number().nullable(),
  error: z.string().nullable(),
  next_attempt_at: z.string().nullable(),
  created_at: z.string(),
  latency_ms: z.number().nullable(),
});

// A log page a person can read; older attempts stay in the table.
const MAX_LOG_ROWS = 1000;

/** The last attempts of one endpoint, oldest first. */
export async function deliveriesOf(tx: Tx, endpointId: string): Promise<readonly z.infer<typeof DeliveryRow>[]> {
  const rows = await tx.any(sql.type(DeliveryRow)`
    SELECT webhook_id, event_id, event_type, attempt, status, http_status, error, next_attempt_at, created_at, latency_ms
    FROM webhook_deliveries WHERE endpoint_id = ${endpointId} ORDER BY id DESC LIMIT ${MAX_LOG_ROWS}`);
  return [...rows].reverse();
}

export type DeliveryStatus = 'succeeded' | 'failed' | 'retrying' | 'gave_up' | 'disabled';

export interface NewDelivery {
  endpointId: string;
  webhookId: string;
  eventId: string;
  eventType: string;
  attempt: number;
  status: DeliveryStatus;
  httpStatus: number | null;
  error: string | null;
  nextAttemptAt: string | null;
  /** From the start of the attempt to the answer, refusal or timeout. */
  latencyMs: number | null;
  /** The event it carried, so the message can be sent again. */
  event: { streamId: string; seq: number; stream: string };
}

export async function insertDelivery(tx: Tx, scope: Scope, d: NewDelivery): Promise<void> {
  await tx.query(sql.unsafe`
    INSERT INTO webhook_deliveries (tenant_id, mode, endpoint_id, webhook_id, event_id, event_type, attempt, status,
                                    http_status, error, next_attempt_at, latency_ms, stream_id, seq, stream)
    VALUES (${scope.tenantId}, ${scope.mode}, ${d.endpointId}, ${d.webhookId}, ${d.eventId}, ${d.eventType}, ${d.attempt},
            ${d.status}, ${d.httpStatus}, ${d.error}, ${d.nextAttemptAt}, ${d.latencyMs}, ${d.event.streamId}, ${d.event.seq}, ${d.event.stream})`);
}
