import { z } from 'zod';
import { component, dateTime } from '../schemas/common.js';

/**
 * Stream tickets (issue 40): how a browser opens an event stream without an
 * API key in its URL. See src/auth/streamTickets.ts.
 */
export const StreamTicketOut = component(
  'StreamTicketOut',
  'A one-time ticket for one event stream. Open `events_url` (it carries `?ticket=`) before `expires_at`; the ticket is good for one opening only, and a reconnect needs a new one.',
  z.strictObject({
    ticket: z.string().describe('Single-use, short-lived; shown once and never stored in the clear.'),
    events_url: z.string().describe('The stream, with the ticket in its query.'),
    expires_at: dateTime.describe('The ticket must be used before this moment.'),
  }),
);
export type StreamTicketOut = z.infer<typeof StreamTicketOut>;
