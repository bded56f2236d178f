import { statusLine, type Exchange } from './exchange.js';

/**
 * A server-sent events writer on a uWS response (STYLE habit 10): every write
 * is corked (they all happen outside the request callback), the status line
 * goes before the headers, nothing is written once the client is gone, and
 * no exception escapes into uWS (the onWritable and abort callbacks catch).
 *
 * Backpressure: uWS `write` returning false means the socket did not take the
 * whole chunk (uWS keeps the rest). From then on chunks wait in our queue
 * until uWS calls onWritable; when the queue passes `maxBufferedBytes` the
 * client is too slow to keep up and is dropped with a clean end. Nothing is
 * lost by that: it reconnects with Last-Event-ID and replays from Postgres.
 */

/**
 * Comment lines sent while a stream is quiet, so proxies and load balancers
 * (idle timeouts of 30-60 s are common) keep the connection open, and a dead
 * client is noticed by a failing write. 15 s is DESIGN 2.2's figure.
 */
export const HEARTBEAT_MS = 15_000;
// Long enough not to stampede a restarting instance, short enough that a dropped client is back quickly.
export const RECONNECT_AFTER_MS = 2000;

/**
 * Bytes queued for one client before it is dropped. An event is a few KB, so
 * this is hundreds of events of lag; past that, replaying from Postgres on
 * reconnect is cheaper than holding the backlog in this process's memory.
 */
export const MAX_BUFFERED_BYTES = 256 * 1024;

export type SseCloseReason = 'aborted' | 'ended' | 'slow_client';

export interface SseOptions {
  auditId: string;
  reqId: string;
  heartbeatMs?: number;
  maxBufferedBytes?: number;
  /** Called once, whatever ended the stream (never throws into uWS: errors are swallowed). */
  onClose?: (reason: SseCloseReason) => void;
}

export interface SseWriter {
  readonly closed: boolean;
  /** Writes one event: `id:` is the sequence, `event:` the type, `data:` the JSON of `data`. */
  event(id: number, type: string, data: unknown): void;
  comment(text: string): void;
  /** Writes an event with no `id:`: a live signal a reconnecting client does not resume from. */
  signal(type: string, data: unknown): void;
  /** Settles when nothing waits in our queue (a replay waits on it before reading the next page). */
  drained(): Promise<void>;
  /** Flushes what is queued and ends the response. */
  end(): void;
}

export function openSse(ex: Exchange, opts: SseOptions): SseWriter {
  const maxBuffered = opts.maxBufferedBytes ?? MAX_BUFFERED_BYTES;
  const queue: string[] = [];
  let queuedBytes = 0;
  let blocked = false;
  let closed = false;
  let waiters: (() => void)[] = [];
  let heartbeat: NodeJS.Timeout | null = null;

  const release = () => {
    const ws = waiters;
    waiters = [];
    for (const w of ws) w();
  };
  const finish = (reason: SseCloseReason) => {
    if (closed) return;
    closed = true;
    if (heartbeat) clearInterval(heartbeat);
    queue.length = 0;
    queuedBytes = 0;
    release();
    try {
      opts.onClose?.(reason);
    } catch {
      // The owner's cleanup failing must not unwind into uWS's abort callback.
    }
  };
  /** Runs `fn` corked; a throw (a response uWS already discarded) closes the stream instead of escaping. */
  const corked = (fn: () => void) => {
    try {
      ex.res.cork(fn);
    } catch {
      finish('aborted');
    }
  };
  const push = (chunk: string) => {
    if (closed) return;
    if (blocked) {
      queue.push(chunk);
      queuedBytes += Buffer.byteLength(chunk);
      if (queuedBytes > maxBuffered) endWith('', 'slow_client');
      return;
    }
    corked(() => {
      blocked = !ex.res.write(chunk);
    });
  };
  const endWith = (body: string, reason: SseCloseReason) => {
    if (closed) return;
    if (!ex.aborted) corked(() => ex.res.end(body));
    finish(reason);
  };

  ex.onAbort.push(() => finish('aborted'));
  if (ex.aborted || ex.responded) {
    finish('aborted');
  } else {
    ex.responded = true;
    corked(() => {
      ex.res.writeStatus(statusLine(200));
      ex.res.writeHeader('Content-Type', 'text/event-stream');
      ex.res.writeHeader('Cache-Control', 'no-store');
      // Tells nginx-style proxies not to hold events back in a response buffer.
      ex.res.writeHeader('X-Accel-Buffering', 'no');
      ex.res.writeHeader('X-Service-Audit-Id', opts.auditId);
      ex.res.writeHeader('X-Request-Id', opts.reqId);
      for (const [k, v] of Object.entries(ex.extraHeaders)) ex.res.writeHeader(k, v);
      // A first comment sends the head now, so the client sees the stream open before any event;
      // `retry:` tells an EventSource how long to wait before it reconnects after a drop.
      blocked = !ex.res.write(`: stream open\nretry: ${RECONNECT_AFTER_MS}\n\n`);
    });
    if (!closed) {
      ex.res.onWritable(() => onWritable());
      heartbeat = setInterval(() => push(': heartbeat\n\n'), opts.heartbeatMs ?? HEARTBEAT_MS);
      // A quiet stream must not keep the process alive on shutdown.
      heartbeat.unref();
    }
  }

  function onWritable(): boolean {
    try {
      if (closed) return true;
      // With an onWritable handler registered uWS drains its own buffer only when we write
      // (uWS HttpContext.h), so an empty queue still writes a bare comment line to flush it.
      const chunk = queue.length > 0 ? queue.join('') : ':\n';
      queue.length = 0;
      queuedBytes = 0;
      blocked = !ex.res.write(chunk);
      if (!blocked) release();
      return !blocked;
    } catch {
      finish('aborted');
      return true;
    }
  }

  return {
    get closed() {
      return closed;
    },
    event(id, type, data) {
      // A line break in the type would forge fields; event types never contain one.
      const name = type.replace(/[\r\n]/g, '');
      push(`id: ${id}\nevent: ${name}\ndata: ${JSON.stringify(data)}\n\n`);
    },
    signal(type, data) {
      push(`event: ${type.replace(/[\r\n]/g, '')}\ndata: ${JSON.stringify(data)}\n\n`);
    },
    comment(text) {
      push(`: ${text.replace(/[\r\n]/g, ' ')}\n\n`);
    },
    drained() {
      if (closed || !blocked) return Promise.resolve();
      return new Promise((resolve) => waiters.push(resolve));
    },
    end() {
      endWith(queue.join(''), 'ended');
    },
  };
}
