import {
  isRedisInstance,
  Queue,
  UnrecoverableError,
  type ConnectionOptions,
  type DefaultJobOptions,
  type Job,
  type JobsOptions,
  type WorkerOptions,
} from 'bullmq';
import { z } from 'zod';
import { awaitReplicas, REPLICA_WAIT_MS } from '../src/platform/redis/bullConnection.js';
import { StreamEventSchema } from './types.js';

/**
 * The job catalog: every queue, every job name on it, and the zod schema its
 * data must satisfy. Producers (the outbox relay) write these shapes; every
 * processor parses with them and fails a job whose data does not parse with
 * UnrecoverableError, because a malformed payload fails the same way on
 * every retry.
 */

const Mode = z.enum(['live', 'test']);
const Presentation = z.object({ type: z.string().min(1), value: z.string(), normalised: z.string() });

/** One worker check of one inquiry; its result goes back to the inquiry actor as `check.reported`. */
export const CheckRunJob = z.object({
  tenantId: z.uuid(),
  mode: Mode,
  /** The inquiry actor that waits for the result. */
  actorId: z.uuid(),
  /** The pending key the inquiry machine waits on (a duplicate report for it is ignored). */
  key: z.string().min(1),
  checkId: z.string().min(1),
  presentation: Presentation,
  /** Every presentation of the subject, for checks that compare them. */
  subject: z.array(Presentation),
  claim: z.record(z.string(), z.string()).optional(),
});
export type CheckRunJob = z.infer<typeof CheckRunJob>;

/** A delayed event for a persisted actor (the outbox relay writes it from a `scheduleEvent` action). */
export const ActorTimerJob = z.object({
  tenantId: z.uuid(),
  mode: Mode,
  actorId: z.uuid(),
  event: z.looseObject({ type: z.string().min(1) }),
});
export type ActorTimerJob = z.infer<typeof ActorTimerJob>;

/** What one timer event type does when it comes due: sends its event to the actor it belongs to. */
export type TimerHandler = (job: ActorTimerJob) => Promise<void>;
/**
 * A capability's timers, by the type of the event each sends back: its
 * jobs.ts exports one, and the root's timer worker concatenates them
 * (src/root/timerJobs.ts), knowing no event type itself.
 */
export type TimerTable = Readonly<Record<string, TimerHandler>>;

/** A monitor's cadence came due (the job scheduler's template; the job id is the run id). */
export const MonitorRescanJob = z.object({ tenantId: z.uuid(), mode: Mode, monitorId: z.uuid() });
export type MonitorRescanJob = z.infer<typeof MonitorRescanJob>;

/** One rescan run of a monitor, enqueued by the monitor machine when its tick was accepted. */
export const MonitorRunJob = MonitorRescanJob.extend({ runId: z.string().min(1) });
export type MonitorRunJob = z.infer<typeof MonitorRunJob>;

/** One case export to build (src/cases/export/exports.ts); the job id is the export id. */
export const CaseExportJob = z.object({ exportId: z.uuid(), attempt: z.int().min(1), tenantId: z.uuid(), mode: Mode });
export type CaseExportJob = z.infer<typeof CaseExportJob>;

/** One upload's extraction (src/material/extraction.ts); the job id is the material id. */
export const MaterialExtractJob = z.object({ materialId: z.string().min(1).max(64), tenantId: z.uuid(), mode: Mode });
export type MaterialExtractJob = z.infer<typeof MaterialExtractJob>;

/**
 * The `webhooks` queue's job names and schemas: what the relay enqueues and
 * the worker (src/webhooks/jobs.ts) parses.
 */
export const WEBHOOK_QUEUE = 'webhooks';
export const FANOUT_JOB = 'webhook.fanout';
export const DELIVER_JOB = 'webhook.deliver';

const JobMode = z.enum(['live', 'test']);
// The stored event's own schema, with a stream id that must be an actor's uuid.
const StreamEventData = StreamEventSchema.extend({ stream_id: z.uuid() });
export const WebhookStream = z.enum(['inquiry', 'monitor', 'case']);
export type WebhookStream = z.infer<typeof WebhookStream>;

export const WebhookFanoutJob = z.object({ tenantId: z.uuid(), mode: JobMode, event: StreamEventData, stream: WebhookStream });
export type WebhookFanoutJob = z.infer<typeof WebhookFanoutJob>;

export const WebhookDeliverJob = WebhookFanoutJob.extend({ endpointId: z.uuid(), webhookId: z.string().min(1) });
export type WebhookDeliverJob = z.infer<typeof WebhookDeliverJob>;

/** One schema per job name (the catalog entry for the `webhooks` queue). */
export const WEBHOOK_JOBS = { [FANOUT_JOB]: WebhookFanoutJob, [DELIVER_JOB]: WebhookDeliverJob } as const;

/** A job's data parsed with its schema, or UnrecoverableError: a malformed payload fails the same way on every retry. */
export function parseWebhookJob<N extends keyof typeof WEBHOOK_JOBS>(name: N, data: unknown): z.infer<(typeof WEBHOOK_JOBS)[N]> {
  const parsed = WEBHOOK_JOBS[name].safeParse(data);
  if (!parsed.success) throw new UnrecoverableError(`job ${WEBHOOK_QUEUE}/${name} data is malformed: ${z.prettifyError(parsed.error)}`);
  return parsed.data as z.infer<(typeof WEBHOOK_JOBS)[N]>;
}

export const JOB_CATALOG = {
  checks: { 'check.run': CheckRunJob },
  timers: { 'actor.timer': ActorTimerJob },
  webhooks: WEBHOOK_JOBS,
  monitors: { 'monitor.rescan': MonitorRescanJob, 'monitor.run': MonitorRunJob },
  exports: { 'case.export': CaseExportJob },
  material: { 'material.extract': MaterialExtractJob },
} as const;

/**
 * Retry defaults per queue, for jobs added through the outbox relay (which
 * sets only the id, delay and retention). Every job is retried with backoff:
 * a job fails only when the service could not record its result (PostgreSQL
 * or Redis away for a moment), never because a check's source failed (that
 * becomes an Absence inside the job). Each is idempotent: a monitor run's
 * inquiry carries the run id as idempotency key, a check result is taken
 * only while the inquiry still awaits it, a timer is ignored by an actor
 * that has moved on. The backoff sums span a few minutes of outage; past
 * that, the deadline sweeper (src/inquiries/sweeper.ts) concludes what is
 * left.
 */
const QUEUE_DEFAULTS: Partial<Record<QueueName, DefaultJobOptions>> = {
  checks: { attempts: 6, backoff: { type: 'exponential', delay: 500 } },
  timers: { attempts: 8, backoff: { type: 'exponential', delay: 1000 } },
  monitors: { attempts: 5, backoff: { type: 'exponential', delay: 1000 } },
  // A build that hit a fault (PostgreSQL or Redis away) is retried; when the last attempt fails the export says failed,
  // and asking for it again queues its next attempt.
  exports: { attempts: 4, backoff: { type: 'exponential', delay: 2000 } },
  // A fault of ours (the OCR program missing, the thread killed) is retried; after the last attempt the material says failed.
  material: { attempts: 4, backoff: { type: 'exponential', delay: 2000 } },
};

export type QueueName = keyof typeof JOB_CATALOG;
export const QUEUE_NAMES = Object.keys(JOB_CATALOG) as QueueName[];

/**
 * Per job name, what its producer adds it with beyond the queue's retry
 * defaults: retention, and the retries of a job no outbox row carries. A
 * call adds only what is its own (the job id, a priority); `Queues.add`
 * puts the two together.
 */
const JOB_OPTIONS: { readonly [Q in QueueName]?: { readonly [N in JobName<Q>]?: JobsOptions } } = {
  webhooks: {
    // Added by the relay's publish, not from an outbox row, so it carries its own retries; a re-publish
    // within the hour finds the job and adds nothing, and a failed one is kept a day for the operator.
    'webhook.fanout': {
      attempts: 5,
      backoff: { type: 'exponential', delay: 500 },
      removeOnComplete: { age: 3600 },
      removeOnFail: { age: 86_400 },
    },
  },
  // A built bundle lives in PostgreSQL, not in its job: the job is kept a day, a failed one a week to read why.
  exports: { 'case.export': { removeOnComplete: { age: 86_400 }, removeOnFail: { age: 7 * 86_400 } } },
  // The material row says how the extraction went; a failed job is kept a week to read why.
  material: { 'material.extract': { removeOnComplete: { age: 3600 }, removeOnFail: { age: 7 * 86_400 } } },
};

/** The catalogue's options for one job name (none for a job the outbox relay adds with its own). */
export function jobOptionsOf<Q extends QueueName>(queue: Q, name: JobName<Q>): JobsOptions {
  const ofQueue: Partial<Record<string, JobsOptions>> = JOB_OPTIONS[queue] ?? {};
  return ofQueue[name] ?? {};
}

/** Whether this attempt is a job's last: a processor that gives up tells its command so here. */
export function isFinalAttempt(job: Job): boolean {
  return job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
}

/**
 * One queue's processor, as its capability's jobs.ts declares it: the job
 * names it takes, parsed with their catalogue schemas, turned into calls of
 * its commands. The root runs it in a worker (src/root/workerFactory.ts),
 * which owns what every worker shares: the connection and prefix, error
 * logging, closing on shutdown.
 */
export interface QueueProcessor<Q extends QueueName = QueueName> {
  queue: Q;
  /** One job: a malformed payload or unknown name throws UnrecoverableError (no retry can fix it). */
  process(job: Job, token?: string): Promise<unknown>;
  /** Jobs in flight per process, with its reason where it is declared. */
  concurrency: number;
  /** Worker settings this queue needs beyond the shared ones (its lock and stall checks, a backoff strategy). */
  options?: Pick<WorkerOptions, 'lockDuration' | 'stalledInterval' | 'maxStalledCount' | 'settings'>;
  /** Hears of a failed attempt (a log line of its own kind); the worker's own errors are logged for every queue. */
  onFailed?(job: Job | undefined, err: Error): void;
  /** Closes what the processor holds (a queue it adds to), after its worker has stopped. */
  close?(): Promise<void>;
}

export function isQueueName(name: string): name is QueueName {
  return Object.hasOwn(JOB_CATALOG, name);
}

/** The job names on a queue of the catalog: a misspelt one fails `tsc`, not a worker. */
export type JobName<Q extends QueueName> = keyof (typeof JOB_CATALOG)[Q] & string;
/** The data of one job name, as its catalog schema parses it. */
export type JobData<Q extends QueueName, N extends JobName<Q> = JobName<Q>> =
  N extends JobName<Q> ? z.infer<(typeof JOB_CATALOG)[Q][N] & z.ZodType> : never;
/** A queue of the catalog: `add` takes only its job names, and data of one of them. */
export type CatalogQueue<Q extends QueueName> = Queue<JobData<Q>, unknown, JobName<Q>>;

/** A job's data parsed with its catalog schema, or UnrecoverableError (no retry can fix it). */
export function parseJobData<Q extends QueueName, N extends keyof (typeof JOB_CATALOG)[Q] & string>(
  queue: Q,
  name: N,
  data: unknown,
): z.infer<(typeof JOB_CATALOG)[Q][N] & z.ZodType> {
  const schema = (JOB_CATALOG[queue] as Record<string, z.ZodType>)[name];
  if (!schema) throw new UnrecoverableError(`no job ${name} on queue ${queue}`);
  const parsed = schema.safeParse(data);
  if (!parsed.success) throw new UnrecoverableError(`job ${queue}/${name} data is malformed: ${z.prettifyError(parsed.error)}`);
  return parsed.data as z.infer<(typeof JOB_CATALOG)[Q][N] & z.ZodType>;
}

export interface Queues {
  /** The queue of that name, created once and reused, typed by the catalog. */
  queue<Q extends QueueName>(name: Q): CatalogQueue<Q>;
  /** One job of the catalog, its data typed by its name, added with the catalogue's options for it (JOB_OPTIONS) and the call's own. */
  add<Q extends QueueName, N extends JobName<Q>>(queue: Q, name: N, data: JobData<Q, N>, opts?: JobsOptions): Promise<unknown>;
  /**
   * The queue an outbox row names (the relay's): the name is data there, so it
   * is checked at run time against the catalog; unknown names are refused.
   */
  named(name: string): Queue;
  close(): Promise<void>;
}

export function createQueues(opts: { connection: ConnectionOptions; prefix: string; replicas?: number }): Queues {
  // Producers fail fast while Redis is down (BullMQ's "failing fast" pattern): the outbox keeps the
  // work and the sweep retries, so waiting on a reconnect would only hold a transaction open.
  const connection = isRedisInstance(opts.connection) ? opts.connection : { ...opts.connection, enableOfflineQueue: false };
  const cache = new Map<QueueName, Queue>();
  function named(name: string): Queue {
    if (!isQueueName(name)) throw new Error(`unknown queue ${name}; add it to the job catalog`);
    let q = cache.get(name);
    if (!q) {
      const defaultJobOptions = QUEUE_DEFAULTS[name];
      q = new Queue(name, { connection, prefix: opts.prefix, ...(defaultJobOptions ? { defaultJobOptions } : {}) });
      if (opts.replicas) acknowledgedByReplicas(q, opts.replicas);
      cache.set(name, q);
    }
    return q;
  }
  return {
    named,
    // BullMQ's Queue is generic only in its types: the catalog is what makes this one's names and data so.
    queue: <Q extends QueueName>(name: Q) => named(name) as CatalogQueue<Q>,
    add: (queue, name, data, jobOpts) => named(queue).add(name, data, { ...jobOptionsOf(queue, name), ...jobOpts }),
    async close() {
      const queues = [...cache.values()];
      cache.clear();
      await Promise.all(queues.map((q) => q.close()));
    },
  };
}

/**
 * A job added through this queue counts as added only once `replicas`
 * replicas have it (TAS_REDIS_WAIT_REPLICAS; src/platform/redis/bullConnection.ts):
 * what the relay acknowledges to PostgreSQL survives a failover.
 */
function acknowledgedByReplicas(queue: Queue, replicas: number): void {
  const add = queue.add.bind(queue);
  const addBulk = queue.addBulk.bind(queue);
  queue.add = (async (...args: Parameters<typeof add>) => {
    const job = await add(...args);
    await awaitReplicas(queue, replicas, REPLICA_WAIT_MS);
    return job;
  }) as typeof queue.add;
  queue.addBulk = (async (...args: Parameters<typeof addBulk>) => {
    const jobs = await addBulk(...args);
    await awaitReplicas(queue, replicas, REPLICA_WAIT_MS);
    return jobs;
  }) as typeof queue.addBulk;
}
