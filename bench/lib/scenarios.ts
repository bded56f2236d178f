import { randomBytes } from 'node:crypto';
import type { LoadJob, LoadResult } from '../loadgen.js';
import { forkTs, waitMessage } from './children.js';
import { cpuBetween, cpuSnapshot } from './cpu.js';
import { startProvider, providersFile } from './provider.js';
import { adminQuery, startBare, startEdge, startService, type ServiceOptions } from './service.js';

/** One line of the results: the figures every scenario reports, plus its own extras. */
export interface ScenarioResult {
  scenario: string;
  rps?: number;
  p50_ms?: number;
  p95_ms?: number;
  p99_ms?: number;
  max_ms?: number;
  errors?: number;
  peak_rss_mb?: number | null;
  skipped?: string;
  requests?: number;
  first_error?: string;
  /** sse-fanout: subscribers connected; ws-sessions: sessions opened. */
  opened?: number;
  sessions?: number;
  [extra: string]: unknown;
}

export interface LoadSettings {
  connections: number;
  durationS: number;
  warmupS: number;
  /** An open-loop offered rate (bench/loadgen.ts `rateRps`); absent, a closed loop. */
  rateRps?: number;
}

type Measured = LoadResult & { cpu: ReturnType<typeof cpuBetween> };

/** Runs bench/loadgen.ts in its own process; also accounts the CPU every party used meanwhile. */
export async function runLoadChild(job: LoadJob, servicePid: number | number[], dbName?: string): Promise<Measured> {
  const child = forkTs('loadgen.ts');
  const before = cpuSnapshot(servicePid, child.pid, dbName);
  child.send(job);
  const msg = await waitMessage<{ result: LoadResult }>(child, 'result', (job.warmupS + job.durationS) * 1000 + job.timeoutMs + 30_000);
  return { ...msg.result, cpu: cpuBetween(before, cpuSnapshot(servicePid, child.pid, dbName), msg.result.completed) };
}

function summarise(scenario: string, r: Measured, rss: number | null, extra: Record<string, unknown> = {}): ScenarioResult {
  return {
    scenario,
    rps: r.rps,
    ...(r.offered_rps !== undefined ? { offered_rps: r.offered_rps } : {}),
    windows_rps: r.windows_rps,
    p50_ms: r.latency_ms.p50,
    p95_ms: r.latency_ms.p95,
    p99_ms: r.latency_ms.p99,
    max_ms: r.latency_ms.max,
    errors: r.errors + r.warmup_errors,
    peak_rss_mb: rss,
    requests: r.requests,
    statuses: r.statuses,
    ...(r.timeouts ? { timeouts: r.timeouts } : {}),
    ...(r.socket_errors ? { socket_errors: r.socket_errors } : {}),
    ...(r.classes ? { answers: r.classes } : {}),
    ...(r.first_error ? { first_error: r.first_error } : {}),
    ...extra,
    cpu: r.cpu,
  };
}

const base = (s: LoadSettings) => ({
  connections: s.connections,
  durationS: s.durationS,
  warmupS: s.warmupS,
  timeoutMs: 10_000,
  ...(s.rateRps ? { rateRps: s.rateRps } : {}),
});

export async function bareScenario(mode: 'json' | 'insert', s: LoadSettings): Promise<ScenarioResult> {
  const bare = await startBare(mode);
  try {
    const r =
      mode === 'json'
        ? await runLoadChild({ ...base(s), port: bare.port, method: 'GET', path: '/v1/health', headers: {} }, bare.pid)
        : await runLoadChild(
            {
              ...base(s),
              port: bare.port,
              method: 'POST',
              path: '/insert',
              headers: {},
              body: { seed: randomBytes(3).toString('hex'), worker: false },
            },
            bare.pid,
            bare.dbName,
          );
    return summarise(mode === 'json' ? 'bare-json' : 'bare-insert', r, bare.peakRssMb(), { connections: s.connections });
  } finally {
    await bare.stop();
  }
}

export async function healthScenario(s: LoadSettings, svc: ServiceOptions = {}): Promise<ScenarioResult> {
  const service = await startService(svc);
  try {
    const r = await runLoadChild(
      { ...base(s), port: service.port, method: 'GET', path: '/v1/health', headers: { Authorization: `Bearer ${service.keys.live}` } },
      service.pid,
      service.dbName,
    );
    return summarise('health', r, service.peakRssMb(), { connections: s.connections });
  } finally {
    await service.stop();
  }
}

/** Rows the run left per inquiry, counted in the scenario's own database before it is dropped. */
async function persistence(dbName: string): Promise<Record<string, number>> {
  const q = await adminQuery(
    `SELECT (SELECT count(*) FROM inquiries)::int AS inquiries, (SELECT count(*) FROM assessments)::int AS assessments,
    (SELECT count(*) FROM actor_events)::int AS events, (SELECT count(*) FROM audit_log)::int AS audit_rows`,
    [],
    dbName,
  ).catch(() => null);
  return (q?.rows[0] as Record<string, number> | undefined) ?? {};
}

/**
 * `inquiry` (fast tier: no providers file, inline checks only) or
 * `inquiry-worker` (one EMAIL provider on loopback answering at once, so every
 * inquiry waits for exactly one worker check).
 */
/**
 * The inquiry on two edges of one service (issue 15): a second `tas serve
 * --no-workers` process on the same PostgreSQL and Redis, the connections
 * split between the two. Service CPU is the sum of both processes.
 */
export async function inquiryTwoEdgesScenario(s: LoadSettings): Promise<ScenarioResult> {
  const service = await startService();
  const edge = await startEdge(service).catch(async (error: unknown) => {
    await service.stop();
    throw error;
  });
  try {
    const r = await runLoadChild(
      {
        ...base(s),
        port: service.port,
        ports: [service.port, edge.port],
        method: 'POST',
        path: '/v1/inquiries',
        headers: { Authorization: `Bearer ${service.keys.live}` },
        body: { seed: randomBytes(3).toString('hex'), worker: false, emails: 1 },
        classify: true,
      },
      [service.pid, edge.pid],
      service.dbName,
    );
    const rows = await persistence(service.dbName);
    return summarise('inquiry-2edges', r, service.peakRssMb(), { connections: s.connections, edges: 2, persisted: rows });
  } finally {
    await edge.stop();
    await service.stop();
  }
}

export async function inquiryScenario(
  s: LoadSettings,
  opts: { worker: boolean; nodeArgs?: string[]; name?: string; seedEntities?: number; returning?: number },
): Promise<ScenarioResult> {
  const provider = opts.worker ? await startProvider() : null;
  const file = provider ? providersFile(provider.url, 5000) : null;
  const service = await startService({
    ...(file ? { env: { TAS_PROVIDERS_FILE: file.path } } : {}),
    ...(opts.nodeArgs ? { nodeArgs: opts.nodeArgs } : {}),
    ...(opts.seedEntities ? { seedEntities: opts.seedEntities } : {}),
  });
  try {
    const r = await runLoadChild(
      {
        ...base(s),
        port: service.port,
        method: 'POST',
        path: '/v1/inquiries',
        headers: { Authorization: `Bearer ${service.keys.live}` },
        body: {
          seed: randomBytes(3).toString('hex'),
          worker: opts.worker,
          emails: 1,
          ...(opts.returning ? { returning: opts.returning } : {}),
        },
        classify: true,
      },
      service.pid,
      service.dbName,
    );
    const rows = await persistence(service.dbName);
    return summarise(opts.name ?? (opts.worker ? 'inquiry-worker' : 'inquiry'), r, service.peakRssMb(), {
      connections: s.connections,
      persisted: rows,
      ...(provider ? { provider_calls: provider.calls } : {}),
      ...(opts.seedEntities ? { seeded_entities: opts.seedEntities } : {}),
    });
  } finally {
    await service.stop();
    await provider?.close();
    file?.remove();
  }
}
