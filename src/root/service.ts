import { catalogueOf } from '../checks/catalogue.js';
import { registryHealthOf } from '../checks/rdapCheck.js';
import type { Logger } from 'pino';
import { createAuditSpool } from '../audit/spool.js';
import { createAuditWriter } from '../audit/auditWriter.js';
import { createAuthenticator } from '../auth/authenticate.js';
import { createRevocationBus } from '../auth/revocations.js';
import { describeConfig, type Config } from '../platform/config.js';
import { appendAuditBatch } from '../audit/store.js';
import { prepareAuditPartitions } from '../audit/partitions.js';
import { migrate } from '../platform/db/migrate.js';
import { bindSystemPool, createDb, poolerOptions, withSystem, type Db } from '../platform/db/pool.js';
import { createStatementPool, type StatementPool } from '../platform/db/namedStatements.js';
import { createEventHub } from '../events/hub.js';
import { countTenants } from '../tenancy/store.js';
import { createRateLimiter } from '../edge/rateLimit.js';
import { createCore, type Core } from './engine.js';
import { mountRoutes } from './routes.js';
import { assertNativeUws } from '../edge/uwsNative.js';
import { createApp, type App } from '../edge/app.js';
import { createLogger } from '../platform/logger.js';
import { createScheduler, defaultInFlight, parseTenantWeights, type Scheduler } from '../platform/scheduler.js';
import { checkPostgres, checkRedis, checkServiceLogin } from '../platform/preflight.js';
import { checkRedisPrefix } from '../platform/preflight.js';
import { databaseIdentity } from '../platform/db/deployment.js';
import { bindPrefix, prefixConflict } from '../platform/redis/prefixOwner.js';
import { sql } from 'slonik';
import { z } from 'zod';
import { createRedis, type RedisClient } from '../platform/redis/client.js';
import { describeTopology } from '../platform/redis/topology.js';
import { provisionTenant, type ProvisionedTenant } from '../tenancy/provision.js';
import { startWorkers, type Workers } from './workers.js';
import { sweepOverdueInquiries } from '../inquiries/sweeper.js';
import { warmOneCall } from '../inquiries/index.js';
import { reconcileMonitorSchedules } from '../monitors/reconcile.js';
import { sweepMaterial } from '../material/retention.js';
import { originAllowed } from '../policies/index.js';
import { withRegistryHint } from '../registry/index.js';

/**
 * The composition root: config -> logger -> preflight -> migrations -> pool ->
 * Redis -> app -> listen -> workers. Everything else receives its
 * dependencies as arguments.
 */
export interface ServiceOptions {
  edge: boolean;
  workers: boolean;
  log?: Logger;
  /** Create and announce a demo tenant on an empty database (never in production). */
  demoTenant?: boolean;
}

export interface Service {
  port: number | null;
  db: Db;
  redis: RedisClient;
  app: App | null;
  core: Core;
  log: Logger;
  demo: ProvisionedTenant | null;
  /** Stops taking work, drains what is in flight and closes; `reason` (a signal's name) is logged. */
  stop(reason?: string): Promise<void>;
}

export async function startService(config: Config, opts: ServiceOptions): Promise<Service> {
  const log = opts.log ?? createLogger(config.LOG_LEVEL);
  if (opts.edge) assertNativeUws();
  await checkPostgres(config.DATABASE_OWNER_URL);
  const redis = createRedis(config.redis);
  await checkRedis(redis, config.redis.kind === 'single' ? config.REDIS_URL : describeTopology(config.redis)).catch((error) => {
    redis.disconnect();
    throw error;
  });
  await migrate(config.DATABASE_OWNER_URL, (m) => log.info({ migration: m }, 'migration'));
  // The audit trail's months ahead (000090), on the owner's login like the migrations; again once a day,
  // so a long-running service never leaves the next month to the DEFAULT partition.
  await prepareAuditPartitions(config.DATABASE_OWNER_URL);
  const auditMonths = setInterval(() => {
    prepareAuditPartitions(config.DATABASE_OWNER_URL).catch((err: unknown) => log.error({ err }, 'audit partitions ahead'));
  }, AUDIT_PARTITIONS_EVERY_MS);
  auditMonths.unref();
  const db = await createDb(config.DATABASE_URL, poolerOptions(config.TAS_DB_POOLER));
  await checkServiceLogin(
    () => loginPowers(db),
    config.NODE_ENV === 'production',
    (msg) => log.warn(msg),
  );
  // Before any queue is touched: a prefix another database holds would trade jobs and schedules with it.
  const identity = await databaseIdentity(db);
  const prefix = await checkRedisPrefix(
    (candidate) => bindPrefix(redis, candidate, identity),
    (owner) => prefixConflict(config.TAS_REDIS_PREFIX, owner, identity),
    config.NODE_ENV === 'production',
    (msg) => log.warn({ setting: 'TAS_REDIS_PREFIX' }, msg),
    { prefix: config.TAS_REDIS_PREFIX, identity },
  );
  config = { ...config, TAS_REDIS_PREFIX: prefix };
  const hub = await createEventHub({ redisUrl: config.redis, prefix: config.TAS_REDIS_PREFIX, log });
  // Cross-tenant work runs on a login of its own (tas_ops, 000035): the tenant pool's login cannot become tas_system.
  const systemDb =
    config.DATABASE_SYSTEM_URL === config.DATABASE_URL
      ? db
      : await createDb(config.DATABASE_SYSTEM_URL, { ...poolerOptions(config.TAS_DB_POOLER), maximumPoolSize: SYSTEM_POOL_SIZE });
  bindSystemPool(db, systemDb);
  const demo = opts.demoTenant && config.NODE_ENV !== 'production' ? await createDemoTenant(db, config) : null;
  const spool = createAuditSpool(config.TAS_SPOOL_DIR);
  const auditWriter = createAuditWriter({ db, spool, onError: (err) => log.error({ err }, 'audit batch went to the local spool') });

  let app: App | null = null;
  let port: number | null = null;
  const revocations = await createRevocationBus({ redisUrl: config.redis, publisher: redis, prefix: config.TAS_REDIS_PREFIX });
  let publicUrl = config.publicUrl;
  const statements = createStatementPool(config.DATABASE_URL, poolerOptions(config.TAS_DB_POOLER));
  const core = await createCore({ config, db, statements, redis, hub, log, publicUrl: () => publicUrl });
  let scheduler: Scheduler | undefined;
  if (opts.edge) {
    // One scheduler for the process: every keyed call, every session frame and every job of every tenant (issue 48).
    scheduler = createScheduler({
      inFlight: config.TAS_SCHEDULER_IN_FLIGHT ?? defaultInFlight(),
      ...(config.TAS_SCHEDULER_OPEN ? { maxOpen: config.TAS_SCHEDULER_OPEN } : {}),
      queuePerTenant: config.TAS_SCHEDULER_QUEUE,
      weights: parseTenantWeights(config.TAS_TENANT_WEIGHTS),
    });
    const authenticator = createAuthenticator({ db, pepper: config.keyring });
    revocations.onRevoked((keyId) => authenticator.forget(keyId));
    const rateLimiter = createRateLimiter({ redis, prefix: config.TAS_REDIS_PREFIX, perSecond: config.TAS_RATE_LIMIT_PER_SEC });
    const mount = mountRoutes({
      config,
      db,
      redis,
      hub,
      log,
      auditWriter,
      revocations,
      publicUrl: () => publicUrl,
      policyCache: core.policyCache,
      registryCache: core.registryCache,
      inquiries: core.inquiries,
      monitors: core.monitors,
      sessions: core.sessions,
      cases: core.cases,
      caseExports: core.caseExports,
      caseExpansion: core.caseExpansion,
      enqueueMaterialExtraction: (job) => core.enqueueMaterialExtraction(job),
      redeliverWebhook: (message) => core.redeliverWebhook(message),
      auditQuarantined: () => spool.quarantined(),
      checksDiscovered: () => core.checks.length,
      registryHealth: () => registryHealthOf(core.checks),
      webhooksChanged: (scope) => core.webhookSubscriptions.changed(scope),
      scheduler,
    });
    app = createApp({
      config,
      db,
      redis,
      log,
      authenticator,
      rateLimiter,
      auditWriter,
      mount,
      scheduler,
      originAllowed: (principal, origin) => originAllowed(core.policyCache, principal, origin),
      publicUrl: () => publicUrl,
      checkCatalogue: catalogueOf(core.checks),
      validationHint: withRegistryHint,
    });
    if (config.TAS_WARM_STATEMENTS === 'true') await warmStatements(statements, log);
    port = await app.listen(config.PORT, config.HOST);
    if (!config.TAS_PUBLIC_URL) publicUrl = `http://${config.HOST}:${port}`;
    log.info({ ...describeConfig(config), port }, 'listening');
  }
  let workers: Workers | null = null;
  if (opts.workers) {
    core.startProcessing(scheduler ? { scheduler } : {});
    workers = await startWorkers({
      config,
      db,
      log,
      replayAudit: (rows) => appendAuditBatch(db, rows),
      spool,
      sweepInquiries: () =>
        sweepOverdueInquiries(db, (scope, id) => core.inquiries.fireTimer(scope, id, 'reasoning.expired'), config.TAS_INQUIRY_OVERDUE_MS),
      reconcileMonitors: () => reconcileMonitorSchedules(db, core.queues.queue('monitors')),
      sweepMaterial: () => sweepMaterial(db, (job) => core.enqueueMaterialExtraction(job)),
    });
  }

  return {
    port,
    db,
    redis,
    app,
    core,
    log,
    demo,
    async stop(reason = 'asked to stop') {
      const began = Date.now();
      // An operator watching a deploy needs two moments: when work stops coming in, and when it has all ended.
      log.info({ reason }, 'stopping: no new work taken (new calls get 503 with Retry-After, no new job starts); draining');
      // New calls get 503 with Retry-After; calls in flight finish on open pools before anything closes.
      clearInterval(auditMonths);
      app?.drain();
      app?.close();
      // Each step is bounded: with Redis or PostgreSQL gone, a close could otherwise wait forever.
      const steps: [string, () => Promise<unknown> | undefined][] = [
        ['calls in flight', () => app?.settled()],
        ['workers', () => workers?.close()],
        ['core', () => core.close()],
        ['event hub', () => hub.close()],
        ['audit writer', () => auditWriter.close()],
        ['revocations', () => revocations.close()],
        ['database pool', () => db.end()],
        ['statement pool', () => statements.end()],
        ['system pool', () => (systemDb !== db ? systemDb.end() : undefined)],
      ];
      const unfinished: string[] = [];
      for (const [name, step] of steps) if (!(await bounded(step()))) unfinished.push(name);
      redis.disconnect();
      const ms = Date.now() - began;
      if (unfinished.length === 0) log.info({ ms }, 'drained: every call, job and audit batch in flight has finished; stopped');
      else log.warn({ ms, unfinished, step_limit_ms: SHUTDOWN_STEP_MS }, 'stopped without draining everything: some steps ran out of time');
    },
  };
}

const AUDIT_PARTITIONS_EVERY_MS = 24 * 3600_000;

// Long enough for in-flight jobs and batches to finish on a healthy system.
const SHUTDOWN_STEP_MS = 5000;

// A warm-up that PostgreSQL is slow to answer delays the edge's start by this much at most.
const WARM_UP_MS = 5000;

/** The inquiry's one call warmed on every statement connection before the edge takes calls (TAS_WARM_STATEMENTS). */
async function warmStatements(statements: StatementPool, log: Logger): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const warmed = await Promise.race([warmOneCall(statements), new Promise<null>((r) => (timer = setTimeout(() => r(null), WARM_UP_MS)))]);
  clearTimeout(timer);
  if (warmed === null) log.warn({ within_ms: WARM_UP_MS }, 'statement connections not all warmed in time; the first inquiries may wait');
  else log.info({ connections: warmed }, 'statement connections warmed');
}

/** Whether the step ended (or failed) within SHUTDOWN_STEP_MS; false when it was left running. */
async function bounded(step: Promise<unknown> | undefined): Promise<boolean> {
  if (!step) return true;
  let timer: NodeJS.Timeout | undefined;
  const ended = await Promise.race([
    step.then(
      () => true,
      () => true,
    ),
    new Promise<boolean>((r) => (timer = setTimeout(() => r(false), SHUTDOWN_STEP_MS))),
  ]);
  clearTimeout(timer);
  return ended;
}

async function createDemoTenant(db: Db, config: Config): Promise<ProvisionedTenant | null> {
  if ((await withSystem(db, (tx) => countTenants(tx))) > 0) return null;
  return provisionTenant(db, config.keyPepper, { name: 'demo', investigative: true, authorizationRef: 'demo-authorization' });
}

// The relay, the audit writer's batches, the sealer and the sweeps share it; each holds a connection for one short transaction.
const SYSTEM_POOL_SIZE = 10;

const LoginPowers = z.object({ superuser: z.boolean(), bypassrls: z.boolean(), owns: z.boolean(), crosses: z.boolean() });

/** What the service's own login could do if a bug stepped out of its SET LOCAL ROLE. */
async function loginPowers(db: Db): Promise<z.infer<typeof LoginPowers>> {
  return db.one(sql.type(LoginPowers)`
    SELECT r.rolsuper AS superuser, r.rolbypassrls AS bypassrls,
           EXISTS (SELECT 1 FROM pg_tables t WHERE t.schemaname = 'public' AND t.tableowner = session_user) AS owns,
           EXISTS (SELECT 1 FROM pg_roles s WHERE s.rolname = 'tas_system' AND pg_has_role(session_user, s.oid, 'MEMBER')) AS crosses
    FROM pg_roles r WHERE r.rolname = session_user`);
}
