import { z } from 'zod';
import { describeTopology, redisTopologyOf, RedisTopologyError, type RedisSettings, type RedisTopology } from './redis/topology.js';

/**
 * The environment, parsed once at start-up with a closed schema and frozen.
 * Every other module receives the Config object; nothing else reads process.env.
 */
const DEV_PEPPER = 'tas-development-pepper-do-not-use-in-production';

const ConfigSchema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default('127.0.0.1'),
  /** The service's login: `tas_app` (000009), not a superuser, owns nothing, cannot bypass row-level security. */
  DATABASE_URL: z.url().optional(),
  /**
   * The owner's login, used only for migrations (and creating the database) and
   * the operator's commands. Unset: the owner of the default database when
   * DATABASE_URL is unset too, otherwise DATABASE_URL itself.
   */
  DATABASE_OWNER_URL: z.url().optional(),
  /**
   * The login for the service's own cross-tenant work (outbox relay, audit
   * batches and sealing, sweeps): `tas_ops` (000035), which may become
   * tas_system where tas_app may not. Unset: DATABASE_URL with the user
   * tas_ops when DATABASE_URL logs in as tas_app, otherwise DATABASE_URL.
   */
  DATABASE_SYSTEM_URL: z.url().optional(),
  REDIS_URL: z.url().default('redis://127.0.0.1:6379'),
  /**
   * Redis topology (src/platform/redis/topology.ts, docs/scaling.md). Unset: the one
   * node of REDIS_URL. `host:port,...` of a Redis Cluster's nodes selects the
   * cluster; `host:port,...` of sentinels with REDIS_SENTINEL_NAME selects
   * the primary they guard. REDIS_URL's credentials apply to the nodes.
   */
  REDIS_CLUSTER_NODES: z.string().optional(),
  REDIS_SENTINELS: z.string().optional(),
  REDIS_SENTINEL_NAME: z.string().optional(),
  /** The sentinels' own password, when they have one (requirepass on the sentinels). */
  REDIS_SENTINEL_PASSWORD: z.string().optional(),
  /**
   * What stands between the service and PostgreSQL: `none`, or `transaction`
   * for a pooler in transaction mode (PgBouncer before 1.21, or any pooler
   * that does not keep prepared statements): statements then run unnamed, and
   * the timeouts are left to the server or the pooler, since a pooler refuses
   * them as start-up parameters (docs/scaling.md).
   */
  TAS_DB_POOLER: z.enum(['none', 'transaction']).default('none'),
  /**
   * Replicas that must hold a job before the outbox relay counts it added
   * (Redis WAIT), so a failover loses no acknowledged job. Unset: 1 with
   * REDIS_SENTINELS, 0 otherwise. 0 turns the wait off.
   */
  TAS_REDIS_WAIT_REPLICAS: z.coerce.number().int().min(0).max(16).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /**
   * The secret every key of the service is derived from, one per purpose (API
   * key hashes, rule I11; webhook secret and export key sealing): src/auth/keyring.ts.
   * Required unless NODE_ENV is set to development or test.
   */
  TAS_KEY_PEPPER: z.string().min(32).optional(),
  /**
   * The pepper being rotated away from (docs/deploy.md "Rotating the
   * pepper"): it only opens what it sealed and verifies keys it hashed, until
   * `tas keys rotate-pepper` has re-sealed and every key has been used again.
   */
  TAS_KEY_PEPPER_PREVIOUS: z.string().min(32).optional(),
  /** Public base URL used in events_url / ws_url; defaults to http://HOST:PORT. */
  TAS_PUBLIC_URL: z.url().optional(),
  /** Prefix of every Redis key and BullMQ queue, so several deployments (and tests) can share a Redis. */
  TAS_REDIS_PREFIX: z
    .string()
    .regex(/^[a-z0-9:_-]{1,40}$/)
    .default('tas'),
  /** Requests per second per key before 429 (a burst of twice this is allowed within a window). */
  TAS_RATE_LIMIT_PER_SEC: z.coerce.number().int().min(1).max(1_000_000).default(1000),
  /** Largest request body accepted, in bytes; larger gets 413. */
  TAS_MAX_BODY_BYTES: z.coerce.number().int().min(1024).max(50_000_000).default(1_048_576),
  /** DNS resolvers for the DNS checks: `system` (this machine's), `off`, or a comma-separated host:port list. */
  TAS_DNS_SERVERS: z.string().default('system'),
  // How long an inquiry may stay open before the deadline sweeper concludes it (src/inquiries/sweeper.ts).
  TAS_INQUIRY_OVERDUE_MS: z.coerce.number().int().min(1000).max(3_600_000).default(120_000),
  // A name the resolver must answer with an address before DNS checks give negative evidence; 'off' disables the canary.
  TAS_DNS_CANARY: z.string().default('example.com'),
  /**
   * RDAP service for the domain-age check, or `off`. The default is the public
   * bootstrap redirector (rdap.org), which forwards each query to the registry
   * responsible for the domain; on a machine without network the check reports
   * an absence, never an error.
   */
  TAS_RDAP_BASE_URL: z.union([z.literal('off'), z.url()]).default('https://rdap.org'),
  /** Path of the operator's HTTP provider description file; unset means none. */
  TAS_PROVIDERS_FILE: z.string().optional(),
  /**
   * Path of a ranked popularity list (Majestic's CSV, a Chrome UX Report top
   * list `origin,rank`, or `rank,domain` lines); unset means the shipped
   * Majestic Million top 15,000 (src/checks/data/popularity). Read once at
   * start-up, ranks up to 100,000 kept; a malformed file stops the start.
   */
  TAS_POPULARITY_LIST: z.string().min(1).optional(),
  /**
   * Path of a sanctions list in the US Treasury OFAC's sdn.csv layout (the
   * operator's fresher download of sdn.csv); unset means the shipped snapshot
   * of 2024-05-03 (src/checks/data/sanctions). Read and indexed once at
   * start-up; a file that is not in the layout stops the start.
   */
  TAS_SANCTIONS_LIST: z.string().min(1).optional(),
  TAS_NETWORK_TIMEOUT_MS: z.coerce.number().int().min(50).max(60_000).default(2000),
  /** Operator's report model endpoint (render=model); unset means reports are written from templates only. */
  TAS_MODEL_ENDPOINT: z.url().optional(),
  /** Name of the environment variable holding the model endpoint's bearer token. */
  TAS_MODEL_API_KEY_ENV: z
    .string()
    .regex(/^[A-Z_][A-Z0-9_]*$/)
    .optional(),
  /**
   * Shortest monitor cadence a tenant may ask for, in seconds. The schema lets 1 s through so this
   * operator floor decides (a watch, not polling, by default; tests use 1).
   */
  TAS_MIN_MONITOR_CADENCE_SECONDS: z.coerce.number().int().min(1).max(86_400).default(60),
  /**
   * Limits of the parser process each material extraction runs in (src/material/parserProcess.ts):
   * its V8 heap in MiB (the whole process may use twice that plus 256 MiB) and its wall-clock
   * and CPU seconds. A file that needs more ends `failed` (`too_large`, `timeout`).
   */
  TAS_PARSER_MEMORY_MB: z.coerce.number().int().min(64).max(16_384).default(512),
  TAS_PARSER_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(120),
  /** Directory where audit rows are spooled while Postgres is unreachable. */
  TAS_SPOOL_DIR: z.string().default('.tas-spool'),
  /** Build identifier reported by /healthz. */
  TAS_BUILD: z.string().default('dev'),
  /**
   * Check every answer and stream event against the served document and log
   * a warning on a mismatch (src/openapi/responseCheck.ts). The tests run with
   * it; it costs a schema validation per answer, so it is off by default.
   */
  TAS_CHECK_RESPONSES: z.enum(['true', 'false']).default('false'),
  /**
   * Whether an edge warms its named-statement connections before it listens:
   * each opens and runs the inquiry's one call once inside a transaction
   * rolled back, so the first inquiries after a deploy do not pay a new
   * backend's first call (50-390 ms: the function compiled, its statements
   * planned). The tests turn it off: every service they start would pay it.
   */
  TAS_WARM_STATEMENTS: z.enum(['true', 'false']).default('true'),
  /**
   * Whether webhook targets may be plain http or a loopback address (for a
   * receiver on the developer's own machine), and then only for test-mode keys.
   * Unset: on in development and test, off in production. The operator's
   * setting alone decides it: no tenant, key or mode can turn it on (issue 40).
   */
  TAS_WEBHOOKS_ALLOW_LOOPBACK: z.enum(['true', 'false']).optional(),
  /**
   * Whether event streams take an API key in the URL (`?access_token=`), the
   * old way for a browser's EventSource. `refuse` (default): 401, open the
   * stream with a ticket instead. `allow`: accepted, with a Deprecation header.
   */
  TAS_STREAM_ACCESS_TOKEN: z.enum(['refuse', 'allow']).default('refuse'),
  /** How long a stream ticket may wait before it is used, in seconds (long enough for a page to open its EventSource). */
  TAS_STREAM_TICKET_TTL_SECONDS: z.coerce.number().int().min(1).max(600).default(60),
  /**
   * How often an open event stream checks its key in the database, in
   * milliseconds: a revocation whose Redis message was lost still ends the
   * stream within this time (an expiry ends it on the dot).
   */
  TAS_STREAM_KEY_RECHECK_MS: z.coerce.number().int().min(100).max(3_600_000).default(30_000),
  /**
   * Calls per second that may fail to authenticate from one client address
   * with one key prefix (a burst of as many) before calls from that address
   * presenting that prefix get 429 with Retry-After, and no key is looked up
   * for them until then; four times as many from the address whatever the
   * prefix before the whole address waits (src/edge/addressGuard.ts). Calls
   * with a good key are not counted.
   */
  TAS_ADDRESS_FAILURES_PER_SEC: z.coerce.number().int().min(1).max(1_000_000).default(20),
  /**
   * Proxies (comma-separated addresses) whose X-Forwarded-For names the
   * client. Empty (default): the TCP peer is the client, whatever the header says.
   */
  TAS_TRUSTED_PROXIES: z.string().default(''),
  /** Requests per second per tenant and mode, all its keys together, beside each key's own limit. Unset: five keys' worth. */
  TAS_TENANT_RATE_LIMIT_PER_SEC: z.coerce.number().int().min(1).max(10_000_000).optional(),
  /**
   * Live sessions one key, and one tenant (per mode, all its keys together),
   * may hold open at once (issue 40: one key connected 300 and slowed every
   * other tenant); past either POST /v1/sessions answers 429 with Retry-After.
   * A session holds a place from opening until it closes, except an
   * unconnected one whose token expired. docs/sessions.md "Limits".
   */
  TAS_SESSIONS_PER_KEY: z.coerce.number().int().min(1).max(1_000_000).default(25),
  TAS_SESSIONS_PER_TENANT: z.coerce.number().int().min(1).max(1_000_000).default(100),
  /** Frames per second one tenant's sessions may send together to one edge process (bursts of twice as many). */
  TAS_SESSION_TENANT_FRAMES_PER_SEC: z.coerce.number().int().min(1).max(1_000_000).default(100),
  /** How often every session socket is pinged; a ping still unanswered at the next is a client that does not read (4001). */
  TAS_SESSION_HEARTBEAT_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
  /**
   * The fair scheduler (issue 48, src/platform/scheduler.ts): units of work
   * holding a slot at once (unset: one per core, at least 2), units one tenant may have
   * waiting before its calls get 429 (its sessions' frames wait instead), and
   * the operator's weights, `tenantId=weight,...` (unset tenants weigh 1).
   */
  TAS_SCHEDULER_IN_FLIGHT: z.coerce.number().int().min(1).max(10_000).optional(),
  /** Units started and not yet settled, all tenants together (unset: four times the in-flight bound). */
  TAS_SCHEDULER_OPEN: z.coerce.number().int().min(1).max(100_000).optional(),
  TAS_SCHEDULER_QUEUE: z.coerce.number().int().min(1).max(1_000_000).default(128),
  TAS_TENANT_WEIGHTS: z.string().default(''),
});

const DEFAULT_SERVICE_URL = 'postgres://tas_app@127.0.0.1:5432/tas';
const DEFAULT_OWNER_URL = 'postgres://postgres@127.0.0.1:5432/tas';

export type Config = Readonly<
  Omit<z.infer<typeof ConfigSchema>, 'DATABASE_URL' | 'DATABASE_OWNER_URL' | 'DATABASE_SYSTEM_URL'> & {
    DATABASE_URL: string;
    DATABASE_OWNER_URL: string;
    DATABASE_SYSTEM_URL: string;
    keyPepper: string;
    /** The current pepper and, while it rotates, the previous one. */
    keyring: Keyring;
    publicUrl: string;
    /** The Redis topology REDIS_URL and REDIS_CLUSTER_NODES / REDIS_SENTINELS select. */
    redis: RedisTopology;
    /** TAS_WEBHOOKS_ALLOW_LOOPBACK resolved against NODE_ENV. */
    webhooksAllowLoopback: boolean;
  }
>;

/** The current key pepper and, while it rotates, the previous one (src/auth/keyring.ts derives the keys). */
export interface Keyring {
  readonly current: string;
  readonly previous: string | null;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = ConfigSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`invalid configuration:\n${lines.join('\n')}`);
  }
  const c = withRedisTopology(parsed.data);
  if ((!c.TAS_KEY_PEPPER || c.TAS_KEY_PEPPER === DEV_PEPPER) && !mayUseDevelopmentPepper(env, c.HOST, c.DATABASE_URL)) {
    throw new ConfigError(
      'refusing to start on the public development key pepper: set TAS_KEY_PEPPER to a secret of at least 32 characters ' +
        '(for example `openssl rand -hex 32`), or NODE_ENV=development or NODE_ENV=test on a machine that holds no real data',
    );
  }
  const keyPepper = c.TAS_KEY_PEPPER ?? DEV_PEPPER;
  const keyring: Keyring = Object.freeze({ current: keyPepper, previous: c.TAS_KEY_PEPPER_PREVIOUS ?? null });
  const publicUrl = c.TAS_PUBLIC_URL ?? `http://${c.HOST}:${c.PORT}`;
  const DATABASE_URL = c.DATABASE_URL ?? DEFAULT_SERVICE_URL;
  const DATABASE_OWNER_URL = c.DATABASE_OWNER_URL ?? c.DATABASE_URL ?? DEFAULT_OWNER_URL;
  const DATABASE_SYSTEM_URL = c.DATABASE_SYSTEM_URL ?? systemLoginOf(DATABASE_URL);
  const webhooksAllowLoopback =
    c.TAS_WEBHOOKS_ALLOW_LOOPBACK === undefined ? c.NODE_ENV !== 'production' : c.TAS_WEBHOOKS_ALLOW_LOOPBACK === 'true';
  return Object.freeze({
    ...c,
    DATABASE_URL,
    DATABASE_OWNER_URL,
    DATABASE_SYSTEM_URL,
    keyPepper,
    keyring,
    publicUrl,
    webhooksAllowLoopback,
  });
}

/**
 * The development pepper is public: in a deployment, a database dump would
 * yield every webhook secret and the export signing key. It is taken when
 * NODE_ENV says development or test, and when NODE_ENV is unset (development,
 * the default `npm start` and `tas` share) on a developer's machine: the edge
 * listening on a loopback address and the database on one. A deployment that
 * forgot NODE_ENV listens beyond the machine or reaches a database elsewhere,
 * and is refused.
 */
function mayUseDevelopmentPepper(env: NodeJS.ProcessEnv, host: string, databaseUrl: string | undefined): boolean {
  if (env.NODE_ENV === 'development' || env.NODE_ENV === 'test') return true;
  if (env.NODE_ENV !== undefined) return false;
  return isLoopback(host) && isLoopback(new URL(databaseUrl ?? DEFAULT_SERVICE_URL).hostname);
}

function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  // An empty host is a Unix socket (`postgres:///tas?host=/var/run/postgresql`): this machine too.
  return h === '' || h === 'localhost' || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h);
}

function withRedisTopology<T extends RedisSettings>(settings: T): T & { redis: RedisTopology } {
  try {
    return { ...settings, redis: redisTopologyOf(settings) };
  } catch (error) {
    if (error instanceof RedisTopologyError) throw new ConfigError(`invalid configuration: ${error.message}`);
    throw error;
  }
}

/** The cross-tenant login beside a tas_app login (same server, database and password source); any other login is kept. */
export function systemLoginOf(serviceUrl: string): string {
  const url = new URL(serviceUrl);
  if (decodeURIComponent(url.username) !== 'tas_app') return serviceUrl;
  url.username = 'tas_ops';
  url.password = '';
  return url.toString();
}

/** A redacted view for the start-up log line: says what it connected to, never a password. */
export function describeConfig(c: Config): Record<string, string | number> {
  return {
    env: c.NODE_ENV,
    listen: `${c.HOST}:${c.PORT}`,
    database: redactUrl(c.DATABASE_URL),
    redis: c.redis.kind === 'single' ? redactUrl(c.REDIS_URL) : describeTopology(c.redis),
  };
}

export function redactUrl(raw: string): string {
  const u = new URL(raw);
  if (u.password) u.password = '***';
  return u.toString();
}
