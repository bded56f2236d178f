import { randomUUID } from 'node:crypto';
import type { HttpResponse, TemplatedApp, us_socket_context_t } from 'uWebSockets.js';
import { COMPRESSION_DISABLED } from '../edge/uws.js';
import type { Logger } from 'pino';
import type { AuditWriter } from '../audit/index.js';
import type { RevocationBus } from '../auth/index.js';
import type { EventHub } from '../events/index.js';
import { statusLine } from '../edge/exchange.js';
import { ServiceProblem } from '../platform/problems.js';
import { createConnection, type SessionConnection } from './connection.js';
import {
  CLOSE_CODES,
  DEFAULT_HEARTBEAT_MS,
  FRAME_SLOTS,
  TRANSPORT_IDLE_SECONDS,
  UWS_MAX_BACKPRESSURE_BYTES,
  UWS_MAX_PAYLOAD_BYTES,
} from './limits.js';
import { createTenantFrameBudget } from './rateLimit.js';
import { createFairGate, schedulerGate, type FairGate } from './fairGate.js';
import type { Scheduler } from '../platform/scheduler.js';
import type { SessionService } from './service.js';
import type { Principal } from '../auth/index.js';
import type { KeyState } from '../auth/index.js';

/**
 * The session WebSocket route, `GET /v1/sessions/{session_id}/ws`.
 *
 * Authentication: browsers cannot set an Authorization header on a
 * WebSocket, so the one-time token from POST /v1/sessions travels in the
 * `Sec-WebSocket-Protocol` header, as the subprotocol `tas.token.<token>`
 * beside `tas.v1` (the server answers `tas.v1`). Not the query string: URLs
 * end up in proxy logs, browser history and Referer headers. The token is
 * spent before any 101; a missing, wrong, spent or expired token, a closed
 * session or a revoked key gets 401 with a problem document and no upgrade.
 * Every attempt writes one audit row (101 with the spending, or 401).
 *
 * uWS lifecycle rules kept here (STYLE habit 10): everything is copied out of
 * `req` synchronously, `onAborted` is registered before the first await, the
 * response is written corked and only when not aborted, and no exception
 * leaves a uWS callback.
 */
export interface SessionSocketDeps {
  sessions: SessionService;
  hub: EventHub;
  auditWriter: AuditWriter;
  revocations: RevocationBus;
  log: Logger;
  isDraining: () => boolean;
  /** The opening key's state in the database, re-checked every keyRecheckMs for every open socket (issue 40). */
  keyState?: (principal: Principal) => Promise<KeyState>;
  keyRecheckMs?: number;
  /** Every socket is pinged this often; a ping unanswered at the next one is a client that does not read (4001). */
  heartbeatMs?: number;
  /** Frames per second of one tenant's sessions together, in this process; a burst of twice as many. */
  tenantFramesPerSecond?: number;
  /** The process's one fair scheduler (issue 48): frames take their tenant's turn in it. None: frame slots of their own. */
  scheduler?: Scheduler;
}

export const SESSION_SOCKET_PATH = '/v1/sessions/:session_id/ws';
export const SUBPROTOCOL = 'tas.v1';
export const TOKEN_SUBPROTOCOL_PREFIX = 'tas.token.';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface UserData {
  conn: SessionConnection;
}

export interface SessionSockets {
  /** Ends every socket with 1001 after its pending replies, its session closed as `server_shutdown`. */
  drain(): void;
  /** Resolves once every socket closed and its session concluded: the pools may close after it. */
  settled(): Promise<void>;
}

export function registerSessionSocket(app: TemplatedApp, deps: SessionSocketDeps): SessionSockets {
  const live = new Set<SessionConnection>();
  // Connections whose session has not concluded yet (a socket that closed may still be applying frames).
  const unsettled = new Set<SessionConnection>();
  const tenantBudget = deps.tenantFramesPerSecond ? createTenantFrameBudget(deps.tenantFramesPerSecond) : undefined;
  // Frames of every socket take their turn across tenants (src/sessions/fairGate.ts), in the process's scheduler when given.
  const frameGate = deps.scheduler ? schedulerGate(deps.scheduler) : createFairGate(FRAME_SLOTS);
  const guard = (what: string, fn: () => void) => {
    try {
      fn();
    } catch (err) {
      deps.log.error({ errName: (err as Error)?.name }, `session socket ${what} failed`);
    }
  };

  deps.revocations.onRevoked((keyId) => {
    for (const conn of live)
      if (conn.binding.keyId === keyId) conn.endGracefully(CLOSE_CODES.policyViolation, 'key revoked', 'key_revoked');
  });
  const stopKeyChecks = recheckKeys(live, deps);
  const heartbeat = setInterval(() => {
    for (const conn of live) guard('heartbeat', () => conn.heartbeat());
  }, deps.heartbeatMs ?? DEFAULT_HEARTBEAT_MS);
  heartbeat.unref();

  app.ws<UserData>(SESSION_SOCKET_PATH, {
    maxPayloadLength: UWS_MAX_PAYLOAD_BYTES,
    maxBackpressure: UWS_MAX_BACKPRESSURE_BYTES,
    idleTimeout: TRANSPORT_IDLE_SECONDS,
    sendPingsAutomatically: true,
    compression: COMPRESSION_DISABLED,
    upgrade: (res, req, context) => {
      const hs: Handshake = {
        sessionId: req.getParameter(0) ?? '',
        key: req.getHeader('sec-websocket-key'),
        protocols: req
          .getHeader('sec-websocket-protocol')
          .split(',')
          .map((p) => p.trim())
          .filter(Boolean),
        extensions: req.getHeader('sec-websocket-extensions'),
        aborted: false,
        auditId: randomUUID(),
        requestId: randomUUID(),
        occurredAt: new Date().toISOString(),
      };
      res.onAborted(() => {
        hs.aborted = true;
      });
      upgrade(deps, res, context, hs, tenantBudget, frameGate).catch((err) => {
        deps.log.error({ errName: (err as Error)?.name }, 'session upgrade failed');
        void refuse(
          deps,
          res,
          hs,
          503,
          new ServiceProblem('unavailable', 'The session could not be connected; retry shortly.', {}, { 'Retry-After': '2' }),
        );
      });
    },
    open: (ws) =>
      guard('open', () => {
        const { conn } = ws.getUserData();
        live.add(conn);
        unsettled.add(conn);
        void conn.settled.then(() => unsettled.delete(conn));
        // The connection is written against a minimal socket interface (testable without uWS); uWS's WebSocket satisfies it.
        // It attaches (and sends `ready`) once this callback and the upgrade's cork have returned: a send
        // corked inside the upgrade's own cork left uWS 20 closing the new socket at the client's first
        // frame (1006), now and then. Nothing can arrive in between: I/O waits for the microtasks.
        queueMicrotask(() => guard('open', () => conn.attach(ws)));
      }),
    // The ArrayBuffer is neutered when this callback returns: copy it first.
    message: (ws, message, isBinary) => guard('message', () => ws.getUserData().conn.onMessage(new Uint8Array(message.slice(0)), isBinary)),
    pong: (ws) => guard('pong', () => ws.getUserData().conn.onPong()),
    drain: (ws) => guard('drain', () => ws.getUserData().conn.onDrain()),
    close: (ws, code) =>
      guard('close', () => {
        const { conn } = ws.getUserData();
        live.delete(conn);
        conn.onClose(code);
      }),
  });

  return {
    drain() {
      stopKeyChecks();
      clearInterval(heartbeat);
      for (const conn of [...live]) conn.endGracefully(CLOSE_CODES.goingAway, 'going away', 'server_shutdown');
    },
    async settled() {
      await Promise.all([...unsettled].map((conn) => conn.settled));
    },
  };
}

const DEFAULT_KEY_RECHECK_MS = 30_000;

/**
 * The net under the revocation bus (issue 40): every keyRecheckMs, each key
 * that has sockets open is looked up once; a revoked or expired one ends its
 * sockets with 1008, as the bus would. A failed look-up keeps them open.
 */
function recheckKeys(live: ReadonlySet<SessionConnection>, deps: SessionSocketDeps): () => void {
  const keyState = deps.keyState;
  if (!keyState) return () => undefined;
  let running = false;
  const sweep = async () => {
    if (running || live.size === 0) return;
    running = true;
    try {
      const byKey = new Map<string, SessionConnection>();
      for (const conn of live) byKey.set(conn.binding.keyId, conn);
      for (const [keyId, conn] of byKey) {
        const state = await keyState({
          tenantId: conn.binding.tenantId,
          mode: conn.binding.mode,
          keyId,
          scopes: new Set(),
          label: `key:${keyId}`,
        }).catch(() => null);
        if (state === null || state.kind === 'active') continue;
        const reason = state.kind === 'revoked' ? 'key_revoked' : 'key_expired';
        for (const c of [...live])
          if (c.binding.keyId === keyId) c.endGracefully(CLOSE_CODES.policyViolation, reason.replace('_', ' '), reason);
      }
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void sweep(), deps.keyRecheckMs ?? DEFAULT_KEY_RECHECK_MS);
  timer.unref();
  return () => clearInterval(timer);
}

interface Handshake {
  sessionId: string;
  key: string;
  protocols: string[];
  extensions: string;
  aborted: boolean;
  auditId: string;
  requestId: string;
  occurredAt: string;
}

async function upgrade(
  deps: SessionSocketDeps,
  res: HttpResponse,
  context: us_socket_context_t,
  hs: Handshake,
  tenantBudget: ((tenantId: string) => boolean) | undefined,
  frameGate: FairGate,
): Promise<void> {
  if (deps.isDraining()) {
    return refuse(
      deps,
      res,
      hs,
      503,
      new ServiceProblem('unavailable', 'The service is shutting down; open a new session elsewhere.', {}, { 'Retry-After': '1' }),
    );
  }
  const token = hs.protocols.find((p) => p.startsWith(TOKEN_SUBPROTOCOL_PREFIX))?.slice(TOKEN_SUBPROTOCOL_PREFIX.length);
  const binding =
    token !== undefined && hs.protocols.includes(SUBPROTOCOL)
      ? await deps.sessions.claim(hs.sessionId, token, { audit_id: hs.auditId, occurred_at: hs.occurredAt, request_id: hs.requestId })
      : null;
  if (!binding) {
    const detail = `Offer the subprotocols ${SUBPROTOCOL} and ${TOKEN_SUBPROTOCOL_PREFIX}<token> with the unused, unexpired token of an open session.`;
    return refuse(deps, res, hs, 401, new ServiceProblem('unauthorized', detail, {}, { 'WWW-Authenticate': 'Bearer' }));
  }
  const conn = createConnection(binding, {
    commands: deps.sessions.commands,
    hub: deps.hub,
    log: deps.log,
    ...(tenantBudget ? { tenantBudget } : {}),
    frameGate,
  });
  if (hs.aborted) {
    // The token is spent and nobody can use it again: the session closes now rather than at its idle timeout.
    conn.onClose(1006);
    return;
  }
  res.cork(() => res.upgrade<UserData>({ conn }, hs.key, SUBPROTOCOL, hs.extensions, context));
}

/**
 * A refused upgrade: one audit row (anonymous; a spent upgrade was audited with
 * its spending instead), then the problem document, unless the client left.
 */
async function refuse(deps: SessionSocketDeps, res: HttpResponse, hs: Handshake, status: number, problem: ServiceProblem): Promise<void> {
  await deps.auditWriter
    .append({
      audit_id: hs.auditId,
      occurred_at: hs.occurredAt,
      tenant_id: null,
      mode: null,
      principal: 'anonymous',
      action: 'connectSession',
      target_kind: 'session',
      target_id: UUID.test(hs.sessionId) ? hs.sessionId : null,
      status,
      rule: null,
      purpose: null,
      cost_amount: null,
      cost_currency: null,
      request_id: hs.requestId,
    })
    .catch((err) =>
      deps.log.error({ errName: (err as Error)?.name, auditId: hs.auditId }, 'audit row of a refused upgrade could not be kept'),
    );
  if (hs.aborted) return;
  res.cork(() => {
    res.writeStatus(statusLine(status));
    res.writeHeader('Content-Type', 'application/problem+json');
    res.writeHeader('X-Service-Audit-Id', hs.auditId);
    res.writeHeader('X-Request-Id', hs.requestId);
    for (const [k, v] of Object.entries(problem.headers)) res.writeHeader(k, v);
    res.end(JSON.stringify(problem.toBody(hs.auditId)), true);
  });
}
