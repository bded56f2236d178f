import { sql } from 'slonik';
import { z } from 'zod';
import { withSystem, type Db, type Mode } from '../platform/db/pool.js';
import { createRedis, type RedisClient, type RedisTarget } from '../platform/redis/client.js';

/**
 * Which event types a tenant's enabled webhook endpoints want, so the relay
 * queues a fan-out job only when somebody listens (most events have no
 * subscriber). Cached per tenant and mode; a registration anywhere clears
 * every process's entry through one Redis channel before it answers.
 *
 * Invalidation, not the lifetime, keeps the cache right, so the lifetime is
 * long: with a one-second lifetime the relay asked PostgreSQL about 17 times
 * a second under load (a transaction of four round trips each, 0.4 round
 * trips per inquiry), because every relay pass that found the entry expired
 * asked again at once. Now one question per tenant is in flight at a time;
 * an answer that was being read when a registration cleared the entry is not
 * kept; and every entry is forgotten when the subscription reconnects, since
 * messages sent while it was away are lost.
 */
// A backstop only: an invalidation lost some other way delays a new endpoint's first delivery by at most this.
const TTL_MS = 30_000;

export interface WebhookSubscriptions {
  wants(scope: { tenantId: string; mode: Mode }, eventType: string): Promise<boolean>;
  /** Call after a registration commits: every process forgets the tenant's cached types. */
  changed(scope: { tenantId: string; mode: Mode }): Promise<void>;
  close(): Promise<void>;
}

const Types = z.object({ types: z.array(z.string()) });

interface Entry {
  types: ReadonlySet<string>;
  until: number;
}

export async function createWebhookSubscriptions(deps: {
  db: Db;
  redisUrl: RedisTarget;
  publisher: RedisClient;
  prefix: string;
}): Promise<WebhookSubscriptions> {
  const channel = `${deps.prefix}:webhooks:changed`;
  const cache = new Map<string, Entry>();
  const loading = new Map<string, Promise<ReadonlySet<string>>>();
  // Bumped by every invalidation of a key (and of all keys), so a read that raced one is not cached.
  const generations = new Map<string, number>();
  let allGeneration = 0;
  const generationOf = (key: string) => `${allGeneration}:${generations.get(key) ?? 0}`;
  const forget = (key: string) => {
    cache.delete(key);
    loading.delete(key);
    generations.set(key, (generations.get(key) ?? 0) + 1);
  };
  const forgetAll = () => {
    cache.clear();
    loading.clear();
    allGeneration += 1;
  };

  const subscriber = createRedis(deps.redisUrl, { forBullmq: true });
  await subscriber.connect();
  await subscriber.subscribe(channel);
  subscriber.on('message', (ch: string, key: string) => {
    if (ch === channel) forget(key);
  });
  subscriber.on('ready', forgetAll);

  async function load(scope: { tenantId: string; mode: Mode }): Promise<ReadonlySet<string>> {
    // As the system role: the relay is infrastructure and reads across tenants.
    const row = await withSystem(deps.db, (tx) =>
      tx.one(sql.type(Types)`
      SELECT coalesce(array_agg(DISTINCT t), '{}') AS types
      FROM webhook_endpoints, unnest(event_types) AS t
      WHERE tenant_id = ${scope.tenantId} AND mode = ${scope.mode} AND disabled_at IS NULL`),
    );
    return new Set(row.types);
  }

  function typesOf(scope: { tenantId: string; mode: Mode }): Promise<ReadonlySet<string>> {
    const key = `${scope.tenantId}:${scope.mode}`;
    const hit = cache.get(key);
    if (hit && hit.until > Date.now()) return Promise.resolve(hit.types);
    const inFlight = loading.get(key);
    if (inFlight) return inFlight;
    const startedAt = generationOf(key);
    const read = load(scope)
      .then((types) => {
        if (generationOf(key) === startedAt) cache.set(key, { types, until: Date.now() + TTL_MS });
        return types;
      })
      .finally(() => {
        if (loading.get(key) === read) loading.delete(key);
      });
    loading.set(key, read);
    return read;
  }

  return {
    async wants(scope, eventType) {
      return (await typesOf(scope)).has(eventType);
    },
    async changed(scope) {
      const key = `${scope.tenantId}:${scope.mode}`;
      forget(key);
      await deps.publisher.publish(channel, key);
    },
    close() {
      subscriber.disconnect();
      return Promise.resolve();
    },
  };
}
