import { createHash } from 'node:crypto';
import pg from 'pg';
import type { RedisClient } from './redis/client.js';
import { redactUrl } from './config.js';

/**
 * Start-up checks that fail within seconds, with a message that says what to
 * run, instead of a stack trace or a hang.
 */
const PREFLIGHT_TIMEOUT_MS = 3000;

export class PreflightError extends Error {
  override name = 'PreflightError';
}

export async function checkPostgres(databaseUrl: string): Promise<void> {
  const url = new URL(databaseUrl);
  url.pathname = '/postgres';
  const client = new pg.Client({ connectionString: url.toString(), connectionTimeoutMillis: PREFLIGHT_TIMEOUT_MS });
  try {
    await client.connect();
    await client.query('SELECT 1');
  } catch (error) {
    throw new PreflightError(
      `PostgreSQL is not answering at ${redactUrl(databaseUrl)} (${describe(error)}).\n` +
        `  Start it, for example: pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start\n` +
        `  or point DATABASE_URL at a running server.`,
    );
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** `where` names the server: REDIS_URL (redacted here) or a topology's description. */
export async function checkRedis(redis: RedisClient, where: string): Promise<void> {
  try {
    if (redis.status === 'wait') await withTimeout(redis.connect(), PREFLIGHT_TIMEOUT_MS);
    await withTimeout(redis.ping(), PREFLIGHT_TIMEOUT_MS);
  } catch (error) {
    throw new PreflightError(
      `Redis is not answering at ${where.startsWith('redis') ? redactUrl(where) : where} (${describe(error)}).\n` +
        `  Start it, for example: redis-server --daemonize yes --bind 127.0.0.1 --port 6379\n` +
        `  or point REDIS_URL (or REDIS_CLUSTER_NODES, REDIS_SENTINELS) at running servers.`,
    );
  }
}

function describe(error: unknown): string {
  const e = error as { code?: string; message?: string };
  return e.code ?? e.message ?? String(error);
}

async function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      p,
      new Promise<T>((_, reject) => {
        timer = setTimeout(() => reject(new Error('timed out')), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The service's login must not be able to step past row-level security
 * (000009): a superuser, an owner of the tables or a BYPASSRLS role could,
 * with one RESET ROLE. In production that refuses to start; elsewhere it is a
 * loud warning, so a developer pointing DATABASE_URL at `postgres` still runs.
 */
export async function checkServiceLogin(
  query: () => Promise<{ superuser: boolean; bypassrls: boolean; owns: boolean; crosses?: boolean }>,
  production: boolean,
  warn: (msg: string) => void,
): Promise<void> {
  const login = await query();
  if (!login.superuser && !login.bypassrls && !login.owns && !login.crosses) return;
  const message =
    'DATABASE_URL logs in as a role that can bypass row-level security (superuser, BYPASSRLS, table owner or a member of tas_system); ' +
    'log in as tas_app, keep tas_ops for DATABASE_SYSTEM_URL and the owner for DATABASE_OWNER_URL (migrations).';
  if (production) throw new PreflightError(message);
  warn(message);
}

/**
 * The Redis prefix belongs to the database that first used it
 * (src/platform/redis/prefixOwner.ts): on another database's prefix production
 * refuses to start, and anywhere else it is a loud warning.
 */
export async function checkRedisPrefix(
  bind: (prefix: string) => Promise<{ kind: 'bound' | 'ours' | 'other'; owner: string }>,
  conflict: (owner: string) => string,
  production: boolean,
  warn: (msg: string) => void,
  own: { prefix: string; identity: string },
): Promise<string> {
  const binding = await bind(own.prefix);
  if (binding.kind !== 'other') return own.prefix;
  const message = conflict(binding.owner);
  if (production) throw new PreflightError(message);
  // In development the start goes on, on a prefix of this database's own beside the held one: two
  // databases on one prefix would take each other's jobs and remove each other's monitor schedules.
  const beside = `${own.prefix}:${createHash('sha256').update(own.identity).digest('hex').slice(0, 8)}`;
  const second = await bind(beside);
  if (second.kind === 'other') throw new PreflightError(conflict(second.owner));
  warn(`WARNING: ${message} This development start uses the prefix '${beside}' instead.`);
  return beside;
}
