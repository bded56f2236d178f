import type { StatementPool } from '../platform/db/namedStatements.js';
import { getServers } from 'node:dns';
import type { Logger } from 'pino';
import { createRelay, type Relay } from '../../actors/relay.js';
import { createActorRuntime, type ActorRuntime } from '../../actors/runtime.js';
import type { EffectsFor } from '../../actors/actions.js';
import { INQUIRY_MACHINE_VERSION, inquiryMachine, withoutEvidence, type InquiryEffectParams } from '../../machines/inquiryMachine.js';
import { MONITOR_MACHINE_VERSION, MONITOR_QUEUE, monitorMachine, type MonitorEffectParams } from '../../machines/monitorMachine.js';
import { SESSION_MACHINE_VERSION, sessionMachine, type SessionEffectParams } from '../../machines/sessionMachine.js';
import { CASE_MACHINE_VERSION, caseMachine } from '../../machines/caseMachine.js';
import { checkProcessor, inquiryTimers } from '../inquiries/jobs.js';
import { monitorProcessor } from '../monitors/jobs.js';
import { createMonitorRuns } from '../monitors/runs.js';
import { switchedOffChecks } from '../checks/catalogue.js';
import { redeliveryJob, type WebhookDeliverJob } from '../webhooks/jobs.js';
import type { Redelivery } from '../webhooks/routes.js';
import { createQueues, type Queues } from '../../actors/queues.js';
import { timerProcessor, timerRoutes } from './timerJobs.js';
import { webhookProcessor } from '../webhooks/jobs.js';
import { createWebhookFanout } from '../webhooks/fanout.js';
import { startQueueWorkers } from './workerFactory.js';
import { discoverChecks } from '../checks/registry.js';
import type { CheckDefinition } from '../checks/types.js';
import type { Config } from '../platform/config.js';
import { systemPoolOf, type Db } from '../platform/db/pool.js';
import type { EventHub } from '../events/hub.js';
import { createCaseService, type CaseService } from '../cases/service.js';
import { createCaseExports, type CaseExports } from '../cases/export/exports.js';
import { createCaseExpansion, type CaseExpansion } from '../cases/expand.js';
import { exportProcessor } from '../cases/jobs.js';
import { materialProcessor } from '../material/jobs.js';
import { createMaterialExtraction, type MaterialJob } from '../material/extraction.js';
import { createFairExtractionQueue } from '../material/fairShare.js';
import { inquiryEffects } from '../inquiries/effects.js';
import { createInquiryService, type InquiryService } from '../inquiries/service.js';
import { monitorEffects } from '../monitors/effects.js';
import { createMonitorService, type MonitorService } from '../monitors/service.js';
import { createPolicyCache, type PolicyCache } from '../policies/cache.js';
import { createRegistryCache, type RegistryCache } from '../registry/cache.js';
import { sessionEffects } from '../sessions/effects.js';
import { createSessionService, type SessionService } from '../sessions/service.js';
import { sessionTimers } from '../sessions/jobs.js';
import { bullConnections } from '../platform/redis/bullConnection.js';
import { createWebhookSubscriptions, type WebhookSubscriptions } from '../webhooks/subscriptions.js';
import { insecureTargetsPolicy, isPublicHttpsTarget } from '../webhooks/targets.js';
import type { RedisClient } from '../platform/redis/client.js';
import { createModelRenderer } from '../reports/model.js';

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
  startProcessing(): void;
  close(): Promise<void>;
}

function dnsServersOf(setting: string): { dnsServers?: string[] } {
  if (setting === 'off') return {};
  if (setting === 'system') return { dnsServers: getServers() };
  return {
    dnsServers: setting
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  };
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
  const checks = await discoverChecks({
    ...dnsServersOf(config.TAS_DNS_SERVERS),
    ...(config.TAS_DNS_CANARY !== 'off' ? { dnsCanary: config.TAS_DNS_CANARY } : {}),
    ...(config.TAS_RDAP_BASE_URL !== 'off' ? { rdapBaseUrl: config.TAS_RDAP_BASE_URL } : {}),
    ...(config.TAS_PROVIDERS_FILE ? { providersFile: config.TAS_PROVIDERS_FILE } : {}),
    ...(config.TAS_POPULARITY_LIST ? { popularityFile: config.TAS_POPULARITY_LIST } : {}),
    ...(config.TAS_SANCTIONS_LIST ? { sanctionsFile: config.TAS_SANCTIONS_LIST } : {}),
    networkTimeoutMs: config.TAS_NETWORK_TIMEOUT_MS,
    // A redirect (RDAP's bootstrap service forwards to the registry) passes the webhooks' address guard.
    redirectGuard: isPublicHttpsTarget,
    // The operator learns of a failing dependency from the log; the id names the check, never a provider.
    onDependencyChange: (checkId, state) => {
      if (state === 'open') log.warn({ check: checkId }, "a network check's dependency is failing; it is not asked for 30 s");
      else log.info({ check: checkId }, "a network check's dependency answers again");
    },
  });
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
  const runtime = createActorRuntime({
    db,
    relay,
    machines: {
      inquiry: { machine: inquiryMachine, version: INQUIRY_MACHINE_VERSION, compactFinal: withoutEvidence },
      monitor: { machine: monitorMachine, version: MONITOR_MACHINE_VERSION },
      session: { machine: sessionMachine, version: SESSION_MACHINE_VERSION },
      // Cases need no in-transaction effects: every command appends its CaseChanged event and nothing else.
      case: { machine: caseMachine, version: CASE_MACHINE_VERSION },
    },
    // Every machine's own actions have their effect, with their params: a missing or misspelt one fails tsc.
    effects: { ...inquiryEffects, ...monitorEffects, ...sessionEffects } satisfies EffectsFor<
      InquiryEffectParams & MonitorEffectParams & SessionEffectParams
    >,
  });
  // Both caches live at most a second (see their modules); one instance per process so a publish clears the one the hot path reads.
  const policyCache = createPolicyCache({ db, ttlMs: 1000 });
  const registryCache = createRegistryCache({ db, ttlMs: 1000 });
  const model = config.TAS_MODEL_ENDPOINT
    ? createModelRenderer({
        endpoint: config.TAS_MODEL_ENDPOINT,
        ...(config.TAS_MODEL_API_KEY_ENV ? { apiKeyEnv: config.TAS_MODEL_API_KEY_ENV } : {}),
        timeoutMs: 10_000,
        promptVersion: 'report-prompt/1',
        onFailure: (reason) => log.warn({ reason }, 'model renderer fell back to the template'),
      })
    : null;
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
    publicUrl: deps.publicUrl,
    log,
  });
  const sessions = createSessionService({
    db,
    runtime,
    checks,
    registry: registryCache,
    policies: policyCache,
    pepper: config.keyPepper,
    publicUrl: deps.publicUrl,
  });
  const cases = createCaseService({ db, runtime, registry: registryCache, policies: policyCache, publicUrl: deps.publicUrl });
  const caseExpansion = createCaseExpansion({ db, cases, inquiries });
  const caseExports = createCaseExports({
    db,
    pepper: config.keyring,
    cases,
    publicUrl: deps.publicUrl,
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

  const redeliverWebhook = async (m: Redelivery) => {
    const data: WebhookDeliverJob = {
      tenantId: m.tenantId,
      mode: m.mode,
      event: m.event,
      stream: m.stream,
      endpointId: m.endpointId,
      webhookId: m.messageId,
    };
    const job = redeliveryJob(data, Date.now());
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
    startProcessing() {
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
        { connection, prefix: bull.prefix, log },
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
