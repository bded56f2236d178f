import type { OperationSpec } from './operation.js';
import { AuditEntryList } from '../audit/schemas.js';
import { PolicyIn, PolicyOut, PolicyOutList } from '../policies/schemas.js';
import { KeyCreate, KeyOut, KeyRotate, KeySummaryList } from '../tenancy/schemas.js';
import {
  WebhookDeliveryList,
  WebhookIn,
  WebhookOut,
  WebhookPatch,
  WebhookRedeliveryOut,
  WebhookSecretRotate,
  WebhookSummary,
  WebhookSummaryList,
} from '../webhooks/schemas.js';
import { Healthz, Liveness, OpenApiDocument } from './health.js';
import { MonitorCreate, MonitorOut } from '../monitors/schemas.js';
import { SessionCloseOut, SessionOpen, SessionOut } from '../sessions/schemas.js';
import { AfterQuery, AuditQuery, CloseSessionQuery } from './queries.js';
import { CORE_OPERATIONS, LAST_EVENT_ID } from './operationsCore.js';
import { CASE_OPERATIONS } from './operationsCases.js';
import { STREAM_TICKET_OPERATIONS } from './operationsStreams.js';
import { CASE_LIST_OPERATIONS } from './operationsCaseList.js';
import { ENTITY_FIND_OPERATIONS } from './operationsEntityFind.js';
import { AUDIT_EXPORT_OPERATIONS } from './operationsAuditExport.js';
import { ExportKeySet } from '../cases/schemas.js';

/**
 * Every operation of the contract (SPEC.md "Endpoints"), once. The router
 * serves exactly these and the OpenAPI document is generated from them.
 */

const STANDING_OPERATIONS: readonly OperationSpec[] = [
  {
    operationId: 'createMonitor',
    replayable: true,
    method: 'post',
    path: '/v1/monitors',
    tag: 'Monitors',
    auth: 'monitors',
    summary: 'Open a standing watch on a subject',
    body: MonitorCreate,
    success: { status: 201, description: 'The monitor.', schema: MonitorOut },
    validation: true,
  },
  {
    operationId: 'getMonitor',
    method: 'get',
    path: '/v1/monitors/{monitor_id}',
    tag: 'Monitors',
    auth: 'monitors',
    summary: 'Read a monitor and its last assessment',
    params: { monitor_id: 'uuid' },
    success: { status: 200, description: 'The monitor.', schema: MonitorOut },
    validation: true,
  },
  {
    operationId: 'deleteMonitor',
    method: 'delete',
    path: '/v1/monitors/{monitor_id}',
    tag: 'Monitors',
    auth: 'monitors',
    summary: 'End a watch and its schedule',
    params: { monitor_id: 'uuid' },
    success: { status: 204, description: 'The watch is closed.' },
    validation: true,
  },
  {
    operationId: 'streamMonitorEvents',
    method: 'get',
    path: '/v1/monitors/{monitor_id}/events',
    tag: 'Monitors',
    auth: 'monitors',
    summary: 'Stream monitor triggers (SSE)',
    description: 'Events: `MonitorTriggered`.',
    params: { monitor_id: 'uuid' },
    query: AfterQuery,
    headers: [LAST_EVENT_ID],
    success: {
      status: 200,
      description:
        'Server-sent events; each `data:` of an event with an `id:` is an EventEnvelope. Two live signals carry no `id:` (never stored, never replayed): `StreamEnding` ({stream_id, reason}) just before the server ends the response (`shutdown`: reconnect with Last-Event-ID; `monitor_deleted`, `key_revoked`, `key_expired`: do not), and on monitor streams `MonitorChecked` ({stream_id, checked_at, unchanged}) after a rescan that changed nothing.',
      contentType: 'text/event-stream',
    },
    validation: true,
  },
  {
    operationId: 'openSession',
    method: 'post',
    path: '/v1/sessions',
    tag: 'Sessions',
    auth: 'sessions',
    summary: 'Open a live intake session (WebSocket)',
    description:
      'Connect to `ws_url` offering the subprotocols `tas.v1` and `tas.token.<token>` (browsers cannot set an ' +
      'Authorization header on a WebSocket); the token is single-use and expires at `expires_at`. Frames are JSON text: ' +
      '`presentation`, `text`, `observation`, `claim`, `close`; each gets `ack` or `refused` (with the rule), and ' +
      '`assessment.issued`, `assessment.revised`, `findings.added` and `session.closed` come back on the same socket. ' +
      'The protocol, limits and close codes are in docs/sessions.md. Purpose and intent are admitted as for an inquiry (rules I13, I14).',
    body: SessionOpen,
    success: { status: 201, description: 'The session, its WebSocket URL and one-time token.', schema: SessionOut },
    validation: true,
  },
  {
    operationId: 'closeSession',
    method: 'post',
    path: '/v1/sessions/{session_id}/close',
    tag: 'Sessions',
    auth: 'sessions',
    summary: 'Close a session and apply its retention mode',
    params: { session_id: 'uuid' },
    query: CloseSessionQuery,
    success: { status: 202, description: 'The close is accepted.', schema: SessionCloseOut },
    validation: true,
  },
];

const CONTROL_OPERATIONS: readonly OperationSpec[] = [
  {
    operationId: 'createKey',
    method: 'post',
    path: '/v1/admin/keys',
    tag: 'Control plane',
    auth: 'admin',
    summary: 'Mint an API key',
    description: 'The secret is shown once and stored only as a salted hash (rule I11).',
    body: KeyCreate,
    success: { status: 201, description: 'The key, with its secret this once.', schema: KeyOut },
    validation: true,
  },
  {
    operationId: 'listKeys',
    method: 'get',
    path: '/v1/admin/keys',
    tag: 'Control plane',
    auth: 'admin',
    summary: "List the tenant's keys of this mode",
    description:
      'Newest first, revoked ones included; never a secret, only its public prefix. An extension of the control plane (issue 18).',
    success: { status: 200, description: 'The keys.', schema: KeySummaryList },
    validation: false,
  },
  {
    operationId: 'rotateKey',
    method: 'post',
    path: '/v1/admin/keys/{key_id}/rotate',
    tag: 'Control plane',
    auth: 'admin',
    summary: 'Rotate an API key',
    description:
      'Mints the successor (same name, scopes and expiry; its secret shown once) and ends the old key after `grace_seconds`. An extension of the control plane (issue 18).',
    params: { key_id: 'uuid' },
    body: KeyRotate,
    success: { status: 201, description: 'The new key, with its secret this once.', schema: KeyOut },
    validation: true,
  },
  {
    operationId: 'revokeKey',
    method: 'delete',
    path: '/v1/admin/keys/{key_id}',
    tag: 'Control plane',
    auth: 'admin',
    summary: 'Revoke an API key',
    params: { key_id: 'uuid' },
    success: { status: 204, description: 'The key is revoked; it now yields 401.' },
    validation: true,
  },
  {
    operationId: 'listPolicies',
    method: 'get',
    path: '/v1/admin/policies',
    tag: 'Control plane',
    auth: 'admin',
    summary: 'List every policy version, current first',
    success: { status: 200, description: 'Policy versions.', schema: PolicyOutList },
    validation: false,
  },
  {
    operationId: 'publishPolicy',
    replayable: true,
    method: 'post',
    path: '/v1/admin/policies',
    tag: 'Control plane',
    auth: 'admin',
    summary: 'Publish a new policy version',
    description: 'Changes labels from now on; never a score or a published assessment.',
    body: PolicyIn,
    success: { status: 201, description: 'The published version, now current.', schema: PolicyOut },
    validation: true,
  },
  {
    operationId: 'createWebhook',
    method: 'post',
    path: '/v1/admin/webhooks',
    tag: 'Control plane',
    auth: 'admin',
    summary: 'Register a webhook endpoint',
    body: WebhookIn,
    success: { status: 201, description: 'The webhook, with its signing secret this once.', schema: WebhookOut },
    validation: true,
  },
  {
    operationId: 'listWebhooks',
    method: 'get',
    path: '/v1/admin/webhooks',
    tag: 'Control plane',
    auth: 'admin',
    summary: "List the tenant's webhooks of this mode",
    description: 'Oldest first, deleted ones left out; never a secret. An extension of the control plane (issue 18).',
    success: { status: 200, description: 'The webhooks.', schema: WebhookSummaryList },
    validation: false,
  },
  {
    operationId: 'getWebhook',
    method: 'get',
    path: '/v1/admin/webhooks/{webhook_id}',
    tag: 'Control plane',
    auth: 'admin',
    summary: 'Read one webhook',
    description: 'Never its secret. An extension of the control plane (issue 18).',
    params: { webhook_id: 'uuid' },
    success: { status: 200, description: 'The webhook.', schema: WebhookSummary },
    validation: true,
  },
  {
    operationId: 'updateWebhook',
    method: 'patch',
    path: '/v1/admin/webhooks/{webhook_id}',
    tag: 'Control plane',
    auth: 'admin',
    summary: 'Change a webhook',
    description:
      'Only the fields given change; a new `url` passes rule W01 again. `enabled: false` pauses deliveries, `true` resumes them. An extension of the control plane (issue 18).',
    params: { webhook_id: 'uuid' },
    body: WebhookPatch,
    success: { status: 200, description: 'The webhook as it now is.', schema: WebhookSummary },
    validation: true,
  },
  {
    operationId: 'rotateWebhookSecret',
    method: 'post',
    path: '/v1/admin/webhooks/{webhook_id}/rotate-secret',
    tag: 'Control plane',
    auth: 'admin',
    summary: "Rotate a webhook's signing secret",
    description:
      'The new secret is in this answer and nowhere else. During `grace_seconds` each delivery carries two signatures, one per secret, in `webhook-signature`. An extension of the control plane (issue 18).',
    params: { webhook_id: 'uuid' },
    body: WebhookSecretRotate,
    success: { status: 200, description: 'The webhook with its new secret, this once.', schema: WebhookOut },
    validation: true,
  },
  {
    operationId: 'redeliverWebhookMessage',
    method: 'post',
    path: '/v1/admin/webhooks/{webhook_id}/deliveries/{message_id}/redeliver',
    tag: 'Control plane',
    auth: 'admin',
    summary: 'Deliver one message again',
    description:
      'Queues the message (a `message_id` of the delivery log) for a new round of attempts on the retry schedule, with the same `webhook-id`. 409 when the endpoint is disabled or the message predates the log keeping its event. An extension of the control plane (issue 18).',
    params: { webhook_id: 'uuid', message_id: 'string' },
    success: { status: 202, description: 'Queued.', schema: WebhookRedeliveryOut },
    validation: true,
  },
  {
    operationId: 'deleteWebhook',
    method: 'delete',
    path: '/v1/admin/webhooks/{webhook_id}',
    tag: 'Control plane',
    auth: 'admin',
    summary: 'Delete a webhook',
    description:
      'No further deliveries, queued retries included; its delivery log stays readable. An extension of the control plane (issue 18).',
    params: { webhook_id: 'uuid' },
    success: { status: 204, description: 'Deleted.' },
    validation: true,
  },
  {
    operationId: 'listWebhookDeliveries',
    method: 'get',
    path: '/v1/admin/webhooks/{webhook_id}/deliveries',
    tag: 'Control plane',
    auth: 'admin',
    summary: 'Read the delivery log of a webhook',
    description:
      'Every attempt, oldest first (the last 1,000): when, which event, the HTTP status, our neutral error and the next retry. An extension of the control plane (issue 18).',
    params: { webhook_id: 'uuid' },
    success: { status: 200, description: 'The attempts.', schema: WebhookDeliveryList },
    validation: true,
  },
  {
    operationId: 'listAudit',
    method: 'get',
    path: '/v1/admin/audit',
    tag: 'Control plane',
    auth: 'admin',
    summary: 'Read the audit trail',
    description: 'Every call and analyst action with its cost, oldest first.',
    query: AuditQuery,
    success: { status: 200, description: 'Audit entries.', schema: AuditEntryList },
    validation: true,
  },
];

const SERVICE_OPERATIONS: readonly OperationSpec[] = [
  {
    operationId: 'getHealth',
    method: 'get',
    path: '/v1/health',
    tag: 'Health',
    auth: 'key',
    summary: 'Liveness, for a keyed caller',
    success: { status: 200, description: 'String pairs.', schema: Liveness },
    validation: false,
  },
  {
    operationId: 'getHealthz',
    method: 'get',
    path: '/healthz',
    tag: 'Health',
    auth: 'open',
    summary: 'Build, tools, gateway and database health',
    success: { status: 200, description: 'Free-form health report; nothing about any tenant.', schema: Healthz },
    validation: false,
  },
  {
    operationId: 'getOpenApi',
    method: 'get',
    path: '/openapi.json',
    tag: 'Documentation',
    auth: 'open',
    summary: 'This OpenAPI 3.1 document',
    success: { status: 200, description: 'The document.', schema: OpenApiDocument },
    validation: false,
  },
  {
    operationId: 'getExportKeys',
    method: 'get',
    path: '/.well-known/tas-export-keys.json',
    tag: 'Documentation',
    auth: 'open',
    summary: 'Public keys that sign evidentiary bundles',
    description:
      'A JWKS of Ed25519 keys (kty OKP), each with its kid; keys rotated out stay listed so older bundles still verify. An extension of the contract (issue 14, DESIGN.md section 3).',
    success: { status: 200, description: 'The JWKS.', schema: ExportKeySet },
    validation: false,
  },
  {
    operationId: 'getDocs',
    method: 'get',
    path: '/docs',
    tag: 'Documentation',
    auth: 'open',
    summary: 'Browsable API reference',
    success: { status: 200, description: 'An HTML page rendering /openapi.json.', contentType: 'text/html' },
    validation: false,
  },
];

export const OPERATIONS: readonly OperationSpec[] = [
  ...CORE_OPERATIONS,
  ...CASE_OPERATIONS,
  ...STANDING_OPERATIONS,
  ...CONTROL_OPERATIONS,
  ...SERVICE_OPERATIONS,
  ...STREAM_TICKET_OPERATIONS,
  ...CASE_LIST_OPERATIONS,
  ...ENTITY_FIND_OPERATIONS,
  ...AUDIT_EXPORT_OPERATIONS,
];
