import type { CallContext } from '../auth/index.js';
import type { AuditRecord } from '../audit/index.js';
export type { AuditFacts } from '../auth/index.js';
import type { OperationSpec } from '../schemas/operation.js';
import type { Exchange } from './exchange.js';
import type { ValidationFailure } from '../platform/problems.js';

/** A call as a handler sees it: the capability's call context plus the request's own parts. */
export interface HandlerContext<Body = unknown, Query = unknown> extends CallContext {
  ex: Exchange;
  params: Record<string, string>;
  query: Query;
  body: Body;
  /** The request body as a stream, for PUT (uploads); JSON bodies arrive parsed in `body` instead. */
  bodyStream?: AsyncIterable<Buffer>;
}

export type HandlerResult =
  { status: number; body?: unknown; headers?: Record<string, string>; contentType?: string; raw?: string | Buffer } | { streamed: true };

// The pipeline has validated body and query against the operation's schemas before
// the handler runs; a handler states the operation's input type where it reads one.
export type Handler = (ctx: HandlerContext) => Promise<HandlerResult>;

export interface BoundRoute {
  op: OperationSpec;
  handler: Handler | null;
  /** Lets an operation restate a schema failure as one of its rules (e.g. a missing purpose is rule I13). */
  mapValidation?: (failure: ValidationFailure) => ValidationFailure;
}

export function auditRecord(ctx: HandlerContext, status: number): AuditRecord {
  return {
    audit_id: ctx.auditId,
    occurred_at: ctx.occurredAt,
    tenant_id: ctx.principal?.tenantId ?? null,
    mode: ctx.principal?.mode ?? null,
    principal: ctx.principal?.label ?? 'anonymous',
    status,
    request_id: ctx.reqId,
    ...ctx.audit,
  };
}
