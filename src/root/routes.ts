import { join } from 'node:path';
import type { Logger } from 'pino';
import { createExportAudit, createListAudit } from '../audit/routes.js';
import type { RevocationBus } from '../auth/index.js';
import { caseListHandlers } from '../cases/listRoutes.js';
import { entityFindHandlers } from '../entities/findRoutes.js';
import { caseHandlers } from '../cases/routes.js';
import { publishedKeys, type CaseExpansion, type CaseExports, type CaseService } from '../cases/index.js';
import { resolverHealth } from '../checks/resolverCanary.js';
import type { AppDeps, EdgeContext, MountedRoutes } from '../edge/app.js';
import type { Handler } from '../edge/handler.js';
import { createDocsHandler, createOpenApiHandler } from '../edge/pages/docs.js';
import { createHealthz, health } from '../edge/pages/health.js';
import type { EventHub } from '../events/index.js';
import { streamHandlers } from '../events/routes.js';
import { streamTicketHandlers } from '../events/ticketRoutes.js';
import { inquiryHandlers } from '../inquiries/routes.js';
import { mapInquiryValidation, type InquiryService } from '../inquiries/index.js';
import { materialHandlers } from '../material/routes.js';
import { ocrHealth, type MaterialJob } from '../material/index.js';
import { monitorHandlers } from '../monitors/routes.js';
import { monitorClosed, type MonitorService } from '../monitors/index.js';
import { observationHandlers } from '../observations/routes.js';
import type { ResponseChecker } from '../openapi/responseCheck.js';
import type { ValidationFailure } from '../platform/problems.js';
import type { Scheduler } from '../platform/scheduler.js';
import type { PolicyCache } from '../policies/index.js';
import type { RegistryCache } from '../registry/index.js';
import { sessionHandlers } from '../sessions/routes.js';
import { registerSessionSocket } from '../sessions/socketRoutes.js';
import type { SessionService } from '../sessions/index.js';
import { createListKeys, createMintKey, createRevokeKey, createRotateKey } from '../tenancy/routes.js';
import { insecureTargetsPolicy } from '../webhooks/index.js';
import { webhookHandlers, type Redelivery } from '../webhooks/routes.js';
import { controlPlaneHandlers } from './controlPlaneHandlers.js';

/**
 * Every capability's routes, mounted on the edge: the handler table joined
 * to the operations by operationId, the rules some operations restate, and
 * the session socket. The composition root is the one place that knows every
 * capability's routes.ts; the edge (src/edge/app.ts) knows none of them.
 */
export interface RouteDeps extends Pick<AppDeps, 'config' | 'db' | 'redis' | 'log' | 'auditWriter' | 'publicUrl'> {
  policyCache: PolicyCache;
  hub: EventHub;
  revocations: RevocationBus;
  registryCache: RegistryCache;
  inquiries: InquiryService;
  monitors: MonitorService;
  sessions: SessionService;
  cases: CaseService;
  caseExports: CaseExports;
  caseExpansion: CaseExpansion;
  enqueueMaterialExtraction: (job: MaterialJob) => Promise<void>;
  redeliverWebhook?: (message: Redelivery) => Promise<void>;
  checksDiscovered: () => number;
  /** Audit rows the spool's replay kept aside (reported by /healthz). */
  auditQuarantined?: () => Promise<number>;
  /** The RDAP service's health, by its check's circuit breaker (src/checks/rdapCheck.ts). */
  registryHealth?: () => 'unchecked' | 'ok' | 'degraded';
  /** Told after a webhook registration commits (the relay's fan-out cache). */
  webhooksChanged?: (scope: { tenantId: string; mode: 'live' | 'test' }) => Promise<void>;
  /** The process's one fair scheduler (issue 48): session frames take their tenant's turn in it. */
  scheduler?: Scheduler;
}

export function mountRoutes(deps: RouteDeps): (edge: EdgeContext) => MountedRoutes {
  return (edge) => ({
    handlers: handlerTable(deps, edge),
    validationMappers: VALIDATION_MAPPERS,
    registerSockets: (app) =>
      registerSessionSocket(app, {
        sessions: deps.sessions,
        hub: deps.hub,
        auditWriter: deps.auditWriter,
        revocations: deps.revocations,
        log: deps.log,
        isDraining: edge.isDraining,
        keyState: edge.streamAccess.keyState,
        keyRecheckMs: deps.config.TAS_STREAM_KEY_RECHECK_MS,
        heartbeatMs: deps.config.TAS_SESSION_HEARTBEAT_MS,
        tenantFramesPerSecond: deps.config.TAS_SESSION_TENANT_FRAMES_PER_SEC,
        ...(deps.scheduler ? { scheduler: deps.scheduler } : {}),
      }),
  });
}

function eventChecker(checker: ResponseChecker, log: Logger) {
  return (envelope: unknown) => {
    const violations = checker.event(envelope);
    if (violations.length > 0) log.warn({ violations }, 'event does not match the document');
  };
}

function handlerTable(deps: RouteDeps, { documentJson, checker, streamAccess }: EdgeContext): Map<string, Handler> {
  return new Map<string, Handler>([
    ['getHealth', health],
    [
      'getHealthz',
      createHealthz({
        db: deps.db,
        redis: deps.redis,
        redisTopology: deps.config.redis.kind,
        build: deps.config.TAS_BUILD,
        checksDiscovered: deps.checksDiscovered,
        openapiAnswers: () => documentJson.length > 0,
        ...(deps.auditQuarantined ? { auditQuarantined: deps.auditQuarantined } : {}),
        resolver: resolverHealth,
        ocr: ocrHealth,
        ...(deps.registryHealth ? { registry: deps.registryHealth } : {}),
      }),
    ],
    ['getOpenApi', createOpenApiHandler(documentJson)],
    ['getDocs', createDocsHandler()],
    ...inquiryHandlers(deps.inquiries, deps.publicUrl),
    ['listAudit', createListAudit({ db: deps.db })],
    ['exportAudit', createExportAudit({ db: deps.db })],
    ...observationHandlers({ db: deps.db, registry: deps.registryCache, policies: deps.policyCache }),
    ...controlPlaneHandlers({ db: deps.db, policyCache: deps.policyCache, registryCache: deps.registryCache }),
    ...streamHandlers({
      db: deps.db,
      hub: deps.hub,
      log: deps.log,
      revocations: deps.revocations,
      ...(checker ? { checkEvent: eventChecker(checker, deps.log) } : {}),
      keyState: streamAccess.keyState,
      keyRecheckMs: deps.config.TAS_STREAM_KEY_RECHECK_MS,
      monitorClosed,
    }),
    ...streamTicketHandlers({ db: deps.db, tickets: streamAccess.tickets, publicUrl: deps.publicUrl }),
    ...monitorHandlers(deps.monitors, deps.publicUrl),
    ...caseHandlers({ cases: deps.cases, exports: deps.caseExports, expansion: deps.caseExpansion, publicUrl: deps.publicUrl }),
    ...caseListHandlers({ db: deps.db }),
    ...entityFindHandlers({ db: deps.db, registry: deps.registryCache }),
    ['getExportKeys', async () => ({ status: 200, body: await publishedKeys(deps.db) })],
    ...materialHandlers({
      db: deps.db,
      registry: deps.registryCache,
      policies: deps.policyCache,
      publicUrl: deps.publicUrl,
      enqueueExtraction: deps.enqueueMaterialExtraction,
      uploadStagingDir: join(deps.config.TAS_SPOOL_DIR, 'uploads'),
    }),
    ...sessionHandlers(
      deps.sessions,
      { perKey: deps.config.TAS_SESSIONS_PER_KEY, perTenant: deps.config.TAS_SESSIONS_PER_TENANT },
      deps.publicUrl,
    ),
    ...webhookHandlers({
      db: deps.db,
      pepper: deps.config.keyPepper,
      allowInsecureTargets: insecureTargetsPolicy(deps.config.webhooksAllowLoopback),
      onChanged: deps.webhooksChanged,
      ...(deps.redeliverWebhook ? { redeliver: deps.redeliverWebhook } : {}),
    }),
    ['createKey', createMintKey({ db: deps.db, pepper: deps.config.keyPepper })],
    ['revokeKey', createRevokeKey({ db: deps.db, revocations: deps.revocations })],
    ['rotateKey', createRotateKey({ db: deps.db, pepper: deps.config.keyPepper, revocations: deps.revocations })],
    ['listKeys', createListKeys({ db: deps.db })],
  ]);
}

// Operations that restate a schema failure as one of their rules (a missing purpose is rule I13).
const VALIDATION_MAPPERS: ReadonlyMap<string, (f: ValidationFailure) => ValidationFailure> = new Map([
  ['createInquiry', mapInquiryValidation],
  // A monitor declares the same purpose and intent as the inquiries it will ask.
  ['createMonitor', mapInquiryValidation],
  // A session declares them too, for every assessment it will issue.
  ['openSession', mapInquiryValidation],
  // A case declares the purpose of the investigation.
  ['createCase', mapInquiryValidation],
]);
