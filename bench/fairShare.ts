import { spawn, execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { request, type ClientRequest } from 'node:http';
import { readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import WebSocket, { type RawData } from 'ws';
import { z } from 'zod';
import { bodyFactory } from './lib/bodies.js';
import { freshService, ROOT, waitHealthy } from './wsSessionsService.js';

/**
 * fair-share (issue 40, "Done when"): one tenant (the flooder) runs 50 slow
 * uploads, 50 export downloads in a loop and 50 sessions sending frames as
 * fast as they are acknowledged, while another tenant's inquiries and session
 * frames are timed. The other tenant is measured twice in one run, idle and
 * under the flood, on one `tas serve` (edge and workers) with a fresh database.
 *
 *   npx tsx bench/fairShare.ts [--seconds 20] [--parts]
 *
 * Then the whole flood once more with nobody measured (`flood_alone`), so that
 * `flood_share` says what the flooder got under fair shares against what it
 * gets alone (issue 48: at least 40 %), and the service's resident memory is
 * sampled from /proc before the flood, at its peak under it, and after it,
 * and its heap and external buffers after a forced collection before the
 * flood and after it (issue 48: no queue or buffer grows without bound).
 *
 * --parts: then each part of the flood alone, to see which one dominates.
 */
const SECONDS = Number(process.argv[process.argv.indexOf('--seconds') + 1] ?? 20) || 20;
const FLOOD = 50;
const UPLOAD_SIZE = 8 * 1024 * 1024;
const run = promisify(execFile);

type Keys = { live_admin: string; live: string; test_admin: string; test: string };

const textOf = (d: RawData) => (Buffer.isBuffer(d) ? d : Array.isArray(d) ? Buffer.concat(d) : Buffer.from(d)).toString('utf8');

function p(values: number[], q: number): number {
  if (values.length === 0) return NaN;
  const s = [...values].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)]! * 10) / 10;
}
const summary = (v: number[]) => ({ n: v.length, p50: p(v, 0.5), p99: p(v, 0.99), max: p(v, 1) });

// The fields of the answers the bench goes on with; the rest of each body is not read.
const SessionOpened = z.object({ ws_url: z.string(), token: z.string() });
const MaterialDeclared = z.object({ upload: z.object({ url: z.string() }) });
const CaseOpened = z.object({ case_id: z.string() });
const ExportAsked = z.object({ export_id: z.string() });
const ExportStatus = z.object({ status: z.string() });

async function json(base: string, key: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as unknown) : null };
}

interface Live {
  ws: WebSocket;
  sent: Map<number, number>;
  onAssessed: (seq: number, at: number) => void;
  onAck: (seq: number) => void;
}

async function openSession(base: string, key: string): Promise<Live | null> {
  const res = await json(base, key, 'POST', '/v1/sessions', {
    purpose: 'fraud_prevention',
    intent: 'onboarding',
    stake: { kind: 'account' },
    retention_mode: 'transient',
  });
  if (res.status !== 201) return null;
  const opened = SessionOpened.parse(res.body);
  const ws = new WebSocket(opened.ws_url, ['tas.v1', `tas.token.${opened.token}`]);
  const s: Live = { ws, sent: new Map(), onAssessed: () => {}, onAck: () => {} };
  await new Promise<void>((resolve, reject) => {
    ws.on('message', (d) => {
      const m = JSON.parse(textOf(d)) as { type: string; seq?: number; frame_seq?: number };
      if (m.type === 'ready') resolve();
      else if (m.type === 'ack' && m.seq !== undefined) s.onAck(m.seq);
      else if ((m.type === 'assessment.issued' || m.type === 'assessment.revised') && m.frame_seq)
        s.onAssessed(m.frame_seq, performance.now());
    });
    ws.once('error', reject);
    ws.once('close', () => resolve());
  });
  return s;
}

const frame = (i: number, seq: number) => ({ type: 'text', line: `reach me at user${i}s${seq}@fair${i % 13}.example.com` });

/** The measured tenant: inquiries one after another, and 5 sessions each sending a frame every 400 ms. */
async function measure(base: string, keys: Keys, tag: string, ms: number) {
  const inquiries: number[] = [];
  const frames: number[] = [];
  const stopAt = performance.now() + ms;
  const body = bodyFactory(`${tag}${randomBytes(2).toString('hex')}`, { worker: false });
  const asking = (async () => {
    for (let n = 0; performance.now() < stopAt; n++) {
      const t0 = performance.now();
      const r = await json(base, keys.test, 'POST', '/v1/inquiries', body(n));
      if (r.status === 200) inquiries.push(performance.now() - t0);
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  const sessions = (await Promise.all(Array.from({ length: 5 }, () => openSession(base, keys.live)))).filter((s): s is Live => s !== null);
  const streaming = sessions.map(async (s, i) => {
    s.onAssessed = (seq, at) => {
      const t0 = s.sent.get(seq);
      if (t0 !== undefined) frames.push(at - t0);
    };
    for (let seq = 1; performance.now() < stopAt; seq++) {
      s.sent.set(seq, performance.now());
      s.ws.send(JSON.stringify(frame(i + 1000, seq)));
      await new Promise((r) => setTimeout(r, 400));
    }
  });
  await Promise.all([asking, ...streaming]);
  await new Promise((r) => setTimeout(r, 2000));
  for (const s of sessions) s.ws.terminate();
  return { inquiries: summary(inquiries), frames: summary(frames) };
}

/** A PUT that sends its body a slice a second (never finishing before the flood ends). */
function slowUpload(url: string, size: number): { req: ClientRequest; stop: () => void } {
  const req = request(url, { method: 'PUT', headers: { 'content-type': 'application/octet-stream', 'content-length': String(size) } });
  req.on('error', () => {});
  req.on('response', (res) => res.resume());
  const slice = Buffer.alloc(16 * 1024, 7);
  const timer = setInterval(() => req.write(slice), 1000);
  req.write(slice);
  return { req, stop: () => (clearInterval(timer), req.destroy()) };
}

function download(url: string, key: string): Promise<{ status: number; bytes: number }> {
  return new Promise((resolve) => {
    request(url, { agent: false, headers: { authorization: `Bearer ${key}` } }, (res) => {
      let n = 0;
      res.on('data', (d: Buffer) => (n += d.length));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes: n }));
      res.on('error', () => resolve({ status: res.statusCode ?? 0, bytes: n }));
    })
      .on('error', () => resolve({ status: 0, bytes: 0 }))
      .end();
  });
}

type Part = 'uploads' | 'downloads' | 'sessions';
const PARTS: readonly Part[] = ['uploads', 'downloads', 'sessions'];

async function flood(base: string, keys: Keys, parts: readonly Part[] = PARTS) {
  let stopping = false;
  const counts = { uploads: 0, downloads: 0, downloadsNot200: 0, downloadBytes: 0, sessions: 0, framesSent: 0, framesAcked: 0 };
  // 50 slow uploads.
  const bytes = randomBytes(UPLOAD_SIZE);
  const sha = createHash('sha256').update(bytes).digest('hex');
  const declared = await Promise.all(
    Array.from({ length: parts.includes('uploads') ? FLOOD : 0 }, () =>
      json(base, keys.test, 'POST', '/v1/material', {
        kind: 'text',
        media_type: 'text/plain',
        purpose: 'fraud_prevention',
        sha256: sha,
        size_bytes: UPLOAD_SIZE,
      }),
    ),
  );
  const uploads = declared.filter((d) => d.status === 201).map((d) => slowUpload(MaterialDeclared.parse(d.body).upload.url, UPLOAD_SIZE));
  counts.uploads = uploads.length;
  // One ready export, downloaded by 50 loops.
  const { case_id: caseId } = CaseOpened.parse(
    (
      await json(base, keys.live, 'POST', '/v1/cases', {
        title: 'Flood',
        purpose: 'investigation',
        authorization: { kind: 'court_order', reference: 'CO-FAIR', issued_by: 'Court' },
      })
    ).body,
  );
  await json(base, keys.live, 'POST', `/v1/cases/${caseId}/review`, { outcome: 'sign_off', note: 'Done.' });
  const { export_id: exportId } = ExportAsked.parse((await json(base, keys.live, 'POST', `/v1/cases/${caseId}/export`)).body);
  let ready: string | undefined;
  for (let i = 0; i < 200 && ready !== 'ready'; i++) {
    ready = ExportStatus.safeParse((await json(base, keys.live, 'GET', `/v1/cases/${caseId}/exports/${exportId}`)).body).data?.status;
    if (ready !== 'ready') await new Promise((r) => setTimeout(r, 100));
  }
  const bundleUrl = `${base}/v1/cases/${caseId}/exports/${exportId}/bundle`;
  const downloads = Array.from({ length: parts.includes('downloads') ? FLOOD : 0 }, async () => {
    while (!stopping) {
      const got = await download(bundleUrl, keys.live);
      counts.downloadBytes += got.bytes;
      counts.downloads += 1;
      if (got.status !== 200) counts.downloadsNot200 += 1;
    }
  });
  // 50 sessions (two keys: 25 a key is the per-key cap) sending a frame as soon as the last is acknowledged.
  const opening = Array.from({ length: parts.includes('sessions') ? FLOOD : 0 }, (_, i) =>
    openSession(base, i % 2 ? keys.live : keys.test),
  );
  const sessions = (await Promise.all(opening)).filter((s): s is Live => s !== null && s.ws.readyState === WebSocket.OPEN);
  counts.sessions = sessions.length;
  sessions.forEach((s, i) => {
    let seq = 0;
    const next = () => {
      if (stopping || s.ws.readyState !== WebSocket.OPEN) return;
      seq += 1;
      counts.framesSent += 1;
      s.ws.send(JSON.stringify(frame(i, seq)));
    };
    s.onAck = () => {
      counts.framesAcked += 1;
      next();
    };
    // Several frames in flight per session, so acks never pace the flood down to one at a time.
    for (let k = 0; k < 4; k++) next();
  });
  return {
    counts,
    stop: async () => {
      stopping = true;
      for (const u of uploads) u.stop();
      for (const s of sessions) s.ws.terminate();
      await Promise.race([Promise.all(downloads), new Promise((r) => setTimeout(r, 5000))]);
    },
  };
}

/** The service's resident memory in MB, from /proc (Linux); NaN elsewhere. */
async function rssMb(pid: number | undefined): Promise<number> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]) / 1024);
  } catch {
    return NaN;
  }
}

const HEAP_PROBE = pathToFileURL(join(ROOT, 'bench/lib/heapProbe.mjs')).href;
const HeapReport = z.object({ pid: z.number(), heapUsed: z.number(), external: z.number(), arrayBuffers: z.number() });

/**
 * The service's memory left after a forced collection, in MB (bench/lib/heapProbe.mjs):
 * heap and the buffers outside it. Null when the probe did not answer within five seconds.
 */
async function heapAfterGc(pid: number | undefined, file: string): Promise<{ heap: number; external: number } | null> {
  if (pid === undefined) return null;
  const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);
  await rm(file, { force: true });
  process.kill(pid, 'SIGUSR2');
  for (let i = 0; i < 50; i += 1) {
    await new Promise((r) => setTimeout(r, 100));
    const text = await readFile(file, 'utf8').catch(() => null);
    const report = text === null ? null : HeapReport.safeParse(JSON.parse(text));
    if (report?.success && report.data.pid === pid) return { heap: mb(report.data.heapUsed), external: mb(report.data.external) };
  }
  return null;
}

/** Samples the service's RSS every second until stopped; the highest seen. */
function rssPeak(pid: number | undefined): { stop: () => number } {
  let peak = 0;
  const timer = setInterval(() => void rssMb(pid).then((mb) => (peak = Math.max(peak, mb || 0))), 1000);
  return {
    stop: () => {
      clearInterval(timer);
      return peak;
    },
  };
}

async function main() {
  const svc = await freshService();
  const tas = (args: string[]) => run(process.execPath, [join(ROOT, 'bin/tas.js'), ...args], { env: svc.env, cwd: ROOT });
  const flooder = JSON.parse(
    (
      await tas([
        'tenant',
        'create',
        '--name',
        `flooder-${randomBytes(3).toString('hex')}`,
        '--investigative',
        '--authorization',
        'AUTH-1',
        '--json',
      ])
    ).stdout,
  ) as { keys: Keys };
  const measured = JSON.parse(
    (await tas(['tenant', 'create', '--name', `measured-${randomBytes(3).toString('hex')}`, '--json'])).stdout,
  ) as {
    keys: Keys;
  };
  const heapFile = join(tmpdir(), `tas-fair-heap-${randomBytes(4).toString('hex')}.json`);
  const nodeOptions = [svc.env.NODE_OPTIONS, '--expose-gc', `--import ${HEAP_PROBE}`].filter(Boolean).join(' ');
  const child = spawn(process.execPath, [join(ROOT, 'bin/tas.js'), 'serve'], {
    env: { ...svc.env, NODE_OPTIONS: nodeOptions, TAS_BENCH_HEAP_FILE: heapFile },
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    await waitHealthy(svc.base, child);
    // A short warm-up (first plans, first connections), not counted.
    await measure(svc.base, measured.keys, 'w', 3000);
    const idle = await measure(svc.base, measured.keys, 'i', SECONDS * 1000);
    const rssBefore = await rssMb(child.pid);
    const heapBefore = await heapAfterGc(child.pid, heapFile);
    const peak = rssPeak(child.pid);
    const f = await flood(svc.base, flooder.keys);
    const loaded = await measure(svc.base, measured.keys, 'f', SECONDS * 1000);
    await f.stop();
    const rssPeakFlooded = peak.stop();
    // The flood alone for as long: what the flooder gets with nobody else to share with.
    const lone = await flood(svc.base, flooder.keys);
    await new Promise((r) => setTimeout(r, SECONDS * 1000));
    await lone.stop();
    await new Promise((r) => setTimeout(r, 5000));
    const rssAfter = await rssMb(child.pid);
    const heapAfter = await heapAfterGc(child.pid, heapFile);
    // What dominates: each part of the flood alone (--parts), after the whole.
    const alone: Record<string, unknown> = {};
    if (process.argv.includes('--parts'))
      for (const part of PARTS) {
        const one = await flood(svc.base, flooder.keys, [part]);
        const m = await measure(svc.base, measured.keys, part[0]!, SECONDS * 1000);
        await one.stop();
        alone[part] = { inquiries_p99: m.inquiries.p99, frames_p99: m.frames.p99, flood: one.counts };
      }
    const ratio = (a: number, b: number) => Math.round((a / b) * 100) / 100;
    console.log(
      JSON.stringify({
        seconds: SECONDS,
        flood: f.counts,
        idle,
        flooded: loaded,
        p99_ratio: { inquiries: ratio(loaded.inquiries.p99, idle.inquiries.p99), frames: ratio(loaded.frames.p99, idle.frames.p99) },
        flood_alone: lone.counts,
        flood_share: {
          downloads: ratio(f.counts.downloads, lone.counts.downloads),
          frames_acked: ratio(f.counts.framesAcked, lone.counts.framesAcked),
        },
        rss_mb: { before_flood: rssBefore, peak_flooded: rssPeakFlooded, after: rssAfter },
        // What a forced collection leaves (heap, and buffers outside it): a queue or buffer that kept its flood shows here.
        after_gc_mb: { before_flood: heapBefore, after: heapAfter },
        alone,
      }),
    );
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    await svc.cleanup();
  }
}

await main();
