import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import WebSocket, { type RawData } from 'ws';
import { cpuMs, freshService, peakRssMb, postgresCpuMs, ROOT, waitHealthy } from './wsSessionsService.js';

/**
 * ws-sessions: many concurrent live sessions against a real `tas serve`
 * (its own fresh database and Redis prefix, LOG_LEVEL=warn, DNS checks off),
 * each streaming a live intake (lines bringing an email, a phone, a site; a
 * claim; testimony), where every frame adds evidence and so must come back as
 * an assessment. Measured: frame-to-assessment
 * latency (send of the frame to receipt of the assessment naming its
 * `frame_seq`), frame-to-ack latency, session opening latency, and what
 * closing every session costs.
 *
 *   npx tsx bench/wsSessions.ts [--sessions 1000] [--frames 5] [--interval-ms 20000] [--no-readme]
 *
 * `runWsSessions(opts)` is the same run for the bench runner.
 */
export interface WsSessionsOptions {
  sessions?: number;
  framesPerSession?: number;
  /** Each session sends one frame every this many ms (sessions are spread evenly across it). */
  frameIntervalMs?: number;
  /** Append the result to bench/HISTORY.md (the diary) under "ws-sessions". */
  appendReadme?: boolean;
  log?: (line: string) => void;
}

export interface Percentiles {
  p50: number;
  p90: number;
  p95: number;
  p99: number;
  max: number;
}

export interface WsSessionsResult {
  sessions: number;
  framesPerSession: number;
  frameIntervalMs: number;
  framesSent: number;
  assessmentsReceived: number;
  refusals: number;
  missing: number;
  offeredFramesPerSecond: number;
  achievedFramesPerSecond: number;
  frameToAssessmentMs: Percentiles;
  /** The same, per frame position: the first frame of a session also creates its entity. */
  frameToAssessmentBySeq: Record<number, Percentiles>;
  frameToAckMs: Percentiles;
  openMs: Percentiles;
  closeAllMs: number;
  serverPeakRssMb: number | null;
  /** Server process CPU time (user + system) per assessed frame while streaming: what one frame costs the edge. */
  serverCpuMsPerFrame: number | null;
  /** CPU time of the run database's Postgres backends per assessed frame (same machine only). */
  postgresCpuMsPerFrame: number | null;
}

// Opening and connecting are done in waves this wide: the bench measures streaming, not a thundering herd of handshakes.
const OPEN_WAVE = 50;
// How long after the last frame is sent missing assessments are still awaited.
const DRAIN_WAIT_MS = 30_000;

function percentiles(values: number[]): Percentiles {
  const s = [...values].sort((a, b) => a - b);
  const at = (q: number) => (s.length === 0 ? NaN : Math.round(s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)]! * 10) / 10);
  return { p50: at(0.5), p90: at(0.9), p95: at(0.95), p99: at(0.99), max: at(1) };
}

async function inWaves<T>(count: number, width: number, fn: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let start = 0; start < count; start += width) {
    out.push(...(await Promise.all(Array.from({ length: Math.min(width, count - start) }, (_, k) => fn(start + k)))));
  }
  return out;
}

interface Session {
  ws: WebSocket;
  sent: Map<number, number>;
  acked: Map<number, number>;
  assessed: Map<number, number>;
  refused: number;
  closed: Promise<void>;
}

async function openAndConnect(base: string, key: string, i: number, openMs: number[]): Promise<Session> {
  const t0 = performance.now();
  const res = await fetch(`${base}/v1/sessions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      purpose: 'fraud_prevention',
      intent: 'onboarding',
      stake: { kind: 'account' },
      retention_mode: i % 2 ? 'transient' : 'standard',
    }),
  });
  if (res.status !== 201) throw new Error(`POST /v1/sessions answered ${res.status}`);
  const opened = (await res.json()) as { ws_url: string; token: string };
  const ws = new WebSocket(opened.ws_url, ['tas.v1', `tas.token.${opened.token}`]);
  const s: Session = {
    ws,
    sent: new Map(),
    acked: new Map(),
    assessed: new Map(),
    refused: 0,
    closed: new Promise((r) => ws.once('close', () => r())),
  };
  ws.on('message', (data) => {
    const m = JSON.parse(textOf(data)) as { type: string; seq?: number; frame_seq?: number };
    const now = performance.now();
    if (m.type === 'ack' && m.seq !== undefined) s.acked.set(m.seq, now);
    else if (m.type === 'refused') s.refused += 1;
    else if ((m.type === 'assessment.issued' || m.type === 'assessment.revised') && m.frame_seq) s.assessed.set(m.frame_seq, now);
  });
  await new Promise<void>((resolve, reject) => {
    ws.on('message', function ready(data) {
      if (textOf(data).includes('"type":"ready"')) {
        ws.off('message', ready);
        resolve();
      }
    });
    ws.once('error', reject);
  });
  openMs.push(performance.now() - t0);
  return s;
}

/**
 * What a live intake looks like: lines that bring identifiers (an email, a
 * phone, a site), a claim, and testimony, cycling. Each adds evidence, so each
 * must come back as an assessment; values are distinct per session and frame.
 */
/** A text message's payload (ws hands a Buffer, or fragments, or an ArrayBuffer). */
function textOf(data: RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  return (Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data)).toString('utf8');
}

const FRAME_KINDS = ['email line', 'phone line', 'claim', 'observation', 'URL line'];

function frameFor(i: number, seq: number): Record<string, unknown> {
  const round = Math.floor((seq - 1) / 5);
  switch ((seq - 1) % 5) {
    case 0:
      return { type: 'text', line: `Hi, reach me at user${i}r${round}@bench${i % 97}.example.com please` };
    case 1:
      return { type: 'text', line: `or call +44 20 7946 ${String((i * 7 + round) % 10_000).padStart(4, '0')}` };
    case 2:
      return { type: 'claim', claim: { country: round % 2 ? 'US' : 'GB' } };
    case 3:
      return { type: 'observation', summary: `Paid invoice ${i}-${round} on time`, provenance_class: 'tenant_supplied' };
    default:
      return { type: 'text', line: `my shop is https://shop-${i}-${round}.example.co.uk/about` };
  }
}

function stream(sessions: Session[], frames: number, intervalMs: number): Promise<void> {
  return new Promise((resolve) => {
    let pending = sessions.length;
    sessions.forEach((s, i) => {
      let seq = 0;
      const tick = () => {
        seq += 1;
        s.sent.set(seq, performance.now());
        s.ws.send(JSON.stringify(frameFor(i, seq)));
        if (seq < frames) setTimeout(tick, intervalMs);
        else if (--pending === 0) resolve();
      };
      // Spread evenly, so the offered load is steady rather than synchronised bursts.
      setTimeout(tick, (intervalMs * i) / sessions.length);
    });
  });
}

async function awaitAssessments(sessions: Session[], total: number): Promise<void> {
  const deadline = Date.now() + DRAIN_WAIT_MS;
  while (Date.now() < deadline && sessions.reduce((n, s) => n + s.assessed.size, 0) < total) await new Promise((r) => setTimeout(r, 100));
}

export async function runWsSessions(opts: WsSessionsOptions = {}): Promise<WsSessionsResult> {
  const n = opts.sessions ?? 1000;
  const frames = opts.framesPerSession ?? 5;
  // A person in a live chat or form sends a line every twenty seconds or so: 1,000 of them offer 50 frames/s.
  const intervalMs = opts.frameIntervalMs ?? 20_000;
  const log = opts.log ?? ((line: string) => console.error(line));
  const svc = await freshService();
  // WS_BENCH_NODE_ARGS (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`) profiles the server; NODE_OPTIONS may not carry those flags.
  const nodeArgs = (process.env.WS_BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, join(ROOT, 'bin/tas.js'), 'serve'], {
    // One key opens every session: the per-key and per-tenant session caps (issue 40, 25 and 100) and the
    // scheduler's per-tenant queue (issue 48) are not what this bench measures (bench/fairShare.ts does).
    env: { ...svc.env, TAS_SESSIONS_PER_KEY: '1000000', TAS_SESSIONS_PER_TENANT: '1000000', TAS_SCHEDULER_QUEUE: '1000000' },
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const sessions: Session[] = [];
  try {
    await waitHealthy(svc.base, child);
    log(`ws-sessions: opening ${n} sessions on ${svc.base}`);
    const openMs: number[] = [];
    sessions.push(...(await inWaves(n, OPEN_WAVE, (i) => openAndConnect(svc.base, svc.key, i, openMs))));
    log(`ws-sessions: streaming ${frames} frames per session, one every ${intervalMs} ms`);
    const started = performance.now();
    const cpuBefore = [cpuMs(child.pid), await postgresCpuMs(svc.dbName)];
    await stream(sessions, frames, intervalMs);
    await awaitAssessments(sessions, n * frames);
    const elapsedS = (performance.now() - started) / 1000;
    const cpuAfter = [cpuMs(child.pid), await postgresCpuMs(svc.dbName)];
    const result = measure(sessions, { n, frames, intervalMs, elapsedS, openMs });
    const perFrame = (i: number) =>
      cpuBefore[i] == null || cpuAfter[i] == null || result.assessmentsReceived === 0
        ? null
        : Math.round(((cpuAfter[i] - cpuBefore[i]) / result.assessmentsReceived) * 10) / 10;
    result.serverCpuMsPerFrame = perFrame(0);
    result.postgresCpuMsPerFrame = perFrame(1);
    const closeStarted = performance.now();
    for (const s of sessions) s.ws.send(JSON.stringify({ type: 'close', reason: 'bench_done' }));
    await Promise.race([Promise.all(sessions.map((s) => s.closed)), new Promise((r) => setTimeout(r, DRAIN_WAIT_MS))]);
    result.closeAllMs = Math.round(performance.now() - closeStarted);
    result.serverPeakRssMb = peakRssMb(child.pid);
    if (opts.appendReadme ?? true) appendReadme(result);
    return result;
  } finally {
    for (const s of sessions) s.ws.terminate();
    child.kill('SIGTERM');
    await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
    await svc.cleanup();
  }
}

function measure(
  sessions: Session[],
  p: { n: number; frames: number; intervalMs: number; elapsedS: number; openMs: number[] },
): WsSessionsResult {
  const toAssessment: number[] = [];
  const toAck: number[] = [];
  const bySeq: Record<number, number[]> = {};
  for (const s of sessions) {
    for (const [seq, t] of s.sent) {
      const a = s.assessed.get(seq);
      if (a !== undefined) {
        toAssessment.push(a - t);
        (bySeq[seq] ??= []).push(a - t);
      }
      const k = s.acked.get(seq);
      if (k !== undefined) toAck.push(k - t);
    }
  }
  const sent = p.n * p.frames;
  return {
    sessions: p.n,
    framesPerSession: p.frames,
    frameIntervalMs: p.intervalMs,
    framesSent: sent,
    assessmentsReceived: toAssessment.length,
    refusals: sessions.reduce((x, s) => x + s.refused, 0),
    missing: sent - toAssessment.length,
    offeredFramesPerSecond: Math.round((p.n * 1000) / p.intervalMs),
    achievedFramesPerSecond: Math.round(toAssessment.length / p.elapsedS),
    frameToAssessmentMs: percentiles(toAssessment),
    frameToAssessmentBySeq: Object.fromEntries(Object.entries(bySeq).map(([k, v]) => [k, percentiles(v)])),
    frameToAckMs: percentiles(toAck),
    openMs: percentiles(p.openMs),
    closeAllMs: 0,
    serverPeakRssMb: null,
    serverCpuMsPerFrame: null,
    postgresCpuMsPerFrame: null,
  };
}

function appendReadme(r: WsSessionsResult): void {
  // The diary takes every run; bench/README.md's table of current figures is updated by hand.
  const path = join(ROOT, 'bench/HISTORY.md');
  const row = (name: string, q: Percentiles) => `| ${name} | ${q.p50} | ${q.p90} | ${q.p95} | ${q.p99} | ${q.max} |`;
  const heading =
    existsSync(path) && readFileSync(path, 'utf8').includes('\n## ws-sessions')
      ? ''
      : '\n## ws-sessions\n\n`npx tsx bench/wsSessions.ts` (or `runWsSessions(opts)`): concurrent live sessions over WebSocket against `tas serve` on a fresh database (LOG_LEVEL=warn, TAS_DNS_SERVERS=off). Each session streams a cycle of frames that each add evidence (a line with an email, a line with a phone, a claim, an observation, a line with a URL), so every frame must come back as an assessment; latency is measured from sending the frame to receiving the assessment naming its `frame_seq`.\n';
  appendFileSync(
    path,
    `${heading}
### ${new Date().toISOString()} (${process.platform}, Node ${process.version}, client and server on one machine)

${r.sessions} sessions, ${r.framesPerSession} frames each, one frame per session every ${r.frameIntervalMs} ms: offered ${r.offeredFramesPerSecond} frames/s, achieved ${r.achievedFramesPerSecond} assessments/s; ${r.assessmentsReceived}/${r.framesSent} assessments received, ${r.refusals} refusals. Closing every session: ${r.closeAllMs} ms. Server peak RSS: ${r.serverPeakRssMb ?? '?'} MB; CPU per assessed frame: server ${r.serverCpuMsPerFrame ?? '?'} ms, Postgres ${r.postgresCpuMsPerFrame ?? '?'} ms.

| ms | p50 | p90 | p95 | p99 | max |
|---|---|---|---|---|---|
${row('frame to assessment', r.frameToAssessmentMs)}
${Object.entries(r.frameToAssessmentBySeq)
  .slice(0, 5)
  .map(([seq, q]) => row(`… frame ${seq} (${FRAME_KINDS[(Number(seq) - 1) % 5]})`, q))
  .join('\n')}
${row('frame to ack', r.frameToAckMs)}
${row('open (POST + upgrade + ready)', r.openMs)}
`,
  );
}

function argValue(name: string): number | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : undefined;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  runWsSessions({
    sessions: argValue('--sessions'),
    framesPerSession: argValue('--frames'),
    frameIntervalMs: argValue('--interval-ms'),
    appendReadme: !process.argv.includes('--no-readme'),
  }).then(
    (r) => console.log(JSON.stringify(r, null, 2)),
    (err) => {
      console.error(err);
      process.exitCode = 1;
    },
  );
}
