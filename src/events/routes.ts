import type { Logger } from 'pino';
import type { RevocationBus } from '../auth/index.js';
import { createEventPump } from './pump.js';
import { readStreamAfter, streamOwner, streamTail } from './store.js';
import { withTenant, type Db, type TenantScope, type Tx } from '../platform/db/pool.js';
import { envelopeOf, type EventHub, type HubMessage } from './hub.js';
import type { Handler, HandlerContext } from '../edge/handler.js';
import { ServiceProblem, ValidationFailure } from '../platform/problems.js';
import { openSse, type SseWriter } from '../edge/sse.js';
import { requirePrincipal } from '../auth/index.js';
import type { Principal } from '../auth/index.js';
import type { KeyState } from '../auth/index.js';

/**
 * GET /v1/{inquiries|monitors|cases}/{id}/events: an actor's event stream as
 * server-sent events (DESIGN 2.2).
 *
 * Cursor: `Last-Event-ID` when sent (a reconnecting client's truth), else
 * `?after=`, else 0; it is the `seq` of the last event the client holds.
 * Hand-over without gap or duplicate: SUBSCRIBE first, then replay Postgres
 * after the cursor, then deliver live events. Every event, replayed or live,
 * goes through one serialised pump that sends only seq = last sent + 1; a
 * duplicate is dropped, and a live event that skips ahead (publishers race,
 * or Redis dropped messages during a reconnect) makes the pump read Postgres
 * from the last sent seq instead (publishing happens after commit, so the
 * missing rows are there).
 *
 * Ending: a hub `close` (monitor deleted, shutdown) ends the response, and
 * so does the revocation of the key that opened it (the revocation bus tells
 * every process). A terminal type (InquiryConcluded on an inquiry stream) ends
 * it right after that event is sent, since nothing can follow it; a client
 * that reconnects holding the terminal event gets 204 No Content, which the
 * SSE standard defines as "stop reconnecting". An ended actor (a closed
 * monitor) is the same without a terminal event: what the client misses is
 * replayed, then the response ends, and a client holding everything gets 204.
 */
export type StreamKind = 'inquiry' | 'monitor' | 'case';

export interface EventStreamOptions {
  db: Db;
  hub: EventHub;
  kind: StreamKind;
  paramName: string;
  terminalTypes?: readonly string[];
  /** Whether the stream's actor has ended (nothing more can be appended). */
  isEnded?: (tx: Tx, streamId: string) => Promise<boolean>;
  /** Ends a stream when the key that opened it is revoked. */
  revocations?: Pick<RevocationBus, 'onRevoked'>;
  log?: Logger;
  heartbeatMs?: number;
  maxBufferedBytes?: number;
  /** Told every envelope before it is sent, to check it against the document (TAS_CHECK_RESPONSES). */
  checkEvent?: (envelope: unknown) => void;
  /** The opening key's state in the database: checked at the start and every keyRecheckMs (issue 40). */
  keyState?: (principal: Principal) => Promise<KeyState>;
  keyRecheckMs?: number;
}

// Replay page size and the bound on live events held behind a gap are the shared pump's (src/events/pump.ts).
const MAX_SEQ = 2_147_483_647; // actor_events.seq is a Postgres integer
const CURSOR = /^\d+$/;

export function streamHandlers(deps: {
  db: Db;
  hub: EventHub;
  log?: Logger;
  heartbeatMs?: number;
  revocations?: Pick<RevocationBus, 'onRevoked'>;
  checkEvent?: (envelope: unknown) => void;
  keyState?: (principal: Principal) => Promise<KeyState>;
  keyRecheckMs?: number;
  /** Whether a monitor was closed, so its stream ends (the monitors' command, handed over by the root: events imports no monitors). */
  monitorClosed: (tx: Tx, monitorId: string) => Promise<boolean>;
}): [string, Handler][] {
  return [
    [
      'streamInquiryEvents',
      createEventStreamHandler({ ...deps, kind: 'inquiry', paramName: 'inquiry_id', terminalTypes: ['InquiryConcluded'] }),
    ],
    ['streamMonitorEvents', createEventStreamHandler({ ...deps, kind: 'monitor', paramName: 'monitor_id', isEnded: deps.monitorClosed })],
    ['streamCaseEvents', createEventStreamHandler({ ...deps, kind: 'case', paramName: 'case_id' })],
  ];
}

export function createEventStreamHandler(opts: EventStreamOptions): Handler {
  const terminal = new Set(opts.terminalTypes ?? []);
  return async (ctx) => {
    const principal = requirePrincipal(ctx);
    const streamId = ctx.params[opts.paramName]!;
    ctx.audit.target_kind = opts.kind;
    ctx.audit.target_id = streamId;
    const cursor = readCursor(ctx);
    const tail = await withTenant(opts.db, principal, async (tx) => {
      // Another tenant's (or mode's) id is invisible under RLS: the same 404 as an unknown id.
      if (!(await streamOwner(tx, streamId, opts.kind))) throw new ServiceProblem('not-found', `No such ${opts.kind}.`);
      return { ...(await streamTail(tx, streamId)), ended: (await opts.isEnded?.(tx, streamId)) ?? false };
    });
    if (cursor.value > tail.seq) {
      throw new ValidationFailure([{ loc: cursor.loc, msg: 'The cursor is not an event of this stream', type: 'cursor_unknown' }]);
    }
    const holdsLast = cursor.value >= tail.seq;
    if (holdsLast && (tail.ended || (tail.type !== null && terminal.has(tail.type)))) return { status: 204 };

    const pump = createPump({ ...opts, terminal, scope: principal, streamId, lastSent: cursor.value });
    const unsubscribe = opts.hub.subscribe(streamId, pump.onHub);
    const forgetRevocation = opts.revocations?.onRevoked((keyId) => {
      if (keyId === principal.keyId) pump.onHub({ type: 'close', reason: 'key_revoked' });
    });
    // Started once the response is open (a close before that would find no writer to end).
    let forgetKeyWatch = () => undefined as void;
    const cleanup = () => {
      unsubscribe();
      forgetRevocation?.();
      forgetKeyWatch();
    };
    try {
      await unsubscribe.ready;
      // Checked again once subscribed: an end committed in between sent its close before we listened.
      if (tail.ended || (await endedNow(opts, principal, streamId))) pump.endWhenCaughtUp();
      await ctx.auditNow('done');
    } catch (error) {
      cleanup();
      throw error;
    }
    pump.start(ctx, cleanup);
    forgetKeyWatch = watchKey(opts, principal, (reason) => pump.onHub({ type: 'close', reason }));
    return { streamed: true };
  };
}

// The longest delay a Node timer takes (about 24.8 days); a later expiry is caught by the periodic check.
const MAX_TIMER_MS = 2_147_483_647;
const DEFAULT_KEY_RECHECK_MS = 30_000;

/**
 * A stream outlives neither its key's revocation nor its expiry (issue 40).
 * The revocation bus ends it at once; this is the net under the bus: a
 * revocation whose Redis message was lost is found by the periodic look-up,
 * and an expiry ends the stream on the dot. A failed look-up keeps the
 * stream (the database being away is not a revocation). Returns the stop.
 */
function watchKey(opts: EventStreamOptions, principal: Principal, end: (reason: 'key_revoked' | 'key_expired') => void): () => void {
  const keyState = opts.keyState;
  if (!keyState) return () => undefined;
  let stopped = false;
  let expiry: NodeJS.Timeout | undefined;
  const check = async () => {
    const state = await keyState(principal).catch(() => null);
    if (stopped || state === null) return;
    if (state.kind === 'revoked') return end('key_revoked');
    if (state.kind === 'expired') return end('key_expired');
    const left = state.expiresAt === null ? null : Date.parse(state.expiresAt) - Date.now();
    if (expiry === undefined && left !== null && left < MAX_TIMER_MS) {
      expiry = setTimeout(() => end('key_expired'), Math.max(0, left));
      expiry.unref();
    }
  };
  void check();
  const timer = setInterval(() => void check(), opts.keyRecheckMs ?? DEFAULT_KEY_RECHECK_MS);
  timer.unref();
  return () => {
    stopped = true;
    clearInterval(timer);
    clearTimeout(expiry);
  };
}

async function endedNow(opts: EventStreamOptions, scope: TenantScope, streamId: string): Promise<boolean> {
  const isEnded = opts.isEnded;
  return isEnded ? withTenant(opts.db, scope, (tx) => isEnded(tx, streamId)) : false;
}

/** The cursor and where it came from (for a 422's `loc`). */
function readCursor(ctx: HandlerContext): { value: number; loc: string[] } {
  // An empty Last-Event-ID means "no id yet" in the SSE standard, so it does not override `after`.
  const header = ctx.ex.headers['last-event-id']?.trim();
  if (header) return parseCursor(header, ['header', 'Last-Event-ID']);
  const after = (ctx.query as { after?: string }).after;
  if (after !== undefined) return parseCursor(after, ['query', 'after']);
  return { value: 0, loc: ['query', 'after'] };
}

function parseCursor(raw: string, loc: string[]): { value: number; loc: string[] } {
  if (!CURSOR.test(raw)) {
    throw new ValidationFailure([
      { loc, msg: 'The cursor is the id of an event already received (a non-negative integer)', type: 'int_parsing' },
    ]);
  }
  // Beyond any seq Postgres can hold: certainly beyond the tail, so cursor_unknown follows.
  return { value: Math.min(Number(raw), MAX_SEQ + 1), loc };
}

interface PumpDeps extends EventStreamOptions {
  terminal: ReadonlySet<string>;
  scope: TenantScope;
  streamId: string;
  lastSent: number;
}

interface Pump {
  onHub: (message: HubMessage) => void;
  /** The actor has ended: send what is left to replay, then end the response. */
  endWhenCaughtUp(): void;
  start(ctx: HandlerContext, cleanup: () => void): void;
}

/**
 * One stream's sender: the shared in-order pump (src/events/pump.ts) with an
 * SSE writer as its output. Live events that arrive while the response is
 * being opened are held until it is; the replay from the client's cursor
 * waits for the writer to drain before it reads the next page.
 */
function createPump(d: PumpDeps): Pump {
  let writer: SseWriter | null = null;
  let endWhenCaughtUp = false;
  const finish = (reason: string | null) => {
    if (!writer || writer.closed) return;
    // Said before the end, so a client knows why: a shutdown is worth reconnecting (to another instance, resuming
    // with Last-Event-ID); a deleted monitor or a revoked key is not. No id: it is not an event of the stream.
    if (reason !== null) writer.signal('StreamEnding', { stream_id: d.streamId, reason });
    writer.end();
    core.stop();
  };
  const core = createEventPump({
    startAfter: d.lastSent,
    async read(afterSeq, limit) {
      await writer?.drained();
      if (!writer || writer.closed) return [];
      return withTenant(d.db, d.scope, (tx) => readStreamAfter(tx, d.streamId, afterSeq, limit));
    },
    deliver(e) {
      if (!writer || writer.closed) return;
      const envelope = envelopeOf(e, d.kind);
      d.checkEvent?.(envelope);
      writer.event(e.seq, e.type, envelope);
      if (d.terminal.has(e.type)) finish(null);
    },
    onError(err) {
      // The client reconnects with Last-Event-ID and resumes from Postgres.
      d.log?.error({ err, streamId: d.streamId }, 'event stream failed; ending it');
      finish(null);
    },
    onGap(from, to) {
      d.log?.warn({ streamId: d.streamId, from, to }, 'stream gap not found in Postgres; sending live event');
    },
    onCaughtUp() {
      if (endWhenCaughtUp) finish(null);
    },
  });
  // Nothing is sent before the response is open; `start` releases what waited.
  core.hold();

  return {
    onHub(message) {
      if (message.type === 'close') finish(message.reason);
      else if (message.type === 'resync') core.resync();
      else if (message.type === 'checked') {
        // Shown to the streams open now and never stored: no id, so a client's Last-Event-ID is untouched.
        if (writer && !writer.closed) writer.signal('MonitorChecked', { stream_id: d.streamId, checked_at: message.at, unchanged: true });
      } else core.offer([message.event]);
    },
    endWhenCaughtUp() {
      endWhenCaughtUp = true;
    },
    start(ctx, cleanup) {
      writer = openSse(ctx.ex, {
        auditId: ctx.auditId,
        reqId: ctx.reqId,
        heartbeatMs: d.heartbeatMs,
        maxBufferedBytes: d.maxBufferedBytes,
        onClose: () => {
          core.stop();
          cleanup();
        },
      });
      if (writer.closed) return;
      core.release();
      core.resync();
    },
  };
}
