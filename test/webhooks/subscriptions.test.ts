import { randomBytes, randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Db } from '../../src/platform/db/pool.js';
import { createRedis } from '../../src/platform/redis/client.js';
import { createWebhookSubscriptions, type WebhookSubscriptions } from '../../src/webhooks/subscriptions.js';
import { countingDb } from '../support/countingDb.js';
import { cloneDatabase, ownerClient } from '../support/database.js';

/**
 * The relay's cache of which event types a tenant's webhooks want: one
 * question to PostgreSQL per tenant at a time, a registration in another
 * process seen at once (through Redis), and an answer read while a
 * registration cleared the entry never kept.
 */
const REDIS_URL = 'redis://127.0.0.1:6379';
let database: { url: string; drop: () => Promise<void> };
let owner: pg.Client;
let db: Db;
let publisher: Redis;
const prefix = `tastest:${randomBytes(4).toString('hex')}`;
const opened: WebhookSubscriptions[] = [];

beforeAll(async () => {
  database = await cloneDatabase();
  owner = await ownerClient(database.url);
  db = await createDb(database.url);
  publisher = createRedis(REDIS_URL);
  await publisher.connect();
});

afterAll(async () => {
  for (const s of opened) await s.close();
  publisher?.disconnect();
  await db?.end();
  await owner?.end();
  await database?.drop();
});

async function subscriptions(over: Db): Promise<WebhookSubscriptions> {
  const s = await createWebhookSubscriptions({ db: over, redisUrl: REDIS_URL, publisher, prefix });
  opened.push(s);
  return s;
}

async function newTenant(): Promise<{ tenantId: string; mode: 'live' }> {
  const tenantId = randomUUID();
  await owner.query(`INSERT INTO tenants (id, name) VALUES ($1, $2)`, [tenantId, `hooks-${tenantId}`]);
  return { tenantId, mode: 'live' };
}

async function registerEndpoint(scope: { tenantId: string }, eventType: string): Promise<void> {
  await owner.query(
    `
    INSERT INTO webhook_endpoints (id, tenant_id, mode, url, event_types, secret_sealed)
    VALUES ($1, $2, 'live', 'https://hooks.example.org/in', ARRAY[$3], '\\x00')`,
    [randomUUID(), scope.tenantId, eventType],
  );
}

describe('webhook subscriptions', () => {
  it('asks PostgreSQL once for many concurrent relay passes, then answers from memory', async () => {
    const counting = countingDb(db, 'transaction');
    const subs = await subscriptions(counting.db);
    const scope = await newTenant();
    await registerEndpoint(scope, 'InquiryConcluded');
    const answers = await Promise.all(Array.from({ length: 20 }, () => subs.wants(scope, 'InquiryConcluded')));
    expect(answers.every((a) => a)).toBe(true);
    expect(counting.calls()).toBe(1);
    expect(await subs.wants(scope, 'MonitorChecked')).toBe(false);
    expect(counting.calls()).toBe(1);
  });

  it('sees a registration made in another process without waiting for the entry to expire', async () => {
    const relaying = await subscriptions(db);
    const registering = await subscriptions(db);
    const scope = await newTenant();
    expect(await relaying.wants(scope, 'InquiryConcluded')).toBe(false);
    await registerEndpoint(scope, 'InquiryConcluded');
    await registering.changed(scope);
    await expect.poll(() => relaying.wants(scope, 'InquiryConcluded'), { timeout: 2000, interval: 20 }).toBe(true);
  });

  it('does not keep an answer that was being read when a registration cleared the entry', async () => {
    const counting = countingDb(db, 'transaction');
    const subs = await subscriptions(counting.db);
    const scope = await newTenant();
    const release = counting.hold();
    const before = subs.wants(scope, 'InquiryConcluded');
    // The read has run (no endpoint yet) and its answer is held; the registration commits and clears the entry meanwhile.
    await expect.poll(() => counting.answered()).toBe(1);
    await registerEndpoint(scope, 'InquiryConcluded');
    await subs.changed(scope);
    release();
    expect(await before).toBe(false);
    // The stale answer was not kept: the next pass reads again and finds the endpoint.
    expect(await subs.wants(scope, 'InquiryConcluded')).toBe(true);
    expect(counting.calls()).toBe(2);
  });
});
