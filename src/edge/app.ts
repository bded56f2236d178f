import * as uWS from './uws.js';
import type { RedisClient } from '../platform/redis/client.js';
import type { Logger } from 'pino';
import type { AuditWriter } from '../audit/index.js';
import { createStreamAccess } from '../auth/index.js';
import type { Authenticator, Principal } from '../auth/index.js';
import type { Config } from '../platform/config.js';
import { withTenant, type Db } from '../platform/db/pool.js';
import { captureExchange, send, type Exchange } from './exchange.js';
import { framingRefusal, type FramingRefusal } from './framing.js';
import type { BoundRoute, Handler } from './handler.js';
import { createPipeline, type PipelineDeps } from './pipeline.js';
import { PROBLEM_TYPE_BASE } from '../platform/problems.js';
import { createRateLimiter, type RateLimiter } from './rateLimit.js';
import { createRouter } from './router.js';
import { buildOpenApiDocument } from '../openapi/document.js';
import { createResponseChecker, type ResponseChecker } from '../openapi/responseCheck.js';
import type { ReplayStore } from './replay.js';
import { answerReplay, claimReplay, findReplay, releaseReplay, retakeReplay } from '../platform/db/replays.js';
import { exampleRoutes } from './pages/sessionExample.js';
import type { ValidationFailure } from '../platform/problems.js';
import { landingRoutes } from './pages/landing.js';
import { createDocsAssetHandler } from './pages/docs.js';
import { CONSOLE_ASSET_OP, CONSOLE_PAGE_OP, createConsoleAssetHandler, createConsolePageHandler } from './pages/console.js';
import { ADDRESS_WIDE_FACTOR, createAddressGuard } from './addressGuard.js';
import { trustedProxiesOf } from './clientAddress.js';
import type { OperationSpec } from '../schemas/operation.js';
import { OPERATIONS } from '../schemas/operations.js';
import type { Scheduler } from '../platform/scheduler.js';

/**
 * createApp(deps): every operation of the contract registered on a uWS app,
 * returned without listening (tests listen on port 0). Operations with no
 * handler yet answer 501 through the same pipeline, so they authenticate,
 * validate and audit exactly like live ones.
 */
export interface AppDeps {
  config: Config;
  db: Db;
  redis: RedisClient;
  log: Logger;
  authenticator: Authenticator;
  rateLimiter: RateLimiter;
  auditWriter: AuditWriter;
  /** Whether the tenant's policy lets a browser of this origin call with the key (its allowed_origins), handed over by the root. */
  originAllowed: NonNullable<PipelineDeps['originAllowed']>;
  /** The service's public base URL (for the URLs it hands out). */
  publicUrl: () => string;
  /** The deployment's check kinds with their strengths, published in the OpenAPI document. */
  checkCatalogue?: Parameters<typeof buildOpenApiDocument>[1]['checks'];
  /** Every capability's routes, mounted by the composition root (src/root/routes.ts): the edge names none of them. */
  mount: (edge: EdgeContext) => MountedRoutes;
  /** The process's one fair scheduler (issue 48), which every keyed call's handling goes through. */
  scheduler?: Scheduler;
  /** Adds to a 422 item where the registered values are listed (the registry's hint, handed over by the root). */
  validationHint?: PipelineDeps['validationHint'];
}

/** What the edge gives the routes it mounts: the document's bytes, its response checker, the stream access, the drain state. */
export interface EdgeContext {
  documentJson: string;
  checker: ResponseChecker | null;
  streamAccess: ReturnType<typeof createStreamAccess>;
  isDraining: () => boolean;
}

/** Handlers joined to operations by operationId, the rules some operations restate, and the session socket. */
export interface MountedRoutes {
  handlers: Map<string, Handler>;
  validationMappers: ReadonlyMap<string, (f: ValidationFailure) => ValidationFailure>;
  registerSockets: (app: uWS.TemplatedApp) => SocketGroup;
}

/** The live sockets the app drains and settles at shutdown (the session sockets). */
export interface SocketGroup {
  drain(): void;
  settled(): Promise<void>;
}

export interface App {
  listen(port: number, host: string): Promise<number>;
  /** From now on new calls get 503 with Retry-After; calls in flight go on. */
  drain(): void;
  /** Resolves once no call is in flight (streams excepted: they end on their own) and every ended session socket's session concluded. */
  settled(): Promise<void>;
  /** Stops accepting connections. */
  close(): void;
  document: Record<string, unknown>;
}

export function createApp(deps: AppDeps): App {
  const document = buildOpenApiDocument(OPERATIONS, { build: deps.config.TAS_BUILD, checks: deps.checkCatalogue ?? [] });
  const documentJson = JSON.stringify(document);
  const checker = deps.config.TAS_CHECK_RESPONSES === 'true' ? createResponseChecker(document) : null;
  let draining = false;
  // Stream tickets, and the key re-check of open streams (issue 40).
  const streamAccess = createStreamAccess(deps);
  const mounted = deps.mount({ documentJson, checker, streamAccess, isDraining: () => draining });
  const { handlers } = mounted;
  assertEveryOperationHandled(handlers);
  const router = createRouter<BoundRoute>();
  for (const op of OPERATIONS) {
    const mapValidation = mounted.validationMappers.get(op.operationId);
    router.add(op.method, op.path, { op, handler: handlers.get(op.operationId) ?? null, ...(mapValidation ? { mapValidation } : {}) });
  }
  router.add('get', '/docs/assets/{name}', { op: DOCS_ASSET_OP, handler: createDocsAssetHandler() });
  router.add('get', CONSOLE_PAGE_OP.path, { op: CONSOLE_PAGE_OP, handler: createConsolePageHandler() });
  router.add('get', CONSOLE_ASSET_OP.path, { op: CONSOLE_ASSET_OP, handler: createConsoleAssetHandler() });
  for (const [path, route] of exampleRoutes()) router.add('get', path, route);
  for (const [path, route] of landingRoutes(deps.publicUrl)) router.add('get', path, route);

  let inFlight = 0;
  let whenSettled: (() => void)[] = [];
  const calls = {
    begin: () => {
      inFlight += 1;
    },
    end: () => {
      inFlight -= 1;
      if (inFlight > 0) return;
      for (const resolve of whenSettled) resolve();
      whenSettled = [];
    },
  };
  const pipeline = createPipeline({
    queryKeys: deps.config.TAS_STREAM_ACCESS_TOKEN,
    // The limit before authentication, per client address, and the per-tenant share (issue 40).
    addressGuard: createAddressGuard({
      perPrefix: createRateLimiter({
        redis: deps.redis,
        prefix: `${deps.config.TAS_REDIS_PREFIX}:addrkey`,
        perSecond: deps.config.TAS_ADDRESS_FAILURES_PER_SEC,
      }),
      perAddress: createRateLimiter({
        redis: deps.redis,
        prefix: `${deps.config.TAS_REDIS_PREFIX}:addr`,
        perSecond: ADDRESS_WIDE_FACTOR * deps.config.TAS_ADDRESS_FAILURES_PER_SEC,
      }),
    }),
    trustedProxies: trustedProxiesOf(deps.config.TAS_TRUSTED_PROXIES),
    tenantRateLimiter: createRateLimiter({
      redis: deps.redis,
      prefix: `${deps.config.TAS_REDIS_PREFIX}:tenant`,
      perSecond: deps.config.TAS_TENANT_RATE_LIMIT_PER_SEC ?? 5 * deps.config.TAS_RATE_LIMIT_PER_SEC,
    }),
    streamTickets: streamAccess,
    ...(deps.scheduler ? { scheduler: deps.scheduler } : {}),
    replays: replayStore(deps.db),
    ...(checker ? { checkAnswer: answerChecker(checker, deps.log) } : {}),
    calls,
    router,
    authenticator: deps.authenticator,
    rateLimiter: deps.rateLimiter,
    auditWriter: deps.auditWriter,
    log: deps.log,
    ...(deps.validationHint ? { validationHint: deps.validationHint } : {}),
    maxBodyBytes: deps.config.TAS_MAX_BODY_BYTES,
    isDraining: () => draining,
    originAllowed: deps.originAllowed,
  });

  const app = uWS.App();
  const sessionSockets = mounted.registerSockets(app);
  app.any('/*', (res, req) => {
    const ex = captureExchange(res, req);
    const refusal = framingRefusal(ex.head);
    if (refusal) refuseFraming(ex, refusal, deps.log);
    else pipeline(ex);
  });
  let listenSocket: uWS.us_listen_socket | null = null;

  return {
    document,
    listen(port, host) {
      return new Promise((resolve, reject) => {
        app.listen(host, port, (socket) => {
          if (!socket) return reject(new Error(`could not listen on ${host}:${port}`));
          listenSocket = socket;
          resolve(uWS.us_socket_local_port(socket));
        });
      });
    },
    drain() {
      draining = true;
      sessionSockets.drain();
    },
    async settled() {
      // Calls in flight, and the sessions of sockets being ended: each concludes (server_shutdown) on open pools.
      await Promise.all([
        inFlight === 0 ? Promise.resolve() : new Promise<void>((resolve) => whenSettled.push(resolve)),
        sessionSockets.settled(),
      ]);
    },
    close() {
      if (listenSocket) uWS.us_listen_socket_close(listenSocket);
      listenSocket = null;
    },
  };
}

/** The Idempotency-Key answers, in PostgreSQL under the caller's tenant (src/platform/db/replays.ts). */
function replayStore(db: Db): ReplayStore {
  const k = (p: Principal, operation: string, key: string) => ({ tenantId: p.tenantId, mode: p.mode, operation, key });
  return {
    claim: (p, operation, key, hash) =>
      withTenant(db, p, async (tx) => {
        if (await claimReplay(tx, k(p, operation, key), hash)) return 'claimed' as const;
        const row = await findReplay(tx, k(p, operation, key));
        // Released between the two statements (its first call failed): the retry may claim it again.
        if (!row)
          return (await claimReplay(tx, k(p, operation, key), hash))
            ? ('claimed' as const)
            : { hash, status: null, response: null, ageMs: 0 };
        return { hash: row.request_hash, status: row.status_code, response: row.response, ageMs: row.age_ms };
      }),
    retake: (p, operation, key, hash, olderThanMs) => withTenant(db, p, (tx) => retakeReplay(tx, k(p, operation, key), hash, olderThanMs)),
    answer: (p, operation, key, status, response) => withTenant(db, p, (tx) => answerReplay(tx, k(p, operation, key), status, response)),
    release: (p, operation, key) => withTenant(db, p, (tx) => releaseReplay(tx, k(p, operation, key))),
  };
}

/** Logs every answer that differs from the document (TAS_CHECK_RESPONSES); the tests fail on such a line. */
function answerChecker(checker: ResponseChecker, log: Logger) {
  return (operationId: string, status: number, contentType: string, body: string | Buffer) => {
    const violations = checker.answer(operationId, status, contentType, body);
    if (violations.length > 0) log.warn({ operationId, status, violations }, 'response does not match the document');
  };
}

/**
 * Handlers are joined to operations by operationId, and the join is checked
 * both ways when the app is built: an operation with no handler or a handler
 * naming no operation stops start-up, so a typo can never become a silent 501.
 */
export function assertEveryOperationHandled(handlers: ReadonlyMap<string, Handler>): void {
  const known = new Set(OPERATIONS.map((op) => op.operationId));
  const unknown = [...handlers.keys()].filter((id) => !known.has(id));
  const missing = OPERATIONS.map((op) => op.operationId).filter((id) => !handlers.has(id));
  const faults = [
    ...unknown.map((id) => `a handler names no operation: ${id}`),
    ...missing.map((id) => `an operation has no handler: ${id}`),
  ];
  if (faults.length > 0) throw new Error(`the handler table does not match the operations: ${faults.join('; ')}`);
}

// The reference page's static files: served, audited, but not part of the API contract.
const DOCS_ASSET_OP: OperationSpec = {
  operationId: 'getDocsAsset',
  method: 'get',
  path: '/docs/assets/{name}',
  tag: 'meta',
  summary: 'Static asset of the API reference page',
  auth: 'open',
  params: { name: 'string' },
  success: { status: 200, description: 'The asset' },
  validation: false,
};

/**
 * A request whose framing cannot be trusted is answered before routing and
 * the connection closed. It names no operation and no key was read, so it
 * leaves no audit row (as a proxy's refusal would not); it is logged.
 */
function refuseFraming(ex: Exchange, refusal: FramingRefusal, log: Logger): void {
  log.warn({ method: ex.method, status: refusal.status }, 'request refused for its framing');
  const body = JSON.stringify({
    type: `${PROBLEM_TYPE_BASE}framing`,
    title: refusal.title,
    status: refusal.status,
    detail: refusal.detail,
  });
  // Closing (the last argument) makes uWS write `Connection: close` itself; writing it here too doubled it.
  send(ex, { status: refusal.status, headers: { 'Content-Type': 'application/problem+json' }, body }, true);
}
