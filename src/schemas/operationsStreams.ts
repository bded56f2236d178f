import type { OperationSpec, Scope } from './operation.js';
import { StreamTicketOut } from '../events/ticketSchemas.js';

/**
 * Minting a stream ticket: `POST` on a stream's `/events/tickets`, with the
 * scope the stream itself needs (issue 40, src/auth/streamTickets.ts).
 */
function ticketOperation(operationId: string, path: string, tag: string, auth: Scope, param: string, what: string): OperationSpec {
  return {
    operationId,
    method: 'post',
    path,
    tag,
    auth,
    summary: `Mint a one-time ticket for ${what}'s event stream`,
    description:
      'An extension of the contract (issue 40). For a browser EventSource, which cannot send an Authorization header: call this with the key (from the ' +
      "page's own backend, or with a key the page holds), then open `events_url`, which carries `?ticket=`. A ticket names " +
      'one stream, opens it once and expires within a minute (TAS_STREAM_TICKET_TTL_SECONDS), so a URL written to a log ' +
      'or a browser history opens nothing. An API key in the URL (`?access_token=`) is refused unless the operator allows it.',
    params: { [param]: 'uuid' },
    success: { status: 201, description: 'The ticket and the stream URL carrying it.', schema: StreamTicketOut },
    validation: true,
  };
}

export const STREAM_TICKET_OPERATIONS: readonly OperationSpec[] = [
  ticketOperation(
    'mintInquiryEventsTicket',
    '/v1/inquiries/{inquiry_id}/events/tickets',
    'Inquiries',
    'inquiries',
    'inquiry_id',
    'an inquiry',
  ),
  ticketOperation('mintMonitorEventsTicket', '/v1/monitors/{monitor_id}/events/tickets', 'Monitors', 'monitors', 'monitor_id', 'a monitor'),
  ticketOperation('mintCaseEventsTicket', '/v1/cases/{case_id}/events/tickets', 'Cases', 'cases', 'case_id', 'a case'),
];
