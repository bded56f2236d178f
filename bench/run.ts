import { runWsSessions } from './wsSessions.js';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { parseArgs } from 'node:util';
import { anatomyScenario } from './lib/anatomy.js';
import { BENCH_DIR, cleanupAll, installExitHandlers } from './lib/children.js';
import { machineBusyCores } from './lib/cpu.js';
import {
  bareScenario,
  healthScenario,
  inquiryScenario,
  inquiryTwoEdgesScenario,
  type LoadSettings,
  type ScenarioResult,
} from './lib/scenarios.js';
import { inquiryTopologyScenario } from './lib/topology.js';
import { preflight } from './lib/service.js';
import { sseScenario } from './lib/sse.js';
import { formatSummary, summarise } from './profile-summary.js';

/**
 * `npm run bench` (full, under ten minutes), `npm run bench -- --quick`,
 * `npm run bench:ci` (health + inquiry, ~10 s each, fails on any error or an
 * inquiry p95 over 3000 ms), `npm run bench -- --profile` (the inquiry
 * scenario under node --cpu-prof, then its summary), `--only a,b` for a subset.
 * One JSON line per scenario on stdout, then the table; progress on stderr.
 */
function usage(message: string): never {
  console.error(
    `bench: ${message}\nusage: tsx bench/run.ts [--ci | --quick | --profile] [--only a,b] [--duration S] [--rate N] [--seed-entities N] [--subscribers N]`,
  );
  process.exit(2);
}

let parsed;
try {
  parsed = parseArgs({
    options: {
      ci: { type: 'boolean' },
      quick: { type: 'boolean' },
      profile: { type: 'boolean' },
      only: { type: 'string' },
      duration: { type: 'string' },
      subscribers: { type: 'string' },
      rate: { type: 'string' },
      'seed-entities': { type: 'string' },
    },
  });
} catch (error) {
  usage((error as Error).message);
}
const args = parsed.values;

const ALL = [
  'bare-json',
  'bare-insert',
  'health',
  'inquiry',
  'inquiry-returning',
  'inquiry-1conn',
  'inquiry-2edges',
  'inquiry-worker',
  'sse-fanout',
  'ws-sessions',
  'inquiry-anatomy',
];
const mode = args.ci ? 'ci' : args.profile ? 'profile' : args.quick ? 'quick' : 'full';
// Run only when named: they start servers of their own (a Redis Cluster and PgBouncer for inquiry-topology).
const ON_REQUEST = ['inquiry-topology'];
const selected = args.only
  ? args.only.split(',').map((s) => s.trim())
  : mode === 'ci'
    ? ['health', 'inquiry']
    : mode === 'profile'
      ? ['inquiry']
      : ALL;
for (const s of selected)
  if (!ALL.includes(s) && !ON_REQUEST.includes(s)) usage(`unknown scenario '${s}' (known: ${[...ALL, ...ON_REQUEST].join(', ')})`);

const seconds = (full: number, quick: number, ci: number) =>
  Number(args.duration ?? (mode === 'ci' ? ci : mode === 'quick' ? quick : full));
// --rate N turns the load scenarios into an open loop offering N requests per second (bench/loadgen.ts).
const rate = args.rate === undefined ? undefined : Number(args.rate);
if (rate !== undefined && !(rate > 0)) usage('--rate takes a positive number of requests per second');
// --seed-entities N: the inquiry scenarios run against a tenant already holding N entities (bench/lib/seed.ts).
const seeded = args['seed-entities'] === undefined ? undefined : Number(args['seed-entities']);
if (seeded !== undefined && !(Number.isInteger(seeded) && seeded > 0)) usage('--seed-entities takes a positive whole number');
const seed = seeded ? { seedEntities: seeded } : {};
const load = (full: number, quick: number, ci: number): LoadSettings => ({
  connections: 32,
  durationS: seconds(full, quick, ci),
  warmupS: mode === 'full' ? 3 : 2,
  ...(rate ? { rateRps: rate } : {}),
});
const subscribers = Number(args.subscribers ?? (mode === 'full' ? 10_000 : 1_000));

const progress = (msg: string) => process.stderr.write(`bench: ${msg}\n`);

async function runScenario(name: string): Promise<ScenarioResult> {
  switch (name) {
    case 'bare-json':
      return bareScenario('json', load(15, 5, 10));
    case 'bare-insert':
      return bareScenario('insert', load(15, 5, 10));
    case 'health':
      return healthScenario(load(15, 5, 10));
    case 'inquiry':
      return inquiryScenario(load(30, 8, 10), { worker: false, ...seed, ...(mode === 'profile' ? { nodeArgs: profileArgs() } : {}) });
    // The service time without queueing: one connection, one inquiry at a time.
    case 'inquiry-1conn':
      return inquiryScenario(
        { ...load(10, 5, 5), connections: 1 },
        { worker: false, name: 'inquiry-1conn', ...seed, ...(mode === 'profile' ? { nodeArgs: profileArgs() } : {}) },
      );
    // Returning customers: 2,000 subjects in turn, so nearly every inquiry reads a known entity's history.
    case 'inquiry-returning':
      return inquiryScenario(load(30, 8, 10), {
        worker: false,
        name: 'inquiry-returning',
        returning: 2000,
        ...(mode === 'profile' ? { nodeArgs: profileArgs() } : {}),
      });
    case 'inquiry-2edges':
      return inquiryTwoEdgesScenario(load(30, 8, 10));
    // 1..N edges, a separate worker, a Redis Cluster and PgBouncer (bench/lib/topology.ts; N: BENCH_TOPOLOGY_EDGES).
    case 'inquiry-topology':
      return inquiryTopologyScenario(load(30, 8, 10));
    case 'inquiry-worker':
      return inquiryScenario(load(30, 8, 10), { worker: true });
    case 'sse-fanout':
      return sseScenario({ subscribers, streams: Math.max(1, Math.round(subscribers / 100)), emails: 3, releaseIntervalMs: 25 });
    case 'ws-sessions':
      return wsSessionsScenario(mode === 'full' ? 1000 : 200, mode === 'full' ? 5 : 3);
    case 'inquiry-anatomy':
      return anatomyScenario(mode === 'full' ? 100 : 30, seed);
    default:
      throw new Error(`no scenario ${name}`);
  }
}

/** Concurrent live sessions, each streaming frames over WebSocket (bench/wsSessions.ts, its own service). */
async function wsSessionsScenario(sessions: number, framesPerSession: number) {
  const r = await runWsSessions({ sessions, framesPerSession, appendReadme: false, log: (line) => console.error(line) });
  return {
    scenario: 'ws-sessions',
    sessions: r.sessions,
    frames: r.framesSent,
    rps: r.achievedFramesPerSecond,
    p50_ms: r.frameToAssessmentMs.p50,
    p95_ms: r.frameToAssessmentMs.p95,
    p99_ms: r.frameToAssessmentMs.p99,
    errors: r.missing + r.refusals,
    peak_rss_mb: r.serverPeakRssMb,
  };
}

// Every thread writes its own profile (tsx's loader runs in a worker), so each run gets a directory
// and the main thread's profile (thread id 0 in the default name) is the one summarised.
let profileDir = '';
function profileArgs(): string[] {
  profileDir = `${BENCH_DIR}profiles/inquiry-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  return ['--cpu-prof', `--cpu-prof-dir=${profileDir}`];
}

function machine() {
  const cpu = cpus();
  return { nproc: cpu.length, cpu: cpu[0]?.model ?? 'unknown', ram_gb: Math.round(totalmem() / 2 ** 30), node: process.version };
}

const fmt = (x: unknown, digits = 1) => (typeof x === 'number' ? x.toFixed(digits) : '-');

function table(results: ScenarioResult[]): string {
  const head = ['scenario', 'req/s', 'p50 ms', 'p95 ms', 'p99 ms', 'errors', 'peak RSS MB', 'svc CPU ms/req', 'other cores'];
  const measured = results.filter((r) => r.rps !== undefined);
  const cpu = (r: ScenarioResult) =>
    r.cpu as { cores: { unaccounted: number }; cpu_ms_per_request: { service: number | null } } | undefined;
  const rows = measured.map((r) => [
    r.scenario,
    fmt(r.rps),
    fmt(r.p50_ms, 2),
    fmt(r.p95_ms, 2),
    fmt(r.p99_ms, 2),
    String(r.errors ?? '-'),
    String(r.peak_rss_mb ?? '-'),
    fmt(cpu(r)?.cpu_ms_per_request.service, 2),
    fmt(cpu(r)?.cores.unaccounted, 2),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  const notes = results
    .filter((r) => r.rps === undefined)
    .map((r) => `${r.scenario.padEnd(widths[0]!)}  ${r.skipped ? `skipped: ${r.skipped}` : 'see its JSON line'}`);
  const sse = results.find((r) => r.scenario === 'sse-fanout');
  if (sse) notes.push('(sse-fanout: req/s = deliveries per second; latency = client receive - event occurred_at)');
  return [...(rows.length ? [line(head), ...rows.map(line)] : []), ...notes].join('\n');
}

/** The issue's targets, judged on this run's figures (null when a figure was not measured). */
function targets(results: ScenarioResult[]): { target: string; measured: string; met: boolean | null }[] {
  const get = (name: string) => results.find((r) => r.scenario === name);
  const inquiry = get('inquiry');
  const insert = get('bare-insert');
  const health = get('health');
  const bare = get('bare-json');
  const sse = get('sse-fanout');
  const out: { target: string; measured: string; met: boolean | null }[] = [];
  if (inquiry?.p95_ms !== undefined)
    out.push({ target: 'inquiry p95 <= 25 ms at 32 connections', measured: `${inquiry.p95_ms} ms`, met: inquiry.p95_ms <= 25 });
  if (inquiry?.rps !== undefined && insert?.rps !== undefined) {
    const ratio = inquiry.rps / insert.rps;
    out.push({
      target: 'inquiry req/s >= 50 % of bare durable INSERT',
      measured: `${(ratio * 100).toFixed(1)} % (${inquiry.rps} vs ${insert.rps})`,
      met: ratio >= 0.5,
    });
  }
  if (health?.rps !== undefined && bare?.rps !== undefined) {
    const ratio = health.rps / bare.rps;
    out.push({
      target: '/v1/health req/s >= 80 % of bare handler',
      measured: `${(ratio * 100).toFixed(1)} % (${health.rps} vs ${bare.rps})`,
      met: ratio >= 0.8,
    });
  }
  if (sse?.p99_ms !== undefined) {
    const full = Number(sse.opened) >= 10_000;
    out.push({
      target: 'SSE fan-out to 10,000 subscribers, p99 <= 250 ms',
      measured: `p99 ${sse.p99_ms} ms at ${sse.opened} subscribers, ${sse.errors} errors`,
      met: full ? sse.p99_ms <= 250 && sse.errors === 0 : null,
    });
  }
  const ws = results.find((r) => r.scenario === 'ws-sessions');
  if (ws?.sessions !== undefined) {
    const full = Number(ws.sessions) >= 1000;
    out.push({
      target: '1,000 concurrent sessions',
      measured: `${ws.sessions} sessions, frame-to-assessment p99 ${ws.p99_ms} ms, ${ws.errors} errors`,
      met: full ? ws.errors === 0 : null,
    });
  }
  return out;
}

async function main(): Promise<number> {
  installExitHandlers();
  const started = Date.now();
  try {
    await preflight();
  } catch (error) {
    console.error(
      `bench: cannot run: ${(error as Error).message}\n  (scripts/ensure-services.sh starts this machine's PostgreSQL and Redis)`,
    );
    return 2;
  }
  const busy = await machineBusyCores();
  console.log(JSON.stringify({ bench: mode, machine: machine(), busy_cores_before_start: busy, scenarios: selected }));
  if (busy > 0.3)
    progress(`WARNING: ${busy} cores were already busy before the bench started (another workload?): figures will be pessimistic`);
  const results: ScenarioResult[] = [];
  for (const name of selected) {
    progress(`${name}...`);
    const t = Date.now();
    const result = await runScenario(name);
    result.wall_s = Math.round((Date.now() - t) / 100) / 10;
    results.push(result);
    console.log(JSON.stringify(result));
  }
  console.log(`\n${table(results)}\n`);
  const contended = results.filter((r) => ((r.cpu as { cores?: { unaccounted?: number } } | undefined)?.cores?.unaccounted ?? 0) > 0.3);
  if (contended.length)
    console.log(
      `WARNING: CPU not charged to this run's processes exceeded 0.3 cores in: ${contended.map((r) => r.scenario).join(', ')} (kernel networking, or another workload on the machine)\n`,
    );
  const judged = targets(results);
  for (const t of judged) console.log(`${t.met === null ? 'n/a ' : t.met ? 'MET ' : 'MISS'}  ${t.target}: ${t.measured}`);

  if (mode === 'profile') printProfile();
  const runtime = Math.round((Date.now() - started) / 1000);
  console.log(`\nwhole run: ${runtime} s`);
  if (mode === 'ci') return ciVerdict(results);
  return 0;
}

function printProfile(): void {
  const files = existsSync(profileDir) ? readdirSync(profileDir).filter((f) => f.endsWith('.cpuprofile')) : [];
  const main =
    files.find((f) => /\.\d+\.0\.\d+\.cpuprofile$/.test(f)) ??
    files.sort((a, b) => statSync(`${profileDir}/${b}`).size - statSync(`${profileDir}/${a}`).size)[0];
  if (!main) {
    console.log(`\nprofile: nothing was written to ${profileDir}`);
    return;
  }
  const path = `${profileDir}/${main}`;
  console.log(`\nprofile: ${path}\n\n${formatSummary(summarise(path))}`);
}

function ciVerdict(results: ScenarioResult[]): number {
  const failures: string[] = [];
  for (const r of results)
    if ((r.errors ?? 0) > 0)
      failures.push(`${r.scenario}: ${r.errors} request(s) failed${r.first_error ? ` (first: ${r.first_error})` : ''}`);
  const inquiry = results.find((r) => r.scenario === 'inquiry');
  if (inquiry && (inquiry.p95_ms ?? Infinity) > 3000) failures.push(`inquiry p95 ${inquiry.p95_ms} ms exceeds 3000 ms`);
  if (inquiry && (inquiry.requests as number) === 0) failures.push('inquiry completed no request');
  for (const f of failures) console.error(`bench:ci FAIL ${f}`);
  if (failures.length === 0) console.log('bench:ci ok');
  return failures.length ? 1 : 0;
}

main().then(
  async (code) => {
    await cleanupAll();
    process.exit(code);
  },
  async (error: Error) => {
    console.error(`bench: ${error.stack ?? error.message}`);
    await cleanupAll();
    process.exit(1);
  },
);
