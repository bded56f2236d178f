import { sql } from 'slonik';
import type { Db } from '../db/pool.js';
import type { Redis } from 'ioredis';
import type { Handler } from '../http/handler.js';

/** Liveness for a keyed caller: says the service answers, nothing more. */
export const health: Handler = async (ctx) => ({
  status: 200,
  body: { status: 'ok', mode: ctx.principal?.mode ?? 'unknown' },
});

// A dependency that does not answer within this long counts as unreachable:
// /healthz is polled by load balancers and must never hang.
const PROBE_TIMEOUT_MS = 1000;

export function createHealthz(deps: { db: Db; redis: Redis; build: string; checksDiscovered: () => number; openapiAnswers: () => boolean }): Handler {
  return async () => {
    const [database, redis] = await Promise.all([
      probe(() => deps.db.query(sql.unsafe`SELECT 1`)),
      probe(() => deps.redis.ping()),
    ]);
    const ok = database && redis;
    return {
      status: 200,
      body: {
        status: ok ? 'ok' : 'degraded',
        build: deps.build,
        checks_discovered: deps.checksDiscovered(),
        openapi: deps.openapiAnswers(),
        database: database ? 'reachable' : 'unreachable',
        redis: redis ? 'reachable' : 'unreachable',
      },
    };
  };
}

async function probe(fn: () => Promise<unknown>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      fn(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error('probe timeout')), PROBE_TIMEOUT_MS);
      }),
    ]);
    return true;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}
