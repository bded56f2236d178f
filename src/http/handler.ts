import type { Principal } from '../auth/authenticate.js';
import type { AuditRecord } from '../db/audit.js';
import type { Tx } from '../db/pool.js';
import type { OperationSpec } from '../schemas/operation.js';
import type { Exchange } from './exchange.js';
import type { ValidationFailure } from './problems.js';

/** What a handler may say about its call for the audit row (the pipeline fills in the rest). */
export interface AuditFacts {
  action: string;
  target_kind: string | null;
  target_id: string | null;
  purpose: string | null;
  rule: string | null;
  cost_amount: number | null;
  cost_currency: string | null;
}

export interface HandlerContext<Body = unknown, Query = unknown> {
  ex: Exchange;
  reqId: string;
  auditId: string;
  occurredAt: string;
  principal: Principal | null;
  params: Record<string, string>;
  query: Query;
  body: Body;
  audit: AuditFacts;
  /**
   * Writes this call's audit row inside the handler's own transaction, so it
   * commits with the effect or not at all. Call it last in the transaction,
   * with the status the handler will answer.
   */
  auditInTx(tx: Tx, status: number): Promise<void>;
  /** For streams: makes the audit row durable before the stream's head is written. */
  auditNow(status: number): Promise<void>;
}

export type HandlerResult =
  | { status: number; body?: unknown; headers?: Record<string, string>; contentType?: string; raw?: string | Buffer }
  | { streamed: true };

export type Handler = (ctx: HandlerContext<any, any>) => Promise<HandlerResult>;

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
