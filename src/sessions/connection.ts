import type { WebSocket } from 'uWebSockets.js';
import type { Logger } from 'pino';
import type { StreamEvent } from '../../actors/types.js';
import type { EventHub, HubMessage, Unsubscribe } from '../events/hub.js';
import type { SessionBinding, SessionCommands } from './commands.js';
import { parseFrame, type Refusal } from './frames.js';
import { CLOSE_CODES, FRAME_BURST, FRAMES_PER_SECOND, MAX_BUFFERED_BYTES, MAX_FRAME_BYTES, MAX_QUEUED_FRAMES } from './limits.js';
import { createEventPump } from '../events/pump.js';
import { createFrameBucket } from './rateLimit.js';

/**
 * One attached session socket: frames in (rate-limited, queued, handled one
 * at a time so acks and assessments follow frame order), events out (through
 * the pump), and the way it ends. uWS rules kept here: every send is corked
 * (most happen after an await, outside any uWS callback); nothing touches the
 * socket after its close handler ran; no exception leaves a uWS callback
 * (socket.ts wraps them, and everything async here catches its own).
 *
 * Logging: session and error names only. A frame's content, or an error that
 * might quote it, is never logged (rule D35 covers logs too).
 */
export interface ConnectionDeps {
  commands: Pick<SessionCommands, 'applyFrame' | 'conclude' | 'markConnected' | 'readEvents' | 'recordRefusal'>;
  hub: EventHub;
  log: Logger;
  now?: () => number;
}

export interface SessionConnection {
  readonly binding: SessionBinding;
  attach(ws: WebSocket<unknown>): void;
  onMessage(bytes: Uint8Array, isBinary: boolean): void;
  onClose(code: number): void;
  /** Ends the socket from our side (revocation, shutdown, a failure); the session then closes with `sessionReason`. */
  end(code: number, message: string, sessionReason: string): void;
}

type Item = { kind: 'frame'; seq: number; bytes: Uint8Array; isBinary: boolean } | { kind: 'conclude'; reason: string };

const refused = (seq: number, r: Refusal) => ({ type: 'refused', seq, rule: r.rule, field: r.field, msg: r.msg });
const errorFields = (err: unknown) => ({ errName: (err as Error)?.name, code: (err as { code?: string })?.code });

export function createConnection(binding: SessionBinding, deps: ConnectionDeps): SessionConnection {
  const log = deps.log.child({ sessionId: binding.sessionId });
  let ws: WebSocket<unknown> | null = null;
  let frameSeq = 0;
  const queue: Item[] = [];
  let running = false;
  let closing = false;
  let sessionClosed = false;
  let disconnectReason = 'disconnected';
  let unsubscribe: Unsubscribe | null = null;
  const bucket = createFrameBucket(deps.now);

  function send(message: Record<string, unknown>): void {
    const socket = ws;
    if (!socket) return;
    const text = JSON.stringify(message);
    let status = 1;
    socket.cork(() => {
      status = socket.send(text, false, false);
    });
    // Never drop an event silently: a client that does not read is told so by the close code.
    if (ws && (status === 2 || socket.getBufferedAmount() > MAX_BUFFERED_BYTES)) end(CLOSE_CODES.slowConsumer, 'slow consumer', 'slow_consumer');
  }

  function end(code: number, message: string, sessionReason: string): void {
    const socket = ws;
    if (!socket) return;
    disconnectReason = sessionReason;
    try {
      socket.end(code, message);
    } catch (err) {
      log.warn(errorFields(err), 'session socket end failed');
    }
  }

  /**
   * A REST close, noticed as soon as its event arrives (its delivery may wait behind a frame's
   * ack): frames already received are still applied, later ones are refused, then the session concludes.
   */
  function observe(e: StreamEvent): void {
    if (e.type !== 'session.closing' || closing) return;
    closing = true;
    enqueue({ kind: 'conclude', reason: String(e.payload.reason ?? 'ended') });
  }

  function deliver(e: StreamEvent): void {
    observe(e);
    send({ type: e.type, event_seq: e.seq, ...e.payload });
    if (e.type === 'session.closed') {
      sessionClosed = true;
      closing = true;
      end(CLOSE_CODES.sessionClosed, 'session closed', 'closed');
    }
  }

  const pump = createEventPump({
    read: (after, limit) => deps.commands.readEvents(binding, after, limit),
    deliver,
    onError: (err) => {
      log.error(errorFields(err), 'session events could not be read');
      end(CLOSE_CODES.internalError, 'internal error', 'internal_error');
    },
    onGap: (from, to) => log.warn({ from, to }, 'session stream gap not found in Postgres; sending live events'),
  });

  function onHub(message: HubMessage): void {
    if (message.type === 'event') {
      observe(message.event);
      pump.offer([message.event]);
    }
    else if (message.type === 'resync') pump.resync();
    // A monitor's signal; a session's stream never gets one.
    else if (message.type === 'checked') return;
    else end(CLOSE_CODES.goingAway, 'going away', message.reason === 'shutdown' ? 'server_shutdown' : 'stream_closed');
  }

  function enqueue(item: Item): void {
    queue.push(item);
    if (!running) void run();
  }

  async function run(): Promise<void> {
    running = true;
    try {
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) {
        try {
          await handle(item);
        } catch (err) {
          log.error(errorFields(err), 'session frame could not be processed');
          if (item.kind === 'frame') send(refused(item.seq, { rule: 'unavailable', field: '', msg: 'The frame could not be processed; send it again.' }));
        }
      }
    } finally {
      running = false;
    }
  }

  async function handle(item: Item): Promise<void> {
    if (item.kind === 'conclude') {
      if (!sessionClosed) pump.offer(await deps.commands.conclude(binding, item.reason));
      return;
    }
    const parsed = parseFrame(item.seq, item.bytes, item.isBinary);
    if (!parsed.ok) {
      send(refused(item.seq, parsed.refusal));
      await deps.commands.recordRefusal(binding, parsed.meta, parsed.refusal.rule);
      return;
    }
    if (parsed.frame.type === 'close') {
      closing = true;
      send({ type: 'ack', seq: item.seq, frame: 'close' });
      pump.offer(await deps.commands.conclude(binding, parsed.frame.reason ?? 'ended', parsed.meta));
      return;
    }
    pump.hold();
    try {
      const out = await deps.commands.applyFrame(binding, parsed.meta, parsed.frame);
      if (out.ok) {
        send(out.ack);
        pump.offer(out.events);
      } else send(refused(item.seq, out.refusal));
    } finally {
      pump.release();
    }
  }

  async function start(): Promise<void> {
    try {
      await unsubscribe!.ready;
      await deps.commands.markConnected(binding);
      // Replays what the stream already holds (an assessment issued at opening), then live events follow.
      pump.resync();
    } catch (err) {
      log.error(errorFields(err), 'session socket could not start');
      end(CLOSE_CODES.internalError, 'internal error', 'internal_error');
    }
  }

  return {
    binding,
    attach(socket) {
      ws = socket;
      unsubscribe = deps.hub.subscribe(binding.sessionId, onHub);
      send({
        type: 'ready', session_id: binding.sessionId, inquiry_id: binding.inquiryId, retention_mode: binding.retention,
        limits: { max_frame_bytes: MAX_FRAME_BYTES, frames_per_second: FRAMES_PER_SECOND, burst: FRAME_BURST },
      });
      void start();
    },
    onMessage(bytes, isBinary) {
      const seq = ++frameSeq;
      if (closing) return send(refused(seq, { rule: 'session_closing', field: '', msg: 'The session is closing; no further frames are read.' }));
      if (!bucket.take()) {
        send(refused(seq, { rule: 'rate_limited', field: '', msg: `At most ${FRAMES_PER_SECOND} frames a second (bursts of ${FRAME_BURST}).` }));
        if (bucket.flooding()) end(CLOSE_CODES.policyViolation, 'rate limit exceeded', 'rate_limited');
        return;
      }
      if (queue.length >= MAX_QUEUED_FRAMES) return send(refused(seq, { rule: 'busy', field: '', msg: 'Too many frames are waiting; send this one again shortly.' }));
      enqueue({ kind: 'frame', seq, bytes, isBinary });
    },
    onClose(code) {
      ws = null;
      unsubscribe?.();
      log.info({ code, frames: frameSeq }, 'session socket closed');
      // Frames already received are still applied; then the session closes, since its token cannot connect again.
      if (!sessionClosed) enqueue({ kind: 'conclude', reason: disconnectReason });
      closing = true;
      // The pump stops only after the queue drained; nothing is sent any more anyway (ws is null).
    },
    end,
  };
}
