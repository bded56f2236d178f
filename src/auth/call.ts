import type { Tx } from '../platform/db/pool.js';
import type { FragmentSqlToken } from 'slonik';
import type { Principal } from './authenticate.js';
import type { CallOutcome } from '../platform/outcomes.js';

/** How a call ended (done, created, accepted, removed, connected): the edge maps it to a status, once. */
export type { CallOutcome };

/**
 * One call into a capability, whatever carried it (an HTTP request, a
 * WebSocket frame, a worker's job): who asked, when, and the audit row the
 * call writes. Capabilities take this, never the HTTP exchange; the edge
 * builds it (src/edge/handler.ts adds the request's parts for handlers).
 */

/** What a capability may say about its call for the audit row (the edge fills in the rest). */
export interface AuditFacts {
  action: string;
  target_kind: string | null;
  target_id: string | null;
  purpose: string | null;
  rule: string | null;
  cost_amount: number | null;
  cost_currency: string | null;
}

/** The part of a call that writes its audit row: enough for a command run by a worker too. */
export interface AuditSink {
  audit: AuditFacts;
  /**
   * Writes this call's audit row inside the command's own transaction, so it
   * commits with the effect or not at all. Call it last in the transaction,
   * with the outcome the call will answer with.
   */
  auditInTx(tx: Tx, outcome: CallOutcome): Promise<void>;
  /**
   * This call's audit row as a statement fragment, in place of auditInTx, for
   * a command that sends its writes in one last statement (an inquiry's). The
   * call counts as audited from here: a command that then fails takes the
   * row with it, and the failure is audited as any other. Null when the sink
   * leaves the row to someone else (an investigation's hops).
   */
  auditRow(outcome: CallOutcome): FragmentSqlToken | null;
}

export interface CallContext extends AuditSink {
  reqId: string;
  auditId: string;
  occurredAt: string;
  principal: Principal | null;
  /** For streams: makes the audit row durable before the stream's head is written. */
  auditNow(outcome: CallOutcome): Promise<void>;
}
