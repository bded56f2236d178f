import type { Redis } from 'ioredis';
import { sql } from 'slonik';
import { z } from 'zod';
import { withSystem, type Db, type Mode } from '../db/pool.js';
import { createRedis } from '../redis/client.js';

/**
 * Which event types a tenant's enabled webhook endpoints want, so the relay
 * queues a fan-out job only when somebody listens (most events have no
 * subscriber). Cached per tenant and mode; a registration anywhere clears
 * every process's entry through one Redis channel before it answers, and the
 * short lifetime bounds what a lost message could cost.
 */
// Short enough that a lost invalidation delays a new endpoint's first delivery by at most this.
const TTL_MS = 1000;

export interface WebhookSubscriptions {
  wants(scope: { tenantId: string; mode: Mode }, eventType: string): Promise<boolean>;
  /** Call after a registration commits: every process forgets the tenant's cached types. */
  changed(scope: { tenantId: string; mode: Mode }): Promise<void>;
  close(): Promise<void>;
}

const Types = z.object({ types: z.array(z.string()) });

export async function createWebhookSubscriptions(deps: { db: Db; redisUrl: string; publisher: Redis; prefix: string }): Promise<WebhookSubscriptions> {
  const channel = `${deps.prefix}:webhooks:changed`;
  const cache = new Map<string, { types: ReadonlySet<string>; until: number }>();
  const subscriber = createRedis(deps.redisUrl, { forBullmq: true });
  await subscriber.connect();
  await subscriber.subscribe(channel);
  subscriber.on('message', (ch: string, key: string) => {
    if (ch === channel) cache.delete(key);
  });

  async function load(scope: { tenantId: string; mode: Mode }): Promise<ReadonlySet<string>> {
    // As the system role: the relay is infrastructure and reads across tenants.
    const row = await withSystem(deps.db, (tx) => tx.one(sql.type(Types)`
      SELECT coalesce(array_agg(DISTINCT t), '{}') AS types
      FROM webhook_endpoints, unnest(event_types) AS t
      WHERE tenant_id = ${scope.tenantId} AND mode = ${scope.mode} AND disabled_at IS NULL`));
    return new Set(row.types);
  }

  return {
    async wants(scope, eventType) {
      const key = `${scope.tenantId}:${scope.mode}`;
      const hit = cache.get(key);
      if (hit && hit.until > Date.now()) return hit.types.has(eventType);
      const types = await load(scope);
      cache.set(key, { types, until: Date.now() + TTL_MS });
      return types.has(eventType);
    },
    async changed(scope) {
      const key = `${scope.tenantId}:${scope.mode}`;
      cache.delete(key);
      await deps.publisher.publish(channel, key);
    },
    async close() {
      subscriber.disconnect();
    },
  };
}
