import type { Config } from '../platform/config.js';
import { withTenant, type Db } from '../platform/db/pool.js';
import type { RedisClient } from '../platform/redis/client.js';
import type { Principal } from './authenticate.js';
import { keyStateOf, type KeyState } from './store.js';
import { createStreamTickets } from './streamTickets.js';

/** Tickets and the key look-ups streams need, from the app's own dependencies. */
export function createStreamAccess(deps: {
  db: Db;
  redis: RedisClient;
  config: Pick<Config, 'TAS_REDIS_PREFIX' | 'TAS_STREAM_TICKET_TTL_SECONDS'>;
}) {
  const tickets = createStreamTickets({
    redis: deps.redis,
    prefix: deps.config.TAS_REDIS_PREFIX,
    ttlSeconds: deps.config.TAS_STREAM_TICKET_TTL_SECONDS,
  });
  const keyState = (principal: Principal): Promise<KeyState> => withTenant(deps.db, principal, (tx) => keyStateOf(tx, principal.keyId));
  return {
    tickets,
    keyState,
    redeem: tickets.redeem.bind(tickets),
    keyActive: async (principal: Principal) => (await keyState(principal)).kind === 'active',
  };
}
