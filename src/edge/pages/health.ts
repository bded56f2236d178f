import { sql } from 'slonik';
import type { Db } from '../../platform/db/pool.js';
import type { RedisClient } from '../../platform/redis/client.js';
import type { RedisTopologyKind } from '../../platform/redis/topology.js';
import type { Handler } from '../handler.js';

/** Liveness for a keyed caller: says the service answers, nothing more. */
export const health: Handler = (ctx) =>
  Promise.resolve({
    status: 200,
    body: { status: 'ok', mode: ctx.principal?.mode ?? 'unknown' },
  });

// A dependency that does not answer within this long counts as unreachable:
// /healthz is polled by load balancers and must never hang.
const PROBE_TIMEOUT_MS = 1000;

export interface HealthzDeps {
  db: Db;
  redis: RedisClient;
  /** Which Redis topology the settings chose (src/platform/redis/topology.ts); unset reads as a single node. */
  redisTopology?: RedisTopologyKind;
  build: string;
  checksDiscovered: () => number;
  openapiAnswers: () => boolean;
  /** Audit rows kept aside by the spool's replay because PostgreSQL refused them (see src/audit/spool.ts). */
  auditQuarantined?: () => Promise<number>;
  /** The DNS checks' resolver, by its canary (src/checks/resolverCanary.ts). */
  resolver?: () => 'unchecked' | 'ok' | 'degraded';
  /** The RDAP service, by its circuit breaker (src/checks/dependencyBreaker.ts). */
  registry?: () => 'unchecked' | 'ok' | 'degraded';
  /** Text in images (src/material/ocr.ts); its absence degrades image extraction only, so it leaves `status` alone. */
  ocr?: () => 'unchecked' | 'available' | 'unavailable';
}

export function createHealthz(deps: HealthzDeps): Handler {
  return async () => {
    const [database, redis, quarantined] = await Promise.all([
      probe(() => deps.db.query(sql.unsafe`SELECT 1`)),
      probe(() => deps.redis.ping()),
      deps.auditQuarantined?.().catch(() => 0) ?? Promise.resolve(0),
    ]);
    // Quarantined audit rows are kept, not lost, but an operator must look at them.
    const resolver = deps.resolver?.() ?? 'unchecked';
    const registry = deps.registry?.() ?? 'unchecked';
    const ok = database && redis && quarantined === 0 && resolver !== 'degraded' && registry !== 'degraded';
    return {
      status: 200,
      body: {
        status: ok ? 'ok' : 'degraded',
        build: deps.build,
        checks_discovered: deps.checksDiscovered(),
        openapi: deps.openapiAnswers(),
        database: database ? 'reachable' : 'unreachable',
        redis: redis ? 'reachable' : 'unreachable',
        redis_topology: deps.redisTopology ?? 'single',
        audit_quarantined: quarantined,
        resolver,
        registry,
        ocr: deps.ocr?.() ?? 'unchecked',
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
