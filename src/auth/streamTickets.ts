import { createHash, randomBytes } from 'node:crypto';
import type { RedisClient } from '../platform/redis/client.js';

/**
 * Stream tickets (issue 40). A browser's EventSource cannot send an
 * Authorization header, and an API key in a URL is written down by every
 * proxy, access log and browser history on the way. So a page asks its own
 * backend (or calls with its key) `POST .../events/tickets` and opens the
 * stream with `?ticket=`: a random token that names one stream, is good for
 * one opening, and expires within a minute. What a ticket in a log gives
 * away is a stream that was already opened with it.
 *
 * Tickets live in Redis under the SHA-256 of the token (a dump of Redis
 * holds no usable ticket); redeeming is GETDEL, so two openings racing with
 * one ticket cannot both get it, on any node.
 */
export type StreamKind = 'inquiry' | 'monitor' | 'case';

export interface StreamGrant {
  tenantId: string;
  mode: 'live' | 'test';
  keyId: string;
  scopes: string[];
  kind: StreamKind;
  streamId: string;
}

export interface StreamTickets {
  /** A new ticket for `grant`'s one stream, and when it stops being accepted. */
  mint(grant: StreamGrant): Promise<{ ticket: string; expiresAt: string }>;
  /** The grant, once: null for an unknown, used or expired ticket, or one for another stream. */
  redeem(ticket: string, kind: StreamKind, streamId: string): Promise<StreamGrant | null>;
}

const TICKET_PREFIX = 'tst_';
// 256 random bits, base64url: as hard to guess as any key, short enough for a URL.
const TICKET_BYTES = 32;
const TICKET_PATTERN = /^tst_[A-Za-z0-9_-]{43}$/;

export function createStreamTickets(deps: { redis: RedisClient; prefix: string; ttlSeconds: number; now?: () => number }): StreamTickets {
  const now = deps.now ?? Date.now;
  const keyOf = (ticket: string) => `${deps.prefix}:stream-ticket:${createHash('sha256').update(ticket).digest('hex')}`;
  return {
    async mint(grant) {
      const ticket = TICKET_PREFIX + randomBytes(TICKET_BYTES).toString('base64url');
      await deps.redis.set(keyOf(ticket), JSON.stringify(grant), 'EX', deps.ttlSeconds);
      return { ticket, expiresAt: new Date(now() + deps.ttlSeconds * 1000).toISOString() };
    },
    async redeem(ticket, kind, streamId) {
      // A malformed ticket costs no Redis round trip.
      if (!TICKET_PATTERN.test(ticket)) return null;
      const raw = await deps.redis.getdel(keyOf(ticket));
      if (raw === null) return null;
      const grant = JSON.parse(raw) as StreamGrant;
      return grant.kind === kind && grant.streamId === streamId.toLowerCase() ? grant : null;
    },
  };
}
