import { join } from 'node:path';
import type { CatalogueRow } from './checks/catalogue.js';
import * as uWS from './http/uws.js';
import type { RedisClient } from './redis/client.js';
import type { Logger } from 'pino';
import type { AuditWriter } from './audit/auditWriter.js';
import type { Authenticator, Principal } from './auth/authenticate.js';
import type { Config } from './config.js';
import { withTenant, type Db } from './db/pool.js';
import type { EventHub } from './events/hub.js';
import { captureExchange, send, type Exchange } from './http/exchange.js';
import { framingRefusal, type FramingRefusal } from './http/framing.js';
import type { BoundRoute, Handler } from './http/handler.js';
import { createPipeline } from './http/pipeline.js';
import { PROBLEM_TYPE_BASE } from './platform/problems.js';
import { createRateLimiter, type RateLimiter } from './http/rateLimit.js';
import { createRouter } from './http/router.js';
import { buildOpenApiDocument } from './openapi/document.js';
import { createListAudit } from './http/routes/admin/audit.js';
import { controlPlaneHandlers } from './http/routes/controlPlaneHandlers.js';
import { observationHandlers } from './http/routes/observations.js';
import type { PolicyCache } from './policies/cache.js';
import type { RegistryCache } from './registry/cache.js';
import type { InquiryService } from './inquiries/service.js';
import type { MonitorService } from './monitors/service.js';
import { materialHandlers } from './http/routes/material.js';
import type { MaterialJob } from './material/extraction.js';
import type { Redelivery } from './http/routes/admin/webhooks.js';
import { createResponseChecker, type ResponseChecker } from './openapi/responseCheck.js';
import type { ReplayStore } from './http/replay.js';
import { answerReplay, claimReplay, findReplay, releaseReplay, retakeReplay } from './db/replays.js';
import { monitorHandlers } from './http/routes/monitors.js';
import { inquiryHandlers } from './http/routes/inquiries.js';
import { sessionHandlers } from './http/routes/sessions.js';
import { caseHandlers } from './http/routes/cases.js';
import { caseListHandlers } from './http/routes/caseList.js';
import type { CaseService } from './cases/service.js';
import type { CaseExports } from './cases/export/exports.js';
import { publishedKeys } from './cases/export/keys.js';
import type { CaseExpansion } from './cases/expand.js';
import type { SessionService } from './sessions/service.js';
import { registerSessionSocket } from './http/routes/sessionSocket.js';
import { exampleRoutes } from './http/routes/sessionExample.js';
import { mapInquiryValidation } from './inquiries/admit.js';
import type { ValidationFailure } from './platform/problems.js';
import { createListKeys, createMintKey, createRevokeKey, createRotateKey } from './http/routes/admin/keys.js';
import type { RevocationBus } from './auth/revocations.js';
import { createHealthz, health } from './http/routes/health.js';
import { resolverHealth } from './checks/resolverCanary.js';
import { ocrHealth } from './material/ocr.js';
import { landingRoutes } from './http/routes/landing.js';
import { createDocsAssetHandler, createDocsHandler, createOpenApiHandler } from './http/routes/meta.js';
import { CONSOLE_ASSET_OP, CONSOLE_PAGE_OP, createConsoleAssetHandler, createConsolePageHandler } from './http/routes/console.js';
import { streamHandlers } from './http/routes/streams.js';
import { createStreamAccess, streamTicketHandlers } from './http/routes/streamTickets.js';
import { createAddressGuard } from './http/addressGuard.js';
import { trustedProxiesOf } from './http/clientAddress.js';
import { webhookHandlers } from './http/routes/admin/webhooks.js';
import { insecureTargetsPolicy } from './webhooks/targets.js';
import type { OperationSpec } from './schemas/operation.js';
import { OPERATIONS } from './schemas/operations.js';

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
  hub: EventHub;
  log: Logger;
  authenticator: Authenticator;
  rateLimiter: RateLimiter;
  auditWriter: AuditWriter;
  revocations: RevocationBus;
  policyCache: PolicyCache;
  registryCache: RegistryCache;
  inquiries: InquiryService;
  monitors: MonitorService;
  sessions: SessionService;
  cases: CaseService;
  caseExports: CaseExports;
  caseExpansion: CaseExpansion;
  enqueueMaterialExtraction: (job: MaterialJob) => Promise<void>;
  redeliverWebhook?: (message: Redelivery) => Promise<void>;
  /** The service's public base URL (for the URLs it hands out). */
  publicUrl: () => string;
  checksDiscovered: () => number;
  /** Audit rows the spool's replay kept aside (reported by /healthz). */
  auditQuarantined?: () => Promise<number>;
  /** The deployment's check kinds with their strengths, published in the OpenAPI document. */
  checkCatalogue?: readonly CatalogueRow[];
  /** The RDAP service's health, by its check's circuit breaker (src/checks/rdapCheck.ts). */
  registryHealth?: () => 'unchecked' | 'ok' | 'degraded';
  /** Told after a webhook registration commits (the relay's fan-out cache). */
  webhooksChanged?: (scope: { tenantId: string; mode: 'live' | 'test' }) => Promise<void>;
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
  const handlers = handlerTable(deps, documentJson, checker);
  assertEveryOperationHandled(handlers);
  const router = createRouter<BoundRoute>();
  for (const op of OPERATIONS) {
    const mapValidation = VALIDATION_MAPPERS.get(op.operationId);
    router.add(op.method, op.path, { op, handler: handlers.get(op.operationId) ?? null, ...(mapValidation ? { mapValidation } : {}) });
  }
  router.add('get', '/docs/assets/{name}', { op: DOCS_ASSET_OP, handler: createDocsAssetHandler() });
  router.add('get', CONSOLE_PAGE_OP.path, { op: CONSOLE_PAGE_OP, handler: createConsolePageHandler() });
  router.add('get', CONSOLE_ASSET_OP.path, { op: CONSOLE_ASSET_OP, handler: createConsoleAssetHandler() });
  for (const [path, route] of exampleRoutes()) router.add('get', path, route);
  for (const [path, route] of landingRoutes(deps.publicUrl)) router.add('get', path, route);

  let draining = false;
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
  // Stream tickets, and the key re-check of open streams (issue 40).
  const streamAccess = createStreamAccess(deps);
  const pipeline = createPipeline({
    queryKeys: deps.config.TAS_STREAM_ACCESS_TOKEN,
    // The limit before authentication, per client address, and the per-tenant share (issue 40).
    addressGuard: createAddressGuard({ limiter: createRateLimiter({ redis: deps.redis, prefix: `${deps.config.TAS_REDIS_PREFIX}:addr`, perSecond: deps.config.TAS_ADDRESS_FAILURES_PER_SEC }) }),
    trustedProxies: trustedProxiesOf(deps.config.TAS_TRUSTED_PROXIES),
    tenantRateLimiter: createRateLimiter({ redis: deps.redis, prefix: `${deps.config.TAS_REDIS_PREFIX}:tenant`, perSecond: deps.config.TAS_TENANT_RATE_LIMIT_PER_SEC ?? 5 * deps.config.TAS_RATE_LIMIT_PER_SEC }),
    streamTickets: streamAccess,
    replays: replayStore(deps.db),
    ...(checker ? { checkAnswer: answerChecker(checker, deps.log) } : {}),
    calls,
    router,
    authenticator: deps.authenticator,
    rateLimiter: deps.rateLimiter,
    auditWriter: deps.auditWriter,
    log: deps.log,
    maxBodyBytes: deps.config.TAS_MAX_BODY_BYTES,
    isDraining: () => draining,
    originAllowed: async (principal, origin) => (await deps.policyCache.current(principal))?.body.allowed_origins?.includes(origin) ?? false,
  });

  const app = uWS.App();
  const sessionSockets = registerSessionSocket(app, {
    sessions: deps.sessions, hub: deps.hub, auditWriter: deps.auditWriter, revocations: deps.revocations, log: deps.log, isDraining: () => draining,
    keyState: streamAccess.keyState, keyRecheckMs: deps.config.TAS_STREAM_KEY_RECHECK_MS,
    heartbeatMs: deps.config.TAS_SESSION_HEARTBEAT_MS, tenantFramesPerSecond: deps.config.TAS_SESSION_TENANT_FRAMES_PER_SEC,
  });
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
      await Promise.all([inFlight === 0 ? Promise.resolve() : new Promise<void>((resolve) => whenSettled.push(resolve)), sessionSockets.settled()]);
    },
    close() {
      if (listenSocket) uWS.us_listen_socket_close(listenSocket);
      listenSocket = null;
    },
  };
}

function eventChecker(checker: ResponseChecker, log: Logger) {
  return (envelope: unknown) => {
    const violations = checker.event(envelope);
    if (violations.length > 0) log.warn({ violations }, 'event does not match the document');
  };
}

/** The Idempotency-Key answers, in PostgreSQL under the caller's tenant (src/db/replays.ts). */
function replayStore(db: Db): ReplayStore {
  const k = (p: Principal, operation: string, key: string) => ({ tenantId: p.tenantId, mode: p.mode, operation, key });
  return {
    claim: (p, operation, key, hash) =>
      withTenant(db, p, async (tx) => {
        if (await claimReplay(tx, k(p, operation, key), hash)) return 'claimed' as const;
        const row = await findReplay(tx, k(p, operation, key));
        // Released between the two statements (its first call failed): the retry may claim it again.
        if (!row) return (await claimReplay(tx, k(p, operation, key), hash)) ? ('claimed' as const) : { hash, status: null, response: null, ageMs: 0 };
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

function handlerTable(deps: AppDeps, documentJson: string, checker: ResponseChecker | null): Map<string, Handler> {
  return new Map<string, Handler>([
    ['getHealth', health],
    ['getHealthz', createHealthz({ db: deps.db, redis: deps.redis, redisTopology: deps.config.redis.kind, build: deps.config.TAS_BUILD, checksDiscovered: deps.checksDiscovered, openapiAnswers: () => documentJson.length > 0, ...(deps.auditQuarantined ? { auditQuarantined: deps.auditQuarantined } : {}), resolver: resolverHealth, ocr: ocrHealth, ...(deps.registryHealth ? { registry: deps.registryHealth } : {}) })],
    ['getOpenApi', createOpenApiHandler(documentJson)],
    ['getDocs', createDocsHandler()],
    ...inquiryHandlers(deps.inquiries),
    ['listAudit', createListAudit({ db: deps.db })],
    ...observationHandlers({ db: deps.db, registry: deps.registryCache, policies: deps.policyCache }),
    ...controlPlaneHandlers({ db: deps.db, policyCache: deps.policyCache, registryCache: deps.registryCache }),
    ...streamHandlers({
      db: deps.db, hub: deps.hub, log: deps.log, revocations: deps.revocations, ...(checker ? { checkEvent: eventChecker(checker, deps.log) } : {}),
      keyState: createStreamAccess(deps).keyState, keyRecheckMs: deps.config.TAS_STREAM_KEY_RECHECK_MS,
    }),
    ...streamTicketHandlers({ db: deps.db, tickets: createStreamAccess(deps).tickets, publicUrl: deps.publicUrl }),
    ...monitorHandlers(deps.monitors),
    ...caseHandlers({ cases: deps.cases, exports: deps.caseExports, expansion: deps.caseExpansion }),
    ...caseListHandlers({ db: deps.db }),
    ['getExportKeys', async () => ({ status: 200, body: await publishedKeys(deps.db) })],
    ...materialHandlers({ db: deps.db, registry: deps.registryCache, policies: deps.policyCache, publicUrl: deps.publicUrl, enqueueExtraction: deps.enqueueMaterialExtraction,
      uploadStagingDir: join(deps.config.TAS_SPOOL_DIR, 'uploads') }),
    ...sessionHandlers(deps.sessions, { perKey: deps.config.TAS_SESSIONS_PER_KEY, perTenant: deps.config.TAS_SESSIONS_PER_TENANT }),
    ...webhookHandlers({
      db: deps.db, pepper: deps.config.keyPepper, allowInsecureTargets: insecureTargetsPolicy(deps.config.webhooksAllowLoopback), onChanged: deps.webhooksChanged,
      ...(deps.redeliverWebhook ? { redeliver: deps.redeliverWebhook } : {}),
    }),
    ['createKey', createMintKey({ db: deps.db, pepper: deps.config.keyPepper })],
    ['revokeKey', createRevokeKey({ db: deps.db, revocations: deps.revocations })],
    ['rotateKey', createRotateKey({ db: deps.db, pepper: deps.config.keyPepper, revocations: deps.revocations })],
    ['listKeys', createListKeys({ db: deps.db })],
  ]);
}

// Operations that restate a schema failure as one of their rules (a missing purpose is rule I13).
const VALIDATION_MAPPERS = new Map<string, (f: ValidationFailure) => ValidationFailure>([
  ['createInquiry', mapInquiryValidation],
  // A monitor declares the same purpose and intent as the inquiries it will ask.
  ['createMonitor', mapInquiryValidation],
  // A session declares them too, for every assessment it will issue.
  ['openSession', mapInquiryValidation],
  // A case declares the purpose of the investigation.
  ['createCase', mapInquiryValidation],
]);

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
  const body = JSON.stringify({ type: `${PROBLEM_TYPE_BASE}framing`, title: refusal.title, status: refusal.status, detail: refusal.detail });
  // Closing (the last argument) makes uWS write `Connection: close` itself; writing it here too doubled it.
  send(ex, { status: refusal.status, headers: { 'Content-Type': 'application/problem+json' }, body }, true);
}
