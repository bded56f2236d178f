import type { ConnectionOptions, Queue } from 'bullmq';
import { openRedis, type RedisClient, type RedisTarget } from './client.js';
import type { RedisTopology } from './topology.js';

/**
 * BullMQ's connections on any topology, and the key prefix its queues use.
 *
 * - One node and Sentinel: options, from which BullMQ opens its own
 *   connections (ioredis follows the sentinels' primary for each of them).
 * - Cluster: two Cluster clients, one for producers (fail fast: the outbox
 *   keeps the work while Redis is away) and one for workers (their commands
 *   wait for a reconnect; each worker duplicates it for its blocking reads).
 *
 * On a cluster every key a BullMQ script touches must be in one slot, so the
 * prefix becomes a hash tag, `{tas}`: all of a deployment's queues share one
 * slot (one master carries the job traffic; docs/scaling.md says when that
 * matters). On one node and on Sentinel the prefix is unchanged, so an
 * existing deployment keeps its queues.
 */
export interface BullConnections {
  producer: ConnectionOptions;
  worker: ConnectionOptions;
  prefix: string;
  /** How many replicas must have a job before the relay counts it added (awaitReplicas); 0: none. */
  replicas: number;
  close(): Promise<void>;
}

/**
 * `waitReplicas` unset: 1 on Sentinel (which guards a primary with at least
 * one replica), 0 elsewhere (one node has none). On a cluster it must stay 0.
 */
export function bullConnections(target: RedisTarget, prefix: string, waitReplicas?: number): BullConnections {
  const t: RedisTopology = typeof target === 'string' ? { kind: 'single', url: target } : target;
  const replicas = waitReplicas ?? (t.kind === 'sentinel' ? 1 : 0);
  // WAIT counts the writes of one connection to one node; on a cluster the client would send it to
  // any node, so a count there would prove nothing. Refused rather than trusted.
  if (t.kind === 'cluster' && replicas > 0)
    throw new Error('TAS_REDIS_WAIT_REPLICAS is not supported on a Redis Cluster; leave it unset or 0');
  if (t.kind === 'cluster') {
    const producer = openRedis(t, { maxRetriesPerRequest: null, lazyConnect: true, enableOfflineQueue: false });
    const worker = openRedis(t, { maxRetriesPerRequest: null, lazyConnect: true });
    for (const c of [producer, worker]) c.on('error', () => undefined);
    return {
      producer,
      worker,
      prefix: bullPrefix(t, prefix),
      replicas,
      async close() {
        await Promise.all([quit(producer), quit(worker)]);
      },
    };
  }
  const options = t.kind === 'single' ? bullConnection(t.url) : bullOptions(t);
  return { producer: options, worker: options, prefix: bullPrefix(t, prefix), replicas, close: () => Promise.resolve() };
}

/** The BullMQ prefix for a topology: a hash tag on a cluster, the plain prefix elsewhere. */
export function bullPrefix(target: RedisTarget, prefix: string): string {
  return typeof target !== 'string' && target.kind === 'cluster' ? `{${prefix}}` : prefix;
}

/** BullMQ connection options from REDIS_URL (BullMQ takes ioredis options, not a URL). */
export function bullConnection(redisUrl: string): ConnectionOptions {
  const u = new URL(redisUrl);
  return {
    host: u.hostname,
    port: u.port ? Number(u.port) : 6379,
    ...(u.username ? { username: decodeURIComponent(u.username) } : {}),
    ...(u.password ? { password: decodeURIComponent(u.password) } : {}),
    ...(u.pathname.length > 1 ? { db: Number(u.pathname.slice(1)) } : {}),
    ...(u.protocol === 'rediss:' ? { tls: {} } : {}),
    // Required by BullMQ workers' blocking commands.
    maxRetriesPerRequest: null,
  };
}

function bullOptions(t: Extract<RedisTopology, { kind: 'sentinel' }>): ConnectionOptions {
  return {
    sentinels: t.sentinels,
    name: t.name,
    ...(t.sentinelPassword ? { sentinelPassword: t.sentinelPassword } : {}),
    ...(t.auth.username ? { username: t.auth.username } : {}),
    ...(t.auth.password ? { password: t.auth.password } : {}),
    ...(t.auth.db !== undefined ? { db: t.auth.db } : {}),
    ...(t.auth.tls ? { tls: {} } : {}),
    failoverDetector: true,
    // A command that reached the old primary after it became a replica is resent to the new one.
    reconnectOnError: (err: Error) => (err.message.startsWith('READONLY') ? 2 : false),
    maxRetriesPerRequest: null,
  };
}

async function quit(c: RedisClient): Promise<void> {
  await c.quit().catch(() => c.disconnect());
}

/**
 * Waits until the writes `queue`'s connection made so far have reached
 * `replicas` replicas (Redis WAIT), and fails if they have not within
 * `timeoutMs`. Redis replicates asynchronously: a job a primary accepted in
 * the last moment before a failover is not on the replica that takes over.
 * The relay deletes an outbox row once its job is added, so it asks this
 * first; on a failure the row stays and the sweep adds the job again (its id
 * is deterministic, so a job that did survive is not added twice).
 */
export async function awaitReplicas(queue: Queue, replicas: number, timeoutMs: number): Promise<void> {
  // BullMQ types its connection narrowly; it is the ioredis client it opened (or was given).
  const client = (await queue.client) as unknown as RedisClient;
  const acknowledged = await client.wait(replicas, timeoutMs);
  if (acknowledged < replicas) {
    throw new Error(
      `a job on ${queue.name} reached ${acknowledged} of ${replicas} Redis replicas within ${timeoutMs} ms; kept for a retry`,
    );
  }
}

// A replica in the same data centre acknowledges within a millisecond or two; longer means it is gone or lagging.
export const REPLICA_WAIT_MS = 500;
