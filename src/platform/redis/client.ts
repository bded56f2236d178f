import { Cluster, Redis, type ClusterOptions, type RedisOptions } from 'ioredis';
import type { RedisTopology } from './topology.js';

/**
 * One way to open a Redis connection on any topology (src/platform/redis/topology.ts).
 * A `Cluster` speaks the same commands as a `Redis`; what differs is how keys
 * and channels are placed, which the callers handle where it matters (BullMQ's
 * hash-tagged prefix, the event hub's sharded channels).
 */
export type RedisClient = Redis | Cluster;

/** A URL (one node, as before) or a topology. */
export type RedisTarget = string | RedisTopology;

export interface CreateRedisOptions {
  /** For BullMQ and for plain subscribers: commands may block and wait for a reconnect. */
  forBullmq?: boolean;
}

/**
 * Redis connections fail fast: no offline queue and a short command timeout,
 * so a request never hangs on a Redis that is down (the rate limiter then
 * counts locally, and a call that needs a queue answers 503).
 */
export function createRedis(url: string, opts?: CreateRedisOptions): Redis;
export function createRedis(target: RedisTarget, opts?: CreateRedisOptions): RedisClient;
export function createRedis(target: RedisTarget, opts: CreateRedisOptions = {}): RedisClient {
  const client = opts.forBullmq
    ? // BullMQ's blocking commands need these two settings (see its docs on connections).
      openRedis(target, { maxRetriesPerRequest: null, enableReadyCheck: false, lazyConnect: true })
    : openRedis(target, FAIL_FAST);
  // Connection errors surface where it matters (a failed command, /healthz); ioredis would
  // otherwise print every reconnect attempt as an unhandled error event.
  client.on('error', () => undefined);
  return client;
}

const FAIL_FAST: RedisOptions = {
  lazyConnect: true,
  enableOfflineQueue: false,
  maxRetriesPerRequest: 1,
  commandTimeout: 1000,
  connectTimeout: 2000,
  retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
  // Commands issued in one turn of the event loop (the rate limits of concurrent calls) go out in one write.
  enableAutoPipelining: true,
};

/**
 * Opens a client for `target` with the options a caller would give one node.
 * On a cluster, the options that belong to the cluster as a whole (queueing,
 * pipelining, reconnecting) move to it and the rest apply to each node.
 */
export function openRedis(target: RedisTarget, options: RedisOptions, cluster: Partial<ClusterOptions> = {}): RedisClient {
  const t: RedisTopology = typeof target === 'string' ? { kind: 'single', url: target } : target;
  if (t.kind === 'single') return new Redis(t.url, options);
  const auth = {
    ...(t.auth.username ? { username: t.auth.username } : {}),
    ...(t.auth.password ? { password: t.auth.password } : {}),
    ...(t.auth.tls ? { tls: {} } : {}),
  };
  if (t.kind === 'sentinel') {
    return new Redis({
      ...options,
      ...auth,
      ...(t.auth.db !== undefined ? { db: t.auth.db } : {}),
      sentinels: t.sentinels,
      name: t.name,
      ...(t.sentinelPassword ? { sentinelPassword: t.sentinelPassword } : {}),
      // Told of a failover by the sentinels themselves (+switch-master), not only by a broken connection.
      failoverDetector: true,
      // Still connected to the old primary, now a replica: reconnect (asking the sentinels again) and resend.
      reconnectOnError: readOnlyReply,
    });
  }
  const { lazyConnect, enableOfflineQueue, enableAutoPipelining, enableReadyCheck, retryStrategy, ...node } = options;
  return new Cluster(t.nodes, {
    ...(lazyConnect !== undefined ? { lazyConnect } : {}),
    ...(enableOfflineQueue !== undefined ? { enableOfflineQueue } : {}),
    ...(enableAutoPipelining !== undefined ? { enableAutoPipelining } : {}),
    ...(enableReadyCheck !== undefined ? { enableReadyCheck } : {}),
    // The cluster as a whole reconnects as one node would; its nodes follow MOVED and slot refreshes.
    ...(retryStrategy ? { clusterRetryStrategy: (times: number) => retryStrategy(times) ?? null } : {}),
    // A failover moves slots within a few seconds: commands wait for the new map instead of failing at once.
    retryDelayOnFailover: 200,
    retryDelayOnClusterDown: 200,
    redisOptions: { ...node, ...auth, reconnectOnError: readOnlyReply },
    ...cluster,
  });
}

function readOnlyReply(err: Error): 2 | false {
  return err.message.startsWith('READONLY') ? 2 : false;
}

export function isCluster(client: RedisClient): client is Cluster {
  return (client as { isCluster?: boolean }).isCluster === true;
}
