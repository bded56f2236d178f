import type { Principal } from './authenticate.js';
import type { AuditFacts, AuditSink, CallOutcome } from '../platform/outcomes.js';

/**
 * How a call ended (done, created, accepted, removed, connected), which the
 * edge maps to a status once, and the audit sink a command writes its row
 * through. Both live in the platform (src/platform/outcomes.ts) so that the
 * capabilities below auth (policies, registry) can take a call too.
 */
export type { AuditFacts, AuditSink, CallOutcome };

/**
 * One call into a capability, whatever carried it (an HTTP request, a
 * WebSocket frame, a worker's job): who asked, when, and the audit row the
 * call writes. Capabilities take this, never the HTTP exchange; the edge
 * builds it (src/edge/handler.ts adds the request's parts for handlers).
 */

export interface CallContext extends AuditSink {
  reqId: string;
  auditId: string;
  occurredAt: string;
  principal: Principal | null;
  /** For streams: makes the audit row durable before the stream's head is written. */
  auditNow(outcome: CallOutcome): Promise<void>;
}
