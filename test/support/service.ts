import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { Redis } from 'ioredis';
import { createLogger } from '../../src/platform/logger.js';
import { loadConfig, type Config } from '../../src/platform/config.js';
import { startService, type Service } from '../../src/root/service.js';
import { provisionTenant, type ProvisionedTenant } from '../../src/tenancy/provision.js';
import { cloneDatabase } from './database.js';

/**
 * The real service in-process on port 0, on its own cloned database and its
 * own Redis prefix, with every log line captured so tests can search them.
 */
export interface TestService {
  base: string;
  config: Config;
  service: Service;
  tenant: ProvisionedTenant;
  logs: string[];
  dbUrl: string;
  provision(name: string, investigative?: boolean): Promise<ProvisionedTenant>;
  stop(): Promise<void>;
}

/**
 * `throughPooler` rewrites the service's login URL (on the cloned database) to
 * reach it through a connection pooler; migrations and the test's own reads
 * keep going straight to the server.
 */
export async function startTestService(
  env: Record<string, string> = {},
  opts: { workers?: boolean; throughPooler?: (serviceUrl: string) => string } = {},
): Promise<TestService> {
  const db = await cloneDatabase();
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, cb) {
      logs.push(String(chunk));
      cb();
    },
  });
  // The suite run behind PgBouncer (TAS_TEST_DB_POOLER=pgbouncer, test/support/globalSetup.ts).
  const bouncerPort = process.env.TAS_TEST_PGBOUNCER_PORT;
  const throughPooler = opts.throughPooler ?? (bouncerPort ? (url: string) => viaPort(url, bouncerPort) : (url: string) => url);
  const config = loadConfig({
    ...(opts.throughPooler || bouncerPort ? { TAS_DB_POOLER: 'transaction' } : {}),
    ...redisTopologyUnderTest(),
    NODE_ENV: 'test',
    PORT: '0',
    HOST: '127.0.0.1',
    // The service logs in as tas_app (000009), as in production; migrations run as the owner.
    DATABASE_URL: throughPooler(serviceLoginUrl(db.url)),
    DATABASE_OWNER_URL: db.url,
    REDIS_URL: 'redis://127.0.0.1:6379',
    LOG_LEVEL: 'info',
    TAS_REDIS_PREFIX: `tastest:${randomBytes(4).toString('hex')}`,
    TAS_SPOOL_DIR: `/tmp/tas-spool-${randomBytes(4).toString('hex')}`,
    TAS_KEY_PEPPER: 'test-pepper-0123456789abcdef0123456789',
    // The suite refuses many calls from one address on purpose (every 401 and 403 of the contract);
    // the per-address limit has its own test (test/http/addressLimit.test.ts), which sets it low.
    TAS_ADDRESS_FAILURES_PER_SEC: '100000',
    // Network checks only where a test points them at its own fixture servers.
    TAS_DNS_SERVERS: 'off',
    TAS_RDAP_BASE_URL: 'off',
    // Every answer and stream event of every test is checked against the served document (issue 16).
    TAS_CHECK_RESPONSES: 'true',
    // Every test's service would pay the warm-up; test/inquiries/warmOneCall.test.ts tests it.
    TAS_WARM_STATEMENTS: 'false',
    ...env,
  });
  // The service's own logger (its redaction and error serializers), writing to the captured lines.
  const log = createLogger('info', sink);
  const service = await startService(config, { edge: true, workers: opts.workers ?? true, log });
  const base = `http://127.0.0.1:${service.port}`;
  const provision = (name: string, investigative = false) =>
    provisionTenant(service.db, config.keyPepper, { name, investigative, authorizationRef: investigative ? 'auth-ref' : null });
  const tenant = await provision('acme', true);
  return {
    base,
    config,
    service,
    tenant,
    logs,
    dbUrl: db.url,
    provision,
    async stop() {
      await service.stop();
      await db.drop();
      // Every key this service wrote lives under its own prefix: none is left behind for the next run.
      await dropRedisKeys(config.REDIS_URL, config.TAS_REDIS_PREFIX);
      // The service login (tas_app) reaches cross-tenant tables only as tas_system: a path
      // that forgot to say so fails quietly into a retry, so every test service guards it.
      const denied = logs.find((line) => line.includes('permission denied for'));
      if (denied !== undefined) throw new Error(`the service hit a permission it lacks as tas_app: ${denied.slice(0, 400)}`);
      // What was sent must be what is documented: a mismatch anywhere in the file's run fails it.
      const mismatch = logs.filter((line) => line.includes('does not match the document'));
      if (mismatch.length > 0)
        throw new Error(`${mismatch.length} answers or events did not match the served document, first: ${mismatch[0]!.slice(0, 600)}`);
    },
  };
}

/** Deletes every Redis key under `prefix:` (SCAN, never KEYS: the server stays responsive). */
export async function dropRedisKeys(redisUrl: string, prefix: string): Promise<void> {
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
      cursor = next;
      if (keys.length > 0) await redis.unlink(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

export function bearer(key: string): Record<string, string> {
  return { authorization: `Bearer ${key}` };
}

/** The suite on a Redis Cluster or Sentinel (TAS_TEST_REDIS, test/support/globalSetup.ts). */
function redisTopologyUnderTest(): Record<string, string> {
  const { TAS_TEST_REDIS_CLUSTER_NODES: nodes, TAS_TEST_REDIS_SENTINELS: sentinels, TAS_TEST_REDIS_SENTINEL_NAME: name } = process.env;
  if (nodes) return { REDIS_CLUSTER_NODES: nodes };
  if (sentinels && name) return { REDIS_SENTINELS: sentinels, REDIS_SENTINEL_NAME: name };
  return {};
}

function viaPort(url: string, port: string): string {
  const u = new URL(url);
  u.port = port;
  return u.toString();
}

/** The same database, logged in as the service's own role. */
export function serviceLoginUrl(ownerUrl: string): string {
  const url = new URL(ownerUrl);
  url.username = 'tas_app';
  url.password = '';
  return url.toString();
}
