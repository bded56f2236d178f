import { connect } from 'node:net';
import { performance } from 'node:perf_hooks';
import { percentiles, Samples } from './lib/stats.js';

/**
 * SSE subscribers, run as a child process (forked by bench/lib/sse.ts): real
 * `GET /v1/inquiries/{id}/events` streams on raw sockets (HTTP/1.1, chunked
 * body decoded, `text/event-stream` parsed), `perStream` of them on every
 * stream. Reports `ready` once every subscription was answered, then `done`
 * when every stream ended (InquiryConcluded ends it) or the time ran out.
 *
 * Latency of a delivery = the client's receive time - the event's
 * `occurred_at` (set by PostgreSQL inside the transaction that committed it).
 */
export interface SseJob {
  port: number;
  key: string;
  streams: { id: string; after: number }[];
  perStream: number;
  connectConcurrency: number;
  timeoutMs: number;
}

export interface SseReport {
  opened: number;
  failed: number;
  openedPerStream: number[];
  connect_s: number;
  first_failure?: string;
}

export interface SseDone {
  deliveries: number;
  replayed: number;
  ended: number;
  dropped: number;
  latency_ms: ReturnType<typeof percentiles>;
  /** Per event: its first subscriber's receive time - occurred_at (commit, relay, Redis, hub, first write). */
  first_delivery_ms: ReturnType<typeof percentiles>;
  /** Per event: last subscriber's receive time - first subscriber's (the fan-out itself). */
  fanout_spread_ms: ReturnType<typeof percentiles>;
  by_type: Record<string, number>;
  last_receive_ms: number;
  /** `stream:seq` -> [occurred_at, first receive, last receive] (epoch ms), for the parent's decomposition. */
  events: Record<string, [number, number, number]>;
}

const nowMs = () => performance.timeOrigin + performance.now();

function run(job: SseJob): void {
  const total = job.streams.length * job.perStream;
  const samples = new Samples();
  const byType: Record<string, number> = {};
  const perEvent = new Map<string, { occurred: number; first: number; last: number }>();
  const openedPerStream = job.streams.map(() => 0);
  let opened = 0;
  let failed = 0;
  let ended = 0;
  let dropped = 0;
  let replayed = 0;
  let lastReceive = 0;
  let started = 0;
  let firstFailure: string | undefined;
  let readySent = false;
  const t0 = performance.now();

  const settle = () => {
    if (!readySent && opened + failed === total) {
      readySent = true;
      process.send!({
        type: 'ready',
        opened,
        failed,
        openedPerStream,
        connect_s: Math.round(performance.now() - t0) / 1000,
        first_failure: firstFailure,
      } satisfies SseReport & { type: string });
    }
    if (readySent && ended + dropped + failed === total) finish();
  };

  const onEvent = (block: string, streamId: string, after: number) => {
    let seq = 0;
    let type = '';
    let data = '';
    for (const line of block.split('\n')) {
      if (line.startsWith('id: ')) seq = Number(line.slice(4));
      else if (line.startsWith('event: ')) type = line.slice(7);
      else if (line.startsWith('data: ')) data += line.slice(6);
    }
    if (!data) return; // a comment (stream open, heartbeat)
    const t = nowMs();
    if (seq <= after) {
      replayed += 1;
      return;
    }
    const occurred = Date.parse((JSON.parse(data) as { occurred_at: string }).occurred_at);
    samples.push(t - occurred);
    const key = `${streamId}:${seq}`;
    const seen = perEvent.get(key);
    if (seen) seen.last = t;
    else perEvent.set(key, { occurred, first: t, last: t });
    byType[type] = (byType[type] ?? 0) + 1;
    lastReceive = t;
  };

  const open = (streamIndex: number) => {
    const stream = job.streams[streamIndex]!;
    const sock = connect({ host: '127.0.0.1', port: job.port, noDelay: true });
    let head: Buffer | null = Buffer.alloc(0);
    let chunked = false;
    let raw: Buffer = Buffer.alloc(0);
    let text = '';
    let state: 'connecting' | 'open' | 'done' = 'connecting';
    const fail = (why: string) => {
      if (state === 'done') return;
      if (state === 'open') dropped += 1;
      else {
        failed += 1;
        firstFailure ??= why.slice(0, 300);
        next();
      }
      state = 'done';
      sock.destroy();
      settle();
    };
    const feed = (s: string) => {
      text += s;
      let i: number;
      while ((i = text.indexOf('\n\n')) >= 0) {
        onEvent(text.slice(0, i), stream.id, stream.after);
        text = text.slice(i + 2);
      }
    };
    const body = (buf: Buffer) => {
      if (!chunked) return feed(buf.toString('utf8'));
      raw = raw.length ? Buffer.concat([raw, buf]) : buf;
      for (;;) {
        const lineEnd = raw.indexOf('\r\n');
        if (lineEnd < 0) return;
        const size = Number.parseInt(raw.toString('latin1', 0, lineEnd), 16);
        if (size === 0) {
          state = 'done';
          ended += 1;
          sock.destroy();
          return settle();
        }
        if (raw.length < lineEnd + 2 + size + 2) return;
        feed(raw.toString('utf8', lineEnd + 2, lineEnd + 2 + size));
        raw = raw.subarray(lineEnd + 4 + size);
      }
    };
    sock.on('connect', () => {
      sock.write(
        `GET /v1/inquiries/${stream.id}/events?after=${stream.after} HTTP/1.1\r\nHost: 127.0.0.1:${job.port}\r\n` +
          `Authorization: Bearer ${job.key}\r\nAccept: text/event-stream\r\n\r\n`,
      );
    });
    sock.on('data', (chunk: Buffer) => {
      if (state === 'done') return;
      if (head) {
        head = Buffer.concat([head, chunk]);
        const end = head.indexOf('\r\n\r\n');
        if (end < 0) return;
        const headText = head.toString('latin1', 0, end);
        const rest = head.subarray(end + 4);
        head = null;
        const status = Number(headText.slice(9, 12));
        if (status !== 200) return fail(`HTTP ${status}: ${rest.toString('utf8')}`);
        chunked = /\r\ntransfer-encoding:\s*chunked/i.test(headText);
        state = 'open';
        opened += 1;
        openedPerStream[streamIndex]! += 1;
        next();
        settle();
        if (rest.length) body(rest);
        return;
      }
      body(chunk);
    });
    sock.on('error', (err) => fail(`socket: ${err.message}`));
    sock.on('close', () => fail('closed by the server before the stream ended'));
  };

  const next = () => {
    if (started >= total) return;
    const i = started++;
    open(i % job.streams.length);
  };

  let finished = false;
  const finish = () => {
    if (finished) return;
    finished = true;
    const done: SseDone = {
      deliveries: samples.length,
      replayed,
      ended,
      dropped,
      latency_ms: percentiles(samples.view()),
      first_delivery_ms: percentiles([...perEvent.values()].map((e) => e.first - e.occurred)),
      fanout_spread_ms: percentiles([...perEvent.values()].map((e) => e.last - e.first)),
      by_type: byType,
      last_receive_ms: lastReceive,
      events: Object.fromEntries([...perEvent].map(([k, e]) => [k, [e.occurred, e.first, e.last]])),
    };
    process.send!({ type: 'done', ...done }, () => process.exit(0));
  };
  setTimeout(finish, job.timeoutMs).unref();
  process.on('message', (m: { type?: string }) => {
    if (m.type === 'finish') finish();
  });
  for (let i = 0; i < Math.min(job.connectConcurrency, total); i += 1) next();
}

process.once('message', (job: SseJob) => run(job));
