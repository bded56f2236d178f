import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { migrate } from '../../src/platform/db/migrate.js';
import { startPgBouncer } from '../../scripts/lib/pgbouncer.js';
import { startRedisCluster, startRedisSentinel } from '../../scripts/lib/redisServers.js';

/**
 * Once per run: a migrated template database. Every test file clones it
 * (CREATE DATABASE ... TEMPLATE), which takes milliseconds instead of a
 * migration run, and gives each file a database of its own. The template's
 * name is unique to the run, so overlapping runs never trip over each other.
 */
const ADMIN_URL = process.env.TEST_ADMIN_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export default async function setup(): Promise<() => Promise<void>> {
  const template = `tas_test_template_${randomBytes(4).toString('hex')}`;
  process.env.TAS_TEST_TEMPLATE = template;
  const url = new URL(ADMIN_URL);
  url.pathname = `/${template}`;
  await migrate(url.toString());
  // TAS_TEST_DB_POOLER=pgbouncer: every test service's logins go through one PgBouncer in
  // transaction pooling (test/support/service.ts), so the suite's flows run as behind a pooler.
  const bouncer = process.env.TAS_TEST_DB_POOLER === 'pgbouncer' ? await startPgBouncer({ poolSize: 5 }) : null;
  if (bouncer) process.env.TAS_TEST_PGBOUNCER_PORT = String(bouncer.port);
  // TAS_TEST_REDIS=cluster | sentinel: every test service talks to a three-master Redis Cluster or a
  // Sentinel-guarded primary started here, instead of the Redis on 6379.
  const redis =
    process.env.TAS_TEST_REDIS === 'cluster'
      ? await startRedisCluster()
      : process.env.TAS_TEST_REDIS === 'sentinel'
        ? await startRedisSentinel()
        : null;
  if (redis && 'nodes' in redis) process.env.TAS_TEST_REDIS_CLUSTER_NODES = redis.nodes;
  if (redis && 'sentinels' in redis)
    Object.assign(process.env, { TAS_TEST_REDIS_SENTINELS: redis.sentinels, TAS_TEST_REDIS_SENTINEL_NAME: redis.name });
  return async () => {
    await bouncer?.stop();
    await redis?.stop();
    const admin = new pg.Client({ connectionString: ADMIN_URL });
    await admin.connect();
    try {
      await admin.query(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`);
    } finally {
      await admin.end();
    }
  };
}
