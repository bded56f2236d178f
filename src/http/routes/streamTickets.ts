import { createStreamTickets, type StreamKind, type StreamTickets } from '../../auth/streamTickets.js';
import type { Principal } from '../../auth/authenticate.js';
import type { Config } from '../../config.js';
import { keyStateOf, type KeyState } from '../../db/keys.js';
import type { RedisClient } from '../../redis/client.js';
import { requirePrincipal } from '../../auth/principal.js';
import { streamOwner } from '../../db/events.js';
import { withTenant, type Db } from '../../db/pool.js';
import { ServiceProblem } from '../../platform/problems.js';
import type { StreamTicketOut } from '../../schemas/streamTickets.js';
import type { Handler } from '../handler.js';

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
  return STREAMS.map(([operationId, kind, param, segment]) => [operationId, async (ctx) => {
    const principal = requirePrincipal(ctx);
    const streamId = ctx.params[param]!.toLowerCase();
    ctx.audit.target_kind = kind;
    ctx.audit.target_id = streamId;
    const owned = await withTenant(deps.db, principal, (tx) => streamOwner(tx, streamId, kind));
    if (!owned) throw new ServiceProblem('not-found', `No such ${kind}.`);
    const { ticket, expiresAt } = await deps.tickets.mint({
      tenantId: principal.tenantId, mode: principal.mode, keyId: principal.keyId, scopes: [...principal.scopes], kind, streamId,
    });
    const body: StreamTicketOut = {
      ticket,
      events_url: `${deps.publicUrl()}/v1/${segment}/${streamId}/events?ticket=${ticket}`,
      expires_at: expiresAt,
    };
    return { status: 201, headers: { 'Cache-Control': 'no-store' }, body };
  }]);
}

/** Tickets and the key look-ups streams need, from the app's own dependencies. */
export function createStreamAccess(deps: { db: Db; redis: RedisClient; config: Pick<Config, 'TAS_REDIS_PREFIX' | 'TAS_STREAM_TICKET_TTL_SECONDS'> }) {
  const tickets = createStreamTickets({ redis: deps.redis, prefix: deps.config.TAS_REDIS_PREFIX, ttlSeconds: deps.config.TAS_STREAM_TICKET_TTL_SECONDS });
  const keyState = (principal: Principal): Promise<KeyState> => withTenant(deps.db, principal, (tx) => keyStateOf(tx, principal.keyId));
  return {
    tickets,
    keyState,
    redeem: tickets.redeem,
    keyActive: async (principal: Principal) => (await keyState(principal)).kind === 'active',
  };
}
