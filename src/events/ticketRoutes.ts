import type { StreamKind, StreamTickets } from '../auth/index.js';
import { requirePrincipal } from '../auth/index.js';
import { streamOwner } from './store.js';
import { withTenant, type Db } from '../platform/db/pool.js';
import { ServiceProblem } from '../platform/problems.js';
import type { StreamTicketOut } from './ticketSchemas.js';
import type { Handler } from '../edge/handler.js';

/**
 * POST /v1/{inquiries|monitors|cases}/{id}/events/tickets: a one-time ticket
 * for one stream the key may read (src/auth/streamTickets.ts). The stream
 * must be the caller's: another tenant's id is the same 404 as an unknown one.
 */
const STREAMS: readonly [string, StreamKind, string, string][] = [
  ['mintInquiryEventsTicket', 'inquiry', 'inquiry_id', 'inquiries'],
  ['mintMonitorEventsTicket', 'monitor', 'monitor_id', 'monitors'],
  ['mintCaseEventsTicket', 'case', 'case_id', 'cases'],
];

export function streamTicketHandlers(deps: { db: Db; tickets: StreamTickets; publicUrl: () => string }): [string, Handler][] {
  return STREAMS.map(([operationId, kind, param, segment]) => [
    operationId,
    async (ctx) => {
      const principal = requirePrincipal(ctx);
      const streamId = ctx.params[param]!.toLowerCase();
      ctx.audit.target_kind = kind;
      ctx.audit.target_id = streamId;
      const owned = await withTenant(deps.db, principal, (tx) => streamOwner(tx, streamId, kind));
      if (!owned) throw new ServiceProblem('not-found', `No such ${kind}.`);
      const { ticket, expiresAt } = await deps.tickets.mint({
        tenantId: principal.tenantId,
        mode: principal.mode,
        keyId: principal.keyId,
        scopes: [...principal.scopes],
        kind,
        streamId,
      });
      const body: StreamTicketOut = {
        ticket,
        events_url: `${deps.publicUrl()}/v1/${segment}/${streamId}/events?ticket=${ticket}`,
        expires_at: expiresAt,
      };
      return { status: 201, headers: { 'Cache-Control': 'no-store' }, body };
    },
  ]);
}
