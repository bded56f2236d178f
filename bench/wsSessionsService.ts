import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { ChildProcess } from 'node:child_process';
import { Redis } from 'ioredis';
import pg from 'pg';

/**
 * The service side of bench/wsSessions.ts: a fresh database and Redis prefix
 * with one provisioned tenant for `tas serve`, and the process readings the
 * result reports (CPU time, peak memory). Only what this run created is
 * removed, and only the child it started is stopped.
 */
export const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BASE_DB = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/tas';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const run = promisify(execFile);

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  await new Promise((r) => server.close(r));
  return port;
}

export async function waitHealthy(base: string, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 300; i += 1) {
    if (child.exitCode !== null) throw new Error(`tas serve exited with ${child.exitCode}`);
    const ok = await fetch(`${base}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('tas serve did not become healthy within 30 s');
}

export interface Fresh {
  env: NodeJS.ProcessEnv;
  base: string;
  dbName: string;
  cleanup(): Promise<void>;
}

/** CPU ms of every backend connected to the database (they are the service's pool, open for the whole run). */
export async function postgresCpuMs(dbName: string): Promise<number | null> {
  const admin = new pg.Client({ connectionString: new URL('/postgres', BASE_DB).toString() });
  await admin.connect();
  try {
    const rows = (await admin.query('SELECT pid FROM pg_stat_activity WHERE datname = $1', [dbName])).rows as { pid: number }[];
    const each = rows.map((r) => cpuMs(r.pid));
    return each.some((c) => c === null) ? null : each.reduce<number>((a, c) => a + c!, 0);
  } finally {
    await admin.end();
  }
}

/** A database and Redis prefix of the run's own, migrated, with one provisioned tenant. */
export async function freshService(): Promise<Fresh & { key: string }> {
  const id = randomBytes(5).toString('hex');
  const dbName = `tas_bench_ws_${id}`;
  const dbUrl = new URL(BASE_DB);
  dbUrl.pathname = `/${dbName}`;
  const port = await freePort();
  const prefix = `tasbench:${id}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: dbUrl.toString(),
    REDIS_URL,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    TAS_DNS_SERVERS: 'off',
    TAS_RDAP_BASE_URL: 'off',
    TAS_REDIS_PREFIX: prefix,
    TAS_SPOOL_DIR: join(tmpdir(), `tas-bench-spool-${id}`),
    NODE_ENV: 'development',
    // One key opens every session: the per-key HTTP limit is not what this bench measures.
    TAS_RATE_LIMIT_PER_SEC: '1000000',
  };
  const cleanup = async () => {
    const admin = new pg.Client({ connectionString: new URL('/postgres', BASE_DB).toString() });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(dbName)} WITH (FORCE)`).finally(() => admin.end());
    const redis = new Redis(REDIS_URL);
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length) await redis.unlink(...keys);
    } while (cursor !== '0');
    redis.disconnect();
  };
  const tas = (args: string[]) => run(process.execPath, [join(ROOT, 'bin/tas.js'), ...args], { env, cwd: ROOT });
  await tas(['migrate']);
  const { stdout } = await tas(['tenant', 'create', '--name', `bench-${id}`, '--json']);
  const key = (JSON.parse(stdout) as { keys: { test: string } }).keys.test;
  return { env, base: `http://127.0.0.1:${port}`, dbName, key, cleanup };
}

/** User + system CPU time of a process so far, in ms (Linux /proc; clock ticks are 100 Hz there). */
export function cpuMs(pid: number | undefined): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

export function peakRssMb(pid: number | undefined): number | null {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Math.round(Number(m[1]) / 1024) : null;
  } catch {
    return null;
  }
}
