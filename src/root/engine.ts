import type { StatementPool } from '../platform/db/namedStatements.js';
import type { Logger } from 'pino';
import { createRelay, type Relay } from '../../actors/relay.js';
import type { ActorRuntime } from '../../actors/runtime.js';
import { MONITOR_QUEUE } from '../../machines/monitorMachine.js';
import { createServiceRuntime } from './serviceRuntime.js';
import { discoverConfiguredChecks, modelRendererFrom } from './checksFromConfig.js';
import { checkProcessor, inquiryTimers } from '../inquiries/jobs.js';
import { monitorProcessor } from '../monitors/jobs.js';
import { createMonitorRuns } from '../monitors/runs.js';
import { switchedOffChecks } from '../checks/catalogue.js';
import { redeliveryJob } from '../webhooks/jobs.js';
import type { Redelivery } from '../webhooks/routes.js';
import { createQueues, type Queues } from '../../actors/queues.js';
import { timerProcessor, timerRoutes } from './timerJobs.js';
import { webhookProcessor } from '../webhooks/jobs.js';
import { createWebhookFanout } from '../webhooks/fanout.js';
import { startQueueWorkers } from './workerFactory.js';
import type { CheckDefinition } from '../checks/types.js';
import type { Config } from '../platform/config.js';
import type { TenantScheduling } from '../platform/unitContext.js';
import { systemPoolOf, type Db } from '../platform/db/pool.js';
import type { EventHub } from '../events/hub.js';
import { createCaseService, type CaseService } from '../cases/service.js';
import { createCaseExports, type CaseExports } from '../cases/export/exports.js';
import { createCaseExpansion, type CaseExpansion } from '../cases/expand.js';
import { caseBody } from '../cases/wire.js';
import { exportProcessor } from '../cases/jobs.js';
import { materialProcessor } from '../material/jobs.js';
import { createMaterialExtraction, type MaterialJob } from '../material/extraction.js';
import { createFairExtractionQueue } from '../material/fairShare.js';
import { createInquiryService, type InquiryService } from '../inquiries/service.js';
import { createMonitorService, type MonitorService } from '../monitors/service.js';
import { createPolicyCache, type PolicyCache } from '../policies/cache.js';
import { createRegistryCache, type RegistryCache } from '../registry/cache.js';
import { createSessionService, type SessionService } from '../sessions/service.js';
import { sessionTimers } from '../sessions/jobs.js';
import { bullConnections } from '../platform/redis/bullConnection.js';
import { createWebhookSubscriptions, type WebhookSubscriptions } from '../webhooks/subscriptions.js';
import { insecureTargetsPolicy } from '../webhooks/targets.js';
import type { RedisClient } from '../platform/redis/client.js';

/**
 * The engine shared by the edge and the workers: discovered checks, queues,
 * the outbox relay, the actor runtime with every machine and its effects, and
 * the inquiry service. `startProcessing` adds the BullMQ workers and the
 * relay's sweep for processes that run workers.
 */
export interface Core {
  checks: readonly CheckDefinition[];
  queues: Queues;
  relay: Relay;
  runtime: ActorRuntime;
  inquiries: InquiryService;
  monitors: MonitorService;
  sessions: SessionService;
  cases: CaseService;
  caseExports: CaseExports;
  caseExpansion: CaseExpansion;
  /** Queues one webhook message for delivery again (the control plane's redeliver). */
  redeliverWebhook(message: Redelivery): Promise<void>;
  /** Queues the extraction of uploaded material bytes (job id: the material id, so a repeat is a no-op). */
  enqueueMaterialExtraction(job: MaterialJob): Promise<void>;
  policyCache: PolicyCache;
  registryCache: RegistryCache;
  webhookSubscriptions: WebhookSubscriptions;
  /** The workers; with the process's fair scheduler, each job runs as a unit of its tenant (issue 48). */
  startProcessing(opts?: { scheduler?: TenantScheduling }): void;
  close(): Promise<void>;
}

// Sweeping for outbox rows a crash left behind: often enough to recover within seconds.
const RELAY_SWEEP_INTERVAL_MS = 2000;

export async function createCore(deps: {
  config: Config;
  db: Db;
  statements: StatementPool;
  redis: RedisClient;
  hub: EventHub;
  log: Logger;
  publicUrl: () => string;
}): Promise<Core> {
  const { config, db, hub, log } = deps;
  const checks = await discoverConfiguredChecks(config, log);
  // Producers fail fast, workers wait for a reconnect; on a cluster the prefix is a hash tag (src/platform/redis/bullConnection.ts).
  const bull = bullConnections(config.redis, config.TAS_REDIS_PREFIX, config.TAS_REDIS_WAIT_REPLICAS);
  const connection = bull.worker;
  const queues = createQueues({ connection: bull.producer, prefix: bull.prefix, replicas: bull.replicas });
  const webhookSubscriptions = await createWebhookSubscriptions({
    db,
    redisUrl: config.redis,
    publisher: deps.redis,
    prefix: config.TAS_REDIS_PREFIX,
  });
  const fanOut = createWebhookFanout({
    wants: (scope, type) => webhookSubscriptions.wants(scope, type),
    enqueue: async (job) => void (await queues.add('webhooks', 'webhook.fanout', job.data, { jobId: job.jobId })),
  });
  const relay = createRelay({
    // Cross-tenant by nature: on the system login's pool (000035), never the tenant pool's.
    db: systemPoolOf(db),
    queues: (name) => queues.named(name),
    // Live subscribers first (they wait on it), then the webhooks' fan-out (src/webhooks/fanout.ts). A failure
    // of either leaves the outbox row for the sweep: subscribers drop a seq they have seen.
    publish: async (streamId, event, scope) => {
      await hub.publish(streamId, event);
      await fanOut(streamId, event, scope);
    },
    log,
  });
  const runtime = createServiceRuntime({ db, relay });
  // Both caches live at most a second (see their modules); one instance per process so a publish clears the one the hot path reads.
  const policyCache = createPolicyCache({ db, ttlMs: 1000 });
  const registryCache = createRegistryCache({ db, ttlMs: 1000 });
  const model = modelRendererFrom(config, log);
  const switchedOff = await switchedOffChecks(checks);
  const inquiries = createInquiryService({
    db,
    statements: deps.statements,
    runtime,
    hub,
    checks,
    switchedOff,
    registry: registryCache,
    policies: policyCache,
    model,
  });
  const monitorQueue = () => queues.queue(MONITOR_QUEUE);
  const monitors = createMonitorService({
    db,
    runtime,
    queue: monitorQueue,
    hub,
    registry: registryCache,
    policies: policyCache,
    minCadenceSeconds: config.TAS_MIN_MONITOR_CADENCE_SECONDS,
    log,
  });
  const sessions = createSessionService({
    db,
    runtime,
    checks,
    registry: registryCache,
    policies: policyCache,
    pepper: config.keyPepper,
  });
  const cases = createCaseService({ db, runtime, registry: registryCache, policies: policyCache });
  const caseExpansion = createCaseExpansion({ db, cases, inquiries });
  const caseExports = createCaseExports({
    db,
    pepper: config.keyring,
    cases,
    caseDocument: (view) => caseBody(view, deps.publicUrl()),
    enqueue: async (job) => void (await queues.add('exports', 'case.export', job, { jobId: `${job.exportId}.${job.attempt}` })),
  });

  const materialExtraction = createMaterialExtraction({
    db,
    parserLimits: { memoryMb: config.TAS_PARSER_MEMORY_MB, timeoutMs: config.TAS_PARSER_TIMEOUT_SECONDS * 1000 },
  });
  // Fair across tenants: each job's priority is its place among its own tenant's pending extractions (src/material/fairShare.ts).
  const fairExtraction = createFairExtractionQueue({
    redis: deps.redis,
    prefix: config.TAS_REDIS_PREFIX,
    add: async (job, { priority }) => void (await queues.add('material', 'material.extract', job, { jobId: job.materialId, priority })),
  });
  const enqueueMaterialExtraction = (job: MaterialJob) => fairExtraction.enqueue(job);

  const redeliverWebhook = async (message: Redelivery) => {
    const job = redeliveryJob(message, Date.now());
    await queues.add('webhooks', job.name, job.data, job.opts);
  };

  let processing: { close(): Promise<void> } | null = null;
  return {
    checks,
    queues,
    relay,
    runtime,
    inquiries,
    monitors,
    sessions,
    cases,
    caseExports,
    caseExpansion,
    enqueueMaterialExtraction,
    redeliverWebhook,
    policyCache,
    registryCache,
    webhookSubscriptions,
    startProcessing(opts = {}) {
      const runs = createMonitorRuns({ db, runtime, inquiries, queue: monitorQueue, hub, log });
      const settled = (job: MaterialJob) => fairExtraction.settled(job).catch(() => undefined);
      processing = startQueueWorkers(
        [
          checkProcessor({ onCheck: async (job) => void (await inquiries.runCheckJob(job)) }),
          timerProcessor(timerRoutes(inquiryTimers(inquiries), sessionTimers(sessions)), log),
          exportProcessor({ onExport: (job) => caseExports.build(job), onGiveUp: (job) => caseExports.giveUp(job) }),
          materialProcessor({
            onExtract: async (job) => {
              await materialExtraction.extract(job);
              await settled(job);
            },
            onGiveUp: async (job) => {
              await materialExtraction.giveUp(job);
              await settled(job);
            },
          }),
          monitorProcessor(runs),
          webhookProcessor({
            connection,
            prefix: bull.prefix,
            db,
            pepper: config.keyring,
            log,
            allowInsecureTargets: insecureTargetsPolicy(config.webhooksAllowLoopback),
          }),
        ],
        { connection, prefix: bull.prefix, log, ...(opts.scheduler ? { scheduler: opts.scheduler } : {}) },
      );
      relay.start(RELAY_SWEEP_INTERVAL_MS);
    },
    async close() {
      await processing?.close();
      await relay.stop();
      await queues.close();
      await webhookSubscriptions.close();
      await bull.close();
    },
  };
}
