import { Redis } from 'ioredis';

/**
 * Redis connections fail fast: no offline queue and a short command timeout,
 * so a request never hangs on a Redis that is down (the rate limiter then
 * counts locally, and a call that needs a queue answers 503).
 */
export function createRedis(url: string, opts: { forBullmq?: boolean } = {}): Redis {
  const client = opts.forBullmq
    // BullMQ's blocking commands need these two settings (see its docs on connections).
    ? new Redis(url, { maxRetriesPerRequest: null, enableReadyCheck: false, lazyConnect: true })
    : plainClient(url);
  // Connection errors surface where it matters (a failed command, /healthz); ioredis would
  // otherwise print every reconnect attempt as an unhandled error event.
  client.on('error', () => undefined);
  return client;
}

function plainClient(url: string): Redis {
  return new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: 1000,
    connectTimeout: 2000,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
    // Commands issued in one turn of the event loop (the rate limits of concurrent calls) go out in one write.
    enableAutoPipelining: true,
  });
}
