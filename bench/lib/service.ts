import { execFile, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { checkPostgres, checkRedis } from '../../src/platform/preflight.js';
import { seedEntities } from './seed.js';
import { deferCleanup, forkTs, ROOT_DIR, spawnTracked, stopChild, track, waitMessage } from './children.js';

/**
 * Fresh services for the bench: each on its own database `tas_bench_<hex>`
 * and Redis prefix `tasbench:<hex>`, both removed when the service stops (or
 * when the bench is interrupted).
 */
export const BASE_DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/tas';
export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Fails in seconds, saying what to run, when PostgreSQL or Redis does not answer. */
export async function preflight(): Promise<void> {
  await checkPostgres(BASE_DATABASE_URL);
  const redis = new Redis(REDIS_URL, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    connectTimeout: 2000,
  });
  redis.on('error', () => undefined);
  try {
    await checkRedis(redis, REDIS_URL);
  } finally {
    redis.disconnect();
  }
}

export function databaseUrl(name: string, base = BASE_DATABASE_URL): string {
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
}

/** A scratch database, dropped (WITH FORCE) by the returned cleanup or on interrupt. */
export function scratchDatabase(): { name: string; url: string; drop: () => Promise<void> } {
  const name = `tas_bench_${randomBytes(5).toString('hex')}`;
  const drop = deferCleanup(() => adminQuery(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`).then(() => undefined));
  return { name, url: databaseUrl(name), drop };
}

export async function adminQuery(text: string, values: unknown[] = [], dbName = 'postgres'): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: databaseUrl(dbName), connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    return await client.query(text, values);
  } finally {
    await client.end();
  }
}

async function clearRedisPrefix(prefix: string): Promise<number> {
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1, connectTimeout: 2000 });
  let removed = 0;
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length) removed += await redis.unlink(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
  return removed;
}

/** Peak resident set (VmHWM) of a process, in MB; null once it is gone. */
export function peakRssMb(pid: number | undefined): number | null {
  if (!pid) return null;
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Math.round(Number(m[1]) / 1024) : null;
  } catch {
    return null;
  }
}

export interface Keys {
  live: string;
  test: string;
  live_admin: string;
  test_admin: string;
}

export interface ServiceHandle {
  port: number;
  pid: number;
  keys: Keys;
  dbName: string;
  dbUrl: string;
  prefix: string;
  /** The environment the service runs with (a second edge needs the same database, Redis prefix and pepper). */
  env: NodeJS.ProcessEnv;
  peakRssMb(): number | null;
  /** SIGINT (graceful: a --cpu-prof profile is written), then the database and prefix are removed. */
  stop(): Promise<void>;
}

export interface ServiceOptions {
  env?: Record<string, string>;
  nodeArgs?: string[];
  /** Where the service's DATABASE_URL points (a counting proxy); the database itself is always created directly. */
  viaPort?: number;
  /** Entities the bench tenant already holds before the service starts (bench/lib/seed.ts). */
  seedEntities?: number;
  /** Arguments after `tas serve` (`--no-workers` for an edge whose workers run apart). */
  serveArgs?: string[];
}

function asServiceLogin(url: string): string {
  const login = new URL(url);
  login.username = 'tas_app';
  login.password = '';
  return login.toString();
}

/** `tas tenant create` then `node bin/tas.js serve` on a fresh database; resolves once /healthz says ok. */
export async function startService(opts: ServiceOptions = {}): Promise<ServiceHandle> {
  const db = scratchDatabase();
  const hex = db.name.slice('tas_bench_'.length);
  const prefix = `tasbench:${hex}`;
  const spool = join(tmpdir(), `tas-bench-spool-${hex}`);
  const clearPrefix = deferCleanup(async () => {
    await clearRedisPrefix(prefix);
    rmSync(spool, { recursive: true, force: true });
  });
  // The service logs in as tas_app (000009; a superuser login is refused in production); migrations
  // and `tas tenant create` use the owner's URL.
  const serviceUrl = asServiceLogin(opts.viaPort ? databaseUrl(db.name, `postgres://postgres@127.0.0.1:${opts.viaPort}/x`) : db.url);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    TAS_KEY_PEPPER: randomBytes(24).toString('hex'),
    DATABASE_URL: serviceUrl,
    DATABASE_OWNER_URL: db.url,
    REDIS_URL,
    LOG_LEVEL: 'warn',
    TAS_REDIS_PREFIX: prefix,
    TAS_RATE_LIMIT_PER_SEC: '1000000',
    // One tenant drives every scenario, so its own limits would be what is measured: 1,000 sessions and
    // 1,000 SSE subscribers opened at once are past the per-key and per-tenant session caps (issue 40) and
    // the scheduler's per-tenant queue (issue 48). The fair-share bench measures those limits.
    TAS_TENANT_RATE_LIMIT_PER_SEC: '1000000',
    TAS_SESSIONS_PER_KEY: '1000000',
    TAS_SESSIONS_PER_TENANT: '1000000',
    TAS_SCHEDULER_QUEUE: '1000000',
    TAS_DNS_SERVERS: 'off',
    TAS_RDAP_BASE_URL: 'off',
    TAS_SPOOL_DIR: spool,
    HOST: '127.0.0.1',
    PORT: '0',
    ...opts.env,
  };
  const { keys, tenantId } = await createTenant(env);
  if (opts.seedEntities) await seedEntities(db.name, tenantId, opts.seedEntities, (line) => process.stderr.write(`bench: ${line}\n`));
  // Diagnostics: BENCH_NODE_ARGS (e.g. "--trace-gc") go to the service's node; BENCH_SERVICE_LOG appends its output to a file.
  const extra = process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  const child = spawnTracked(process.execPath, [...extra, ...(opts.nodeArgs ?? []), 'bin/tas.js', 'serve', ...(opts.serveArgs ?? [])], {
    cwd: ROOT_DIR,
    env,
  });
  const output = captureOutput(child);
  if (process.env.BENCH_SERVICE_LOG) {
    const log = createWriteStream(process.env.BENCH_SERVICE_LOG, { flags: 'a' });
    child.stdout!.pipe(log);
    child.stderr!.pipe(log);
  }
  let port: number;
  try {
    port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the service did not start listening within 60 s')), 60_000);
      child.stdout!.on('data', () => {
        const m = /tas listening on http:\/\/[^:]+:(\d+)/.exec(output.text());
        if (m) {
          clearTimeout(timer);
          resolve(Number(m[1]));
        }
      });
      child.once('exit', (code) => reject(new Error(`the service exited (code ${code}) during start-up`)));
    });
    await waitHealthy(port, child);
  } catch (error) {
    await stopChild(child, 'SIGKILL');
    await clearPrefix();
    await db.drop();
    throw new Error(`${(error as Error).message}\n--- service output ---\n${output.text().slice(-3000)}`, { cause: error });
  }
  return {
    port,
    pid: child.pid!,
    keys,
    dbName: db.name,
    dbUrl: db.url,
    prefix,
    env,
    peakRssMb: () => peakRssMb(child.pid),
    async stop() {
      await stopChild(child, 'SIGINT', 20_000);
      await clearPrefix();
      await db.drop();
    },
  };
}

/**
 * Another edge of a running service: `tas serve --no-workers` with the same
 * database, Redis prefix and key pepper, on its own port, as a second node
 * behind a load balancer would run. Stopped before the service it joins.
 */
export async function startEdge(service: ServiceHandle): Promise<{ port: number; pid: number; stop(): Promise<void> }> {
  // Its own spool directory: the audit spool's files belong to one process.
  const spool = `${service.env.TAS_SPOOL_DIR ?? join(tmpdir(), 'tas-bench-spool')}-edge-${process.hrtime.bigint()}`;
  const child = spawnTracked(process.execPath, ['bin/tas.js', 'serve', '--no-workers'], {
    cwd: ROOT_DIR,
    env: { ...service.env, PORT: '0', TAS_SPOOL_DIR: spool },
  });
  const output = captureOutput(child);
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the second edge did not start listening within 60 s\n${output.text().slice(-2000)}`)),
      60_000,
    );
    child.stdout!.on('data', () => {
      const m = /tas listening on http:\/\/[^:]+:(\d+)/.exec(output.text());
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    });
    child.once('exit', (code) => reject(new Error(`the second edge exited (code ${code}) during start-up\n${output.text().slice(-2000)}`)));
  });
  await waitHealthy(port, child);
  return {
    port,
    pid: child.pid!,
    async stop() {
      await stopChild(child, 'SIGINT', 20_000);
      rmSync(spool, { recursive: true, force: true });
    },
  };
}

function createTenant(env: NodeJS.ProcessEnv): Promise<{ keys: Keys; tenantId: string }> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      process.execPath,
      ['bin/tas.js', 'tenant', 'create', '--name', 'bench', '--json'],
      { cwd: ROOT_DIR, env, timeout: 60_000 },
      (err, stdout, stderr) => {
        if (err) return reject(new Error(`tas tenant create failed: ${stderr || err.message}`));
        const line = stdout.split('\n').find((l) => l.trim().startsWith('{'));
        if (!line) return reject(new Error(`tas tenant create printed no JSON: ${stdout}`));
        const created = JSON.parse(line) as { keys: Keys; tenant_id: string };
        resolve({ keys: created.keys, tenantId: created.tenant_id });
      },
    );
    track(child);
  });
}

/** Keeps the last 64 KB of a child's stdout+stderr (for failure messages) and keeps its pipes drained. */
export function captureOutput(child: ChildProcess): { text(): string } {
  let text = '';
  const add = (chunk: Buffer) => {
    text = (text + chunk.toString('utf8')).slice(-65_536);
  };
  child.stdout?.on('data', add);
  child.stderr?.on('data', add);
  return { text: () => text };
}

async function waitHealthy(port: number, child: ChildProcess, timeoutMs = 30_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`the service exited (code ${child.exitCode})`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(2000) });
      last = await res.text();
      if (res.status === 200 && (JSON.parse(last) as { status?: string }).status === 'ok') return;
    } catch (err) {
      last = (err as Error).message;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`/healthz did not answer ok within ${timeoutMs} ms (last: ${last})`);
}

/** A reference server (bench/bare.ts) as its own child process; `insert` gets a scratch database. */
export async function startBare(
  mode: 'json' | 'insert',
): Promise<{ port: number; pid: number; dbName?: string; peakRssMb(): number | null; stop(): Promise<void> }> {
  const db = mode === 'insert' ? scratchDatabase() : null;
  if (db) await adminQuery(`CREATE DATABASE ${pg.escapeIdentifier(db.name)}`);
  const child = forkTs('bare.ts', [mode], { ...process.env, ...(db ? { DATABASE_URL: db.url } : {}) });
  const { port } = await waitMessage<{ port: number }>(child, 'listening', 30_000);
  return {
    port,
    pid: child.pid!,
    ...(db ? { dbName: db.name } : {}),
    peakRssMb: () => peakRssMb(child.pid),
    async stop() {
      await stopChild(child);
      await db?.drop();
    },
  };
}
