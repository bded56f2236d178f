import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startPgBouncer } from '../../scripts/lib/pgbouncer.js';
import { startRedisCluster } from '../../scripts/lib/redisServers.js';
import { forkTs, ROOT_DIR, spawnTracked, stopChild, waitMessage } from './children.js';
import { ticksOf, ticksOfCommand } from './cpu.js';
import { captureOutput, startEdge, startService, type ServiceHandle } from './service.js';
import type { LoadJob, LoadResult } from '../loadgen.js';
import type { LoadSettings, ScenarioResult } from './scenarios.js';

/**
 * `inquiry-topology` (issue 39): the inquiry on the scaled-out shape, all on
 * this machine: a three-master Redis Cluster and PgBouncer in transaction
 * pooling (both started here), `tas worker` in a process of its own, and 1
 * to N edges (`tas serve --no-workers`, N from BENCH_TOPOLOGY_EDGES, 2 by
 * default) sharing the load generator's connections. For each N: throughput,
 * latency, and the CPU each component spent per inquiry (edges together, the
 * worker, PostgreSQL's processes, the cluster's redis-servers, pgbouncer),
 * which docs/scaling.md turns into a capacity model.
 */
const TICK_MS = 10;

interface Parts {
  edges: number;
  worker: number;
  postgres: number;
  redis: number;
  pgbouncer: number;
  loadgen: number;
  machine: number;
  at: number;
}

/** Busy ticks of the whole machine (all cores). */
function machineBusy(): number {
  try {
    const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
    return cpu.reduce((a, b) => a + b, 0) - (cpu[3] ?? 0) - (cpu[4] ?? 0);
  } catch {
    return 0;
  }
}

export async function inquiryTopologyScenario(
  s: LoadSettings,
  maxEdges = Number(process.env.BENCH_TOPOLOGY_EDGES ?? 2),
): Promise<ScenarioResult> {
  const cluster = await startRedisCluster();
  const bouncer = await startPgBouncer({ poolSize: 20 }).catch(async (error: unknown) => {
    await cluster.stop();
    throw error;
  });
  let service: ServiceHandle | null = null;
  const extraEdges: { port: number; pid: number; stop(): Promise<void> }[] = [];
  let worker: Awaited<ReturnType<typeof startWorker>> | null = null;
  try {
    service = await startService({
      viaPort: bouncer.port,
      serveArgs: ['--no-workers'],
      env: { REDIS_CLUSTER_NODES: cluster.nodes, TAS_DB_POOLER: 'transaction' },
    });
    worker = await startWorker(service);
    const steps: Record<string, unknown>[] = [];
    for (let n = 1; n <= maxEdges; n += 1) {
      while (1 + extraEdges.length < n) extraEdges.push(await startEdge(service));
      const ports = [service.port, ...extraEdges.map((e) => e.port)];
      const edgePids = [service.pid, ...extraEdges.map((e) => e.pid)];
      const snap = (loadgenPid: number): Parts => ({
        at: Date.now(),
        edges: edgePids.reduce((sum, pid) => sum + ticksOf(pid), 0),
        worker: ticksOf(worker!.pid),
        postgres: ticksOfCommand('postgres', service!.dbName),
        redis: cluster.pids.reduce((sum, pid) => sum + ticksOf(pid), 0),
        pgbouncer: ticksOf(bouncer.pid),
        loadgen: ticksOf(loadgenPid),
        machine: machineBusy(),
      });
      const job: LoadJob = {
        connections: s.connections,
        durationS: s.durationS,
        warmupS: s.warmupS,
        timeoutMs: 10_000,
        port: service.port,
        ports,
        method: 'POST',
        path: '/v1/inquiries',
        headers: { Authorization: `Bearer ${service.keys.live}` },
        body: { seed: randomBytes(3).toString('hex'), worker: false, emails: 1 },
        classify: true,
      };
      const child = forkTs('loadgen.ts');
      const before = snap(child.pid!);
      child.send(job);
      const { result } = await waitMessage<{ result: LoadResult }>(child, 'result', (s.warmupS + s.durationS) * 1000 + 60_000);
      const after = snap(child.pid!);
      const perInquiry = (k: keyof Parts) => Math.round((((after[k] - before[k]) * TICK_MS) / Math.max(1, result.completed)) * 100) / 100;
      const cores = (k: keyof Parts) => Math.round((((after[k] - before[k]) * TICK_MS) / Math.max(1, after.at - before.at)) * 100) / 100;
      steps.push({
        edges: n,
        rps: result.rps,
        p50_ms: result.latency_ms.p50,
        p95_ms: result.latency_ms.p95,
        errors: result.errors + result.warmup_errors,
        statuses: result.statuses,
        cpu_ms_per_inquiry: {
          edges: perInquiry('edges'),
          worker: perInquiry('worker'),
          postgres: perInquiry('postgres'),
          redis: perInquiry('redis'),
          pgbouncer: perInquiry('pgbouncer'),
        },
        cores: {
          edges: cores('edges'),
          worker: cores('worker'),
          postgres: cores('postgres'),
          redis: cores('redis'),
          pgbouncer: cores('pgbouncer'),
          loadgen: cores('loadgen'),
          machine_busy: cores('machine'),
        },
      });
    }
    const last = steps[steps.length - 1]!;
    return {
      scenario: 'inquiry-topology',
      rps: last.rps as number,
      p50_ms: last.p50_ms as number,
      p95_ms: last.p95_ms as number,
      errors: steps.reduce((n, x) => n + (x.errors as number), 0),
      connections: s.connections,
      redis: 'cluster, 3 masters',
      pooler: 'pgbouncer 1.18, transaction, 20 server connections',
      steps,
    };
  } finally {
    for (const e of extraEdges.reverse()) await e.stop();
    await worker?.stop();
    await service?.stop();
    await bouncer.stop();
    await cluster.stop();
  }
}

/** `tas worker` beside the edges, with the service's environment; resolves once it says it runs. */
async function startWorker(service: ServiceHandle): Promise<{ pid: number; stop(): Promise<void> }> {
  const spool = join(tmpdir(), `tas-bench-spool-worker-${randomBytes(4).toString('hex')}`);
  const child = spawnTracked(process.execPath, ['bin/tas.js', 'worker'], { cwd: ROOT_DIR, env: { ...service.env, TAS_SPOOL_DIR: spool } });
  const output = captureOutput(child);
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`tas worker did not start within 60 s\n${output.text().slice(-2000)}`)), 60_000);
    child.stdout!.on('data', () => {
      if (output.text().includes('tas workers running')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => reject(new Error(`tas worker exited (code ${code}) during start-up\n${output.text().slice(-2000)}`)));
  });
  return {
    pid: child.pid!,
    async stop() {
      await stopChild(child, 'SIGINT', 20_000);
      rmSync(spool, { recursive: true, force: true });
    },
  };
}
