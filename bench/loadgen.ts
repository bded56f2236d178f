import { connect } from 'node:net';
import { performance } from 'node:perf_hooks';
import { bodyFactory } from './lib/bodies.js';
import { percentiles, round, Samples } from './lib/stats.js';

/**
 * The load generator, run as a child process (forked by bench/run.ts): a
 * closed loop of `connections` HTTP/1.1 keep-alive connections on raw
 * sockets, one request in flight per connection, every request's latency
 * recorded exactly (write of the request to the last byte of the response,
 * in fractional milliseconds). Requests completing during the warm-up are not
 * recorded; the measured window is `durationS` seconds after it.
 */
export interface LoadJob {
  port: number;
  /** Several edges of one service: connection i goes to ports[i % ports.length] (default: `port` alone). */
  ports?: number[];
  connections: number;
  durationS: number;
  warmupS: number;
  timeoutMs: number;
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  /** POST bodies: a distinct inquiry per request. */
  body?: { seed: string; worker: boolean; emails?: number; returning?: number };
  /** Count responses by their `"status":"..."` (inquiry: concluded / preliminary). */
  classify?: boolean;
  /**
   * Open loop: offer this many requests per second whatever the answers,
   * spread over the connections (a request waits for a free one). Latency
   * counts from when the request was due, not when a connection took it, so
   * a server falling behind shows as latency instead of hiding as a slower
   * offered rate (coordinated omission). Absent: a closed loop.
   */
  rateRps?: number;
}

export interface LoadResult {
  requests: number;
  /** Every response received, warm-up and tail included (for CPU per request). */
  completed: number;
  duration_s: number;
  rps: number;
  /** Successful answers per second in each 10-second window of the measured time, in order. */
  windows_rps: number[];
  /** The open-loop rate offered, when there was one. */
  offered_rps?: number;
  latency_ms: ReturnType<typeof percentiles>;
  errors: number;
  warmup_errors: number;
  statuses: Record<string, number>;
  timeouts: number;
  socket_errors: number;
  classes?: Record<string, number>;
  first_error?: string;
}

interface Parsed {
  status: number;
  end: number;
  body: Buffer;
}

/** One complete response at the start of `buf`, or null while incomplete. */
export function parseResponse(buf: Buffer): Parsed | null {
  const headEnd = buf.indexOf('\r\n\r\n');
  if (headEnd < 0) return null;
  const head = buf.toString('latin1', 0, headEnd);
  const status = Number.parseInt(head.slice(9, 12), 10);
  const cl = /\r\ncontent-length:\s*(\d+)/i.exec(head);
  const start = headEnd + 4;
  if (cl) {
    const end = start + Number(cl[1]);
    return buf.length < end ? null : { status, end, body: buf.subarray(start, end) };
  }
  if (!/\r\ntransfer-encoding:\s*chunked/i.test(head)) return { status, end: start, body: Buffer.alloc(0) };
  const parts: Buffer[] = [];
  let pos = start;
  for (;;) {
    const lineEnd = buf.indexOf('\r\n', pos);
    if (lineEnd < 0) return null;
    const size = Number.parseInt(buf.toString('latin1', pos, lineEnd), 16);
    if (size === 0) return buf.length < lineEnd + 4 ? null : { status, end: lineEnd + 4, body: Buffer.concat(parts) };
    if (buf.length < lineEnd + 2 + size + 2) return null;
    parts.push(buf.subarray(lineEnd + 2, lineEnd + 2 + size));
    pos = lineEnd + 2 + size + 2;
  }
}

export async function runLoad(job: LoadJob): Promise<LoadResult> {
  const makeBody = job.body
    ? bodyFactory(job.body.seed, { worker: job.body.worker, emails: job.body.emails, returning: job.body.returning })
    : null;
  const ports = job.ports && job.ports.length > 0 ? job.ports : [job.port];
  let nextConn = 0;
  const fixedHead =
    `${job.method} ${job.path} HTTP/1.1\r\nHost: 127.0.0.1\r\n` +
    Object.entries(job.headers)
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('');
  let counter = 0;
  let completed = 0;
  const samples = new Samples();
  const statuses: Record<string, number> = {};
  const classes: Record<string, number> = {};
  let errors = 0;
  let warmupErrors = 0;
  let timeouts = 0;
  let socketErrors = 0;
  let firstError: string | undefined;

  const t0 = performance.now();
  const warmupEnd = t0 + job.warmupS * 1000;
  const end = warmupEnd + job.durationS * 1000;
  const inWindow = (t: number) => t >= warmupEnd && t < end;
  const WINDOW_MS = 10_000;
  const windows = new Array<number>(Math.max(1, Math.ceil((job.durationS * 1000) / WINDOW_MS))).fill(0);
  const countWindow = (t: number) => {
    const i = Math.floor((t - warmupEnd) / WINDOW_MS);
    if (i >= 0 && i < windows.length) windows[i]! += 1;
  };
  // Open loop: the due times of requests not yet taken by a connection, and the connections waiting for one.
  const rate = job.rateRps && job.rateRps > 0 ? job.rateRps : null;
  const due: number[] = [];
  const idle: Array<(dueAt: number) => void> = [];
  let scheduled = 0;
  const offer = () => {
    const now = performance.now();
    if (rate === null) return;
    while (t0 + (scheduled * 1000) / rate <= Math.min(now, end)) due.push(t0 + (scheduled++ * 1000) / rate);
    while (due.length > 0 && idle.length > 0) idle.shift()!(due.shift()!);
  };
  const fail = (t: number, what: string) => {
    if (t < warmupEnd) warmupErrors += 1;
    else if (t < end) errors += 1;
    firstError ??= what.slice(0, 300);
  };

  let finished!: () => void;
  const allDone = new Promise<void>((r) => (finished = r));
  let open = job.connections;

  const startConn = () => {
    let buf: Buffer | null = null;
    let sentAt = 0;
    let busy = false;
    let closed = false;
    const retire = () => {
      if (closed) return;
      closed = true;
      timers.delete(watchdog);
      sock.destroy();
      if (--open === 0) finished();
    };
    const sendNow = (dueAt: number | null) => {
      const now = performance.now();
      if (now >= end) return retire();
      const body = makeBody ? JSON.stringify(makeBody(counter++)) : '';
      const req = `${fixedHead}${body ? `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` : ''}\r\n${body}`;
      busy = true;
      sentAt = dueAt ?? performance.now();
      sock.write(req);
    };
    const send = () => {
      if (rate === null) return sendNow(null);
      if (performance.now() >= end) return retire();
      idle.push((dueAt) => sendNow(dueAt));
      offer();
    };
    /** A dropped connection is replaced (after a pause, so a refusing server is not hammered). */
    const reconnect = () => {
      if (closed) return;
      closed = true;
      timers.delete(watchdog);
      sock.destroy();
      if (performance.now() >= end) {
        if (--open === 0) finished();
      } else {
        setTimeout(startConn, 50);
      }
    };
    const sock = connect({ host: '127.0.0.1', port: ports[nextConn++ % ports.length]!, noDelay: true });
    sock.on('connect', send);
    sock.on('data', (chunk: Buffer) => {
      buf = buf ? Buffer.concat([buf, chunk]) : chunk;
      const parsed = parseResponse(buf);
      if (!parsed) return;
      const t = performance.now();
      buf = parsed.end < buf.length ? buf.subarray(parsed.end) : null;
      busy = false;
      completed += 1;
      const key = String(parsed.status);
      if (inWindow(t)) statuses[key] = (statuses[key] ?? 0) + 1;
      if (parsed.status >= 200 && parsed.status < 300) {
        if (inWindow(t)) {
          samples.push(t - sentAt);
          countWindow(t);
          if (job.classify) {
            const m = /"status":"([a-z_]+)"/.exec(parsed.body.toString('utf8'));
            const c = m?.[1] ?? 'unknown';
            classes[c] = (classes[c] ?? 0) + 1;
          }
        }
      } else {
        fail(t, `HTTP ${parsed.status}: ${parsed.body.toString('utf8')}`);
      }
      send();
    });
    sock.on('error', (err) => {
      socketErrors += 1;
      busy = false;
      fail(performance.now(), `socket: ${err.message}`);
    });
    sock.on('close', () => {
      if (busy && !closed) fail(performance.now(), 'connection closed with a request in flight');
      reconnect();
    });
    const watchdog = () => {
      if (busy && !closed && performance.now() - sentAt > job.timeoutMs) {
        timeouts += 1;
        fail(performance.now(), `timeout after ${job.timeoutMs} ms`);
        reconnect();
      }
    };
    timers.add(watchdog);
  };

  const timers = new Set<() => void>();
  const ticker = setInterval(() => timers.forEach((f) => f()), 250);
  // An open loop needs a clock of its own: requests fall due whether or not an answer arrived.
  const offering =
    rate === null
      ? null
      : setInterval(() => {
          offer();
          // Past the end, connections still waiting for a request retire.
          if (performance.now() >= end) while (idle.length > 0) idle.shift()!(end);
        }, 1);
  for (let i = 0; i < job.connections; i += 1) startConn();
  await allDone;
  clearInterval(ticker);
  if (offering) clearInterval(offering);

  const latency = percentiles(samples.view());
  return {
    requests: latency.count,
    completed,
    duration_s: job.durationS,
    rps: round(latency.count / job.durationS, 1),
    // The last window is shorter when the duration is not a multiple of ten seconds.
    windows_rps: windows.map((n, i) => round(n / (Math.min(WINDOW_MS, job.durationS * 1000 - i * WINDOW_MS) / 1000), 1)),
    ...(rate !== null ? { offered_rps: rate } : {}),
    latency_ms: latency,
    errors,
    warmup_errors: warmupErrors,
    statuses,
    timeouts,
    socket_errors: socketErrors,
    ...(job.classify ? { classes } : {}),
    ...(firstError ? { first_error: firstError } : {}),
  };
}

if (process.send) {
  process.once('message', (job: LoadJob) => {
    runLoad(job).then(
      (result) => process.send!({ type: 'result', result }, () => process.exit(0)),
      (err: Error) => process.send!({ type: 'error', error: err.stack ?? err.message }, () => process.exit(1)),
    );
  });
}
