import type { StreamGrant, StreamKind } from '../auth/index.js';
import type { Principal } from '../auth/index.js';
import { ServiceProblem } from '../platform/problems.js';
import type { OperationSpec } from '../schemas/operation.js';
import type { Exchange } from './exchange.js';

/**
 * Credentials of a call. The key comes in the Authorization header. Event
 * streams alone may also be opened by a browser's EventSource, which cannot
 * set headers: with `?ticket=` (a one-time stream ticket, issue 40), or, only
 * where the operator allows it, with the key itself as `?access_token=`,
 * answered with a `Deprecation` header. Either parameter is removed before
 * the query is validated.
 */
export type QueryKeyPolicy = 'refuse' | 'allow';

export interface Credentials {
  authorization: string | undefined;
  rawQuery: string;
  /** A stream ticket to redeem instead of a key. */
  ticket?: string;
  /** The key came in the URL: the answer carries a Deprecation header. */
  deprecated?: boolean;
}

/** The day `?access_token=` was deprecated (RFC 9745: an HTTP date as a structured-field date). */
export const ACCESS_TOKEN_DEPRECATION = `@${Date.UTC(2026, 10, 27) / 1000}`;

/** Which stream an event-stream operation serves, and its path parameter. */
export const STREAM_OF_OPERATION: Readonly<Record<string, { kind: StreamKind; param: string }>> = {
  streamInquiryEvents: { kind: 'inquiry', param: 'inquiry_id' },
  streamMonitorEvents: { kind: 'monitor', param: 'monitor_id' },
  streamCaseEvents: { kind: 'case', param: 'case_id' },
};

export function credentialsOf(op: OperationSpec, ex: Exchange, queryKeys: QueryKeyPolicy): Credentials {
  const header = ex.headers.authorization;
  const inQuery = ex.rawQuery.includes('ticket=') || ex.rawQuery.includes('access_token=');
  if (header || op.success.contentType !== 'text/event-stream' || !inQuery) return { authorization: header, rawQuery: ex.rawQuery };
  const query = new URLSearchParams(ex.rawQuery);
  const ticket = query.get('ticket');
  const token = query.get('access_token');
  query.delete('ticket');
  query.delete('access_token');
  if (ticket) return { authorization: undefined, rawQuery: query.toString(), ticket };
  if (token && queryKeys !== 'allow') {
    throw new ServiceProblem(
      'unauthorized',
      'An API key in the URL is refused: open the stream with a ticket from POST .../events/tickets.',
      {},
      { 'WWW-Authenticate': 'Bearer' },
    );
  }
  return { authorization: token ? `Bearer ${token}` : undefined, rawQuery: query.toString(), deprecated: Boolean(token) };
}

/** The principal a redeemed ticket stands for: the key that minted it, with the scopes it had then. */
export function principalOfGrant(grant: StreamGrant): Principal {
  return { tenantId: grant.tenantId, mode: grant.mode, keyId: grant.keyId, scopes: new Set(grant.scopes), label: `key:${grant.keyId}` };
}
