import type { WebSocket } from 'uWebSockets.js';
import type { Logger } from 'pino';
import type { StreamEvent } from '../../actors/types.js';
import type { EventHub, HubMessage, Unsubscribe } from '../events/index.js';
import type { SessionBinding, SessionCommands } from './commands.js';
import { parseFrame, type Refusal } from './frames.js';
import type { FairGate } from './fairGate.js';
import {
  CLOSE_CODES,
  END_GRACE_MS,
  FRAME_BURST,
  FRAMES_PER_SECOND,
  HARD_MAX_PAYLOAD_BYTES,
  MAX_BUFFERED_BYTES,
  MAX_FRAME_BYTES,
  MAX_QUEUED_FRAMES,
  MAX_STALLED_HEARTBEATS,
} from './limits.js';
import { createEventPump } from '../events/index.js';
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
  /** The tenant's frame budget across its sessions in this process (issue 40); false refuses the frame. */
  tenantBudget?: (tenantId: string) => boolean;
  /** Slots for applying frames, handed out in turn across tenants (issue 40); none: frames apply at once. */
  frameGate?: FairGate;
}

export interface SessionConnection {
  readonly binding: SessionBinding;
  attach(ws: WebSocket<unknown>): void;
  onMessage(bytes: Uint8Array, isBinary: boolean): void;
  onClose(code: number): void;
  /** Ends the socket at once (a failure, a client that does not read); the session then closes with `sessionReason`. */
  end(code: number, message: string, sessionReason: string): void;
  /**
   * Ends the socket from our side after the frames already accepted were
   * answered and the session closed with `sessionReason` (`session.closed`
   * is then the last message before `code`), or after END_GRACE_MS.
   */
  endGracefully(code: number, message: string, sessionReason: string): void;
  /** One heartbeat: 4001 for a client that left the last ping unanswered or whose buffer never drained; then the next ping. */
  heartbeat(): void;
  onPong(): void;
  onDrain(): void;
  /** Resolves once the socket closed and its session concluded (or failed to). */
  readonly settled: Promise<void>;
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
  // A socket we end ourselves: the close code it gets once its session closed.
  let ending: { code: number; message: string } | null = null;
  let graceTimer: NodeJS.Timeout | null = null;
  let pingUnanswered = false;
  let stalledHeartbeats = 0;
  let socketClosed = false;
  let markSettled: () => void = () => undefined;
  const settled = new Promise<void>((resolve) => (markSettled = resolve));

  function send(message: Record<string, unknown>): void {
    const socket = ws;
    if (!socket) return;
    const text = JSON.stringify(message);
    let status = 1;
    socket.cork(() => {
      status = socket.send(text, false, false);
    });
    // Never drop an event silently: a client that does not read is told so by the close code.
    if (ws && (status === 2 || socket.getBufferedAmount() > MAX_BUFFERED_BYTES))
      end(CLOSE_CODES.slowConsumer, 'slow consumer', 'slow_consumer');
  }

  function end(code: number, message: string, sessionReason: string): void {
    const socket = ws;
    if (!socket) return;
    if (!ending) disconnectReason = sessionReason;
    try {
      socket.end(code, message);
    } catch (err) {
      log.warn(errorFields(err), 'session socket end failed');
    }
  }

  function endGracefully(code: number, message: string, sessionReason: string): void {
    if (!ws || ending) return;
    if (sessionClosed) return end(code, message, sessionReason);
    ending = { code, message };
    disconnectReason = sessionReason;
    // Frames already queued are applied and answered first; those that arrive from now on are refused.
    closing = true;
    enqueue({ kind: 'conclude', reason: sessionReason });
    graceTimer = setTimeout(() => end(code, message, sessionReason), END_GRACE_MS);
    graceTimer.unref();
  }

  /**
   * A REST close, noticed as soon as its event arrives (its delivery may wait behind a frame's
   * ack): frames already received are still applied, later ones are refused, then the session concludes.
   */
  function observe(e: StreamEvent): void {
    if (e.type !== 'session.closing' || closing) return;
    closing = true;
    enqueue({ kind: 'conclude', reason: typeof e.payload.reason === 'string' ? e.payload.reason : 'ended' });
  }

  function deliver(e: StreamEvent): void {
    observe(e);
    send({ type: e.type, event_seq: e.seq, ...e.payload });
    if (e.type === 'session.closed') {
      sessionClosed = true;
      closing = true;
      if (ending) end(ending.code, ending.message, disconnectReason);
      else end(CLOSE_CODES.sessionClosed, 'session closed', 'closed');
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
    } else if (message.type === 'resync') pump.resync();
    // A monitor's signal; a session's stream never gets one.
    else if (message.type === 'checked') return;
    else endGracefully(CLOSE_CODES.goingAway, 'going away', message.reason === 'shutdown' ? 'server_shutdown' : 'stream_closed');
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
          if (item.kind === 'frame')
            send(refused(item.seq, { rule: 'unavailable', field: '', msg: 'The frame could not be processed; send it again.' }));
        }
      }
    } finally {
      running = false;
      if (socketClosed && queue.length === 0) finish();
    }
  }

  function finish(): void {
    if (graceTimer) clearTimeout(graceTimer);
    pump.stop();
    markSettled();
  }

  async function handle(item: Item): Promise<void> {
    if (item.kind === 'conclude') {
      if (!sessionClosed) pump.offer(await deps.commands.conclude(binding, item.reason));
      // Closed already (by a REST close or its idle check) before this conclude: nothing more will come.
      if (ending && !sessionClosed && ws)
        queueMicrotask(() => !sessionClosed && ending && end(ending.code, ending.message, disconnectReason));
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
      // In the tenant's turn (src/sessions/fairGate.ts): the frame's code is the unit, its database waits free the slot.
      const { meta, frame } = parsed;
      const apply = () => deps.commands.applyFrame(binding, meta, frame);
      const out = deps.frameGate ? await deps.frameGate.run(binding.tenantId, apply) : await apply();
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
        type: 'ready',
        session_id: binding.sessionId,
        inquiry_id: binding.inquiryId,
        retention_mode: binding.retention,
        limits: { max_frame_bytes: MAX_FRAME_BYTES, frames_per_second: FRAMES_PER_SECOND, burst: FRAME_BURST },
      });
      void start();
    },
    onMessage(bytes, isBinary) {
      const seq = ++frameSeq;
      if (closing)
        return send(refused(seq, { rule: 'session_closing', field: '', msg: 'The session is closing; no further frames are read.' }));
      // Over the hard cap (within uWS's own): RFC 6455's 1009, after the replies to the frames before it.
      if (bytes.byteLength > HARD_MAX_PAYLOAD_BYTES) return endGracefully(CLOSE_CODES.messageTooBig, 'message too big', 'frame_too_large');
      // A request to end the session is never refused for load: refusing it would keep the load going.
      if (isCloseRequest(bytes, isBinary)) return enqueue({ kind: 'frame', seq, bytes, isBinary });
      if (!bucket.take()) {
        send(
          refused(seq, {
            rule: 'rate_limited',
            field: '',
            msg: `At most ${FRAMES_PER_SECOND} frames a second (bursts of ${FRAME_BURST}).`,
          }),
        );
        if (bucket.flooding()) endGracefully(CLOSE_CODES.policyViolation, 'rate limit exceeded', 'rate_limited');
        return;
      }
      if (deps.tenantBudget && !deps.tenantBudget(binding.tenantId)) {
        return send(
          refused(seq, {
            rule: 'tenant_rate_limited',
            field: '',
            msg: "The tenant's sessions together are over their frame budget; send this one again shortly.",
          }),
        );
      }
      if (queue.length >= MAX_QUEUED_FRAMES)
        return send(refused(seq, { rule: 'busy', field: '', msg: 'Too many frames are waiting; send this one again shortly.' }));
      enqueue({ kind: 'frame', seq, bytes, isBinary });
    },
    onClose(code) {
      ws = null;
      socketClosed = true;
      unsubscribe?.();
      log.info({ code, frames: frameSeq }, 'session socket closed');
      // Frames already received are still applied; then the session closes, since its token cannot connect again.
      if (!sessionClosed) enqueue({ kind: 'conclude', reason: disconnectReason });
      closing = true;
      // Nothing is sent any more (ws is null); the pump stops once the queue drained.
      if (!running && queue.length === 0) finish();
    },
    end,
    endGracefully,
    heartbeat() {
      const socket = ws;
      if (!socket) return;
      stalledHeartbeats = socket.getBufferedAmount() > 0 ? stalledHeartbeats + 1 : 0;
      if (pingUnanswered || stalledHeartbeats >= MAX_STALLED_HEARTBEATS)
        return end(CLOSE_CODES.slowConsumer, 'slow consumer', 'slow_consumer');
      pingUnanswered = true;
      socket.cork(() => socket.ping());
    },
    onPong() {
      pingUnanswered = false;
    },
    onDrain() {
      if (ws && ws.getBufferedAmount() === 0) stalledHeartbeats = 0;
    },
    settled,
  };
}

/** The smallest of frames, `{"type":"close"}`, read ahead of the queue; anything larger or unreadable is not one. */
function isCloseRequest(bytes: Uint8Array, isBinary: boolean): boolean {
  if (isBinary || bytes.byteLength > 64) return false;
  try {
    const frame: unknown = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'));
    return typeof frame === 'object' && frame !== null && (frame as { type?: unknown }).type === 'close';
  } catch {
    return false;
  }
}
