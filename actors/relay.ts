import type { Queue } from 'bullmq';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { Db, Mode, Tx } from '../src/platform/db/pool.js';
import type { WrittenOutboxRow } from './store.js';
import { EnqueueJobParams, ScheduleEventParams } from './actions.js';
import {
  claimOutboxByIds,
  claimStaleOutbox,
  deleteDispatched,
  deleteDispatchedLazily,
  scopeRelay,
  type CarriedOut,
  type OutboxRow,
} from './outboxStore.js';
import { createMarkBatcher } from './markBatcher.js';
import type { StreamEvent } from './types.js';

/**
 * The outbox relay: after a command commits, it turns the command's outbox
 * rows into BullMQ jobs, delayed timer jobs and stream publishes, then
 * deletes them (actors/outboxStore.ts). Delivery is at least once: a crash
 * after the side effect and before the delete repeats the effect on the next
 * sweep. That is harmless
 * for jobs and timers (deterministic job ids make BullMQ ignore the second
 * add while the first is kept) and for publishes (subscribers drop a seq they
 * have already seen).
 */

export const TIMER_QUEUE = 'timers';
export const TIMER_JOB_NAME = 'actor.timer';

// Long enough to deduplicate a re-dispatch after a crash, short enough to keep Redis small.
const KEEP_COMPLETED = { age: 3600 };
// Failed jobs stay a day so an operator can read why.
const KEEP_FAILED = { age: 86_400 };
// Rows younger than this are probably still being dispatched by the command that wrote them.
const DEFAULT_SWEEP_AGE_MS = 5000;
// Bounds one sweep transaction's locks and Redis round trips; the loop takes the next batch.
const SWEEP_BATCH = 200;
// A sweep yields after this many batches so one node cannot monopolise a large backlog.
const SWEEP_MAX_BATCHES = 25;
// How long a mark waits for other commands' before its statement goes (actors/markBatcher.ts): at 100
// commands a second about five share it; far below DEFAULT_SWEEP_AGE_MS, so the sweep never races it.
const MARK_LINGER_MS = 50;

export interface RelayDeps {
  /** The system login's pool (tas_ops, 000035): the relay's work is cross-tenant. */
  db: Db;
  queues: (name: string) => Queue;
  /** Carries a stream event to subscribers; `scope` is the tenant and mode the event belongs to (for webhook fan-out). */
  publish: (streamId: string, event: StreamEvent, scope: { tenantId: string; mode: 'live' | 'test' }) => Promise<void>;
  log: Pick<Logger, 'warn' | 'error'>;
}

export interface Relay {
  /** Carries out these rows if still undispatched; never throws (the sweep retries). Returns how many it carried out. */
  dispatch(ids: readonly number[]): Promise<number>;
  /** Carries out rows a command just wrote, from memory, right after its commit; never throws. */
  dispatchWritten(rows: readonly WrittenOutboxRow[], owner: { tenantId: string; mode: Mode; actorId: string }): Promise<number>;
  /** Carries out undispatched rows older than `olderThanMs`. Returns how many. */
  sweep(olderThanMs?: number): Promise<number>;
  /** Sweeps now (start-up recovery) and then every `intervalMs`. */
  start(intervalMs: number): void;
  /** Stops the periodic sweep and waits for one in flight. */
  stop(): Promise<void>;
}

const PublishPayload = z.object({
  stream_id: z.string(),
  seq: z.number().int(),
  type: z.string(),
  payload: z.record(z.string(), z.unknown()),
  occurred_at: z.string(),
});

/**
 * BullMQ refuses custom ids that contain ':' (its key separator) or read as an
 * integer (its own counter's space). This encoding is deterministic and
 * injective: '%' ':' '#' are percent-escaped, and an integer-looking id gets a
 * leading '#', which no escaped id can start with.
 */
export function toBullJobId(id: string): string {
  const escaped = id.replace(/[%:#]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${Number.parseInt(escaped, 10)}` === escaped ? `#${escaped}` : escaped;
}

/** Delays count from when the command wrote the row, so a row swept late does not wait its full delay again. */
function remaining(delayMs: number | undefined, ageMs: number): number {
  return Math.max(0, Math.round((delayMs ?? 0) - ageMs));
}

class PoisonRow extends Error {}

export function createRelay(deps: RelayDeps): Relay {
  // Marking is cross-tenant bookkeeping (the service login reaches the outbox only as tas_system),
  // grouped across the commands dispatching at the same moment.
  const marks = createMarkBatcher<CarriedOut>((rows) => deleteDispatchedLazily(deps.db, rows), { lingerMs: MARK_LINGER_MS });
  const jobOptions = (jobId: string, delay: number) => ({
    jobId: toBullJobId(jobId),
    delay,
    removeOnComplete: KEEP_COMPLETED,
    removeOnFail: KEEP_FAILED,
  });

  async function carryOut(row: OutboxRow): Promise<void> {
    switch (row.kind) {
      case 'job': {
        const job = parse(EnqueueJobParams, row);
        await deps.queues(job.queue).add(job.name, job.data, jobOptions(job.jobId, remaining(job.delayMs, row.age_ms)));
        return;
      }
      case 'timer': {
        const timer = parse(ScheduleEventParams, row);
        if (row.actor_id === null) throw new PoisonRow('timer row without an actor');
        const data = { tenantId: row.tenant_id, mode: row.mode, actorId: row.actor_id, event: timer.event };
        await deps.queues(TIMER_QUEUE).add(TIMER_JOB_NAME, data, jobOptions(timer.timerId, remaining(timer.delayMs, row.age_ms)));
        return;
      }
      case 'publish': {
        const event = parse(PublishPayload, row);
        await deps.publish(event.stream_id, event, { tenantId: row.tenant_id, mode: row.mode });
        return;
      }
      default:
        throw new PoisonRow(`unknown outbox kind ${row.kind}`);
    }
  }

  /** Carries out claimed rows in id order; returns the ids done and whether any failed and stays for a retry. */
  async function carryOutAll(rows: readonly OutboxRow[]): Promise<{ done: number[]; failed: boolean }> {
    const done: number[] = [];
    let failed = false;
    for (const row of rows) {
      try {
        await carryOut(row);
        done.push(row.id);
      } catch (err) {
        if (err instanceof PoisonRow) {
          // It can never succeed; retrying it forever would only hide it. Marked, and loud.
          deps.log.error({ err, outboxId: row.id, kind: row.kind }, 'outbox row cannot be carried out; dropped');
          done.push(row.id);
        } else {
          failed = true;
          deps.log.warn({ err, outboxId: row.id, kind: row.kind }, 'outbox row not dispatched; the sweep will retry');
        }
      }
    }
    return { done, failed };
  }

  async function claimAndCarryOut(claim: (tx: Tx) => Promise<readonly OutboxRow[]>) {
    return deps.db.transaction(async (tx) => {
      await scopeRelay(tx);
      const rows = await claim(tx);
      const result = await carryOutAll(rows);
      await deleteDispatched(tx, result.done);
      return { claimed: rows.length, ...result };
    });
  }

  async function dispatch(ids: readonly number[]): Promise<number> {
    if (ids.length === 0) return 0;
    try {
      const { done } = await claimAndCarryOut((tx) => claimOutboxByIds(tx, ids));
      return done.length;
    } catch (err) {
      deps.log.warn({ err, outboxIds: ids }, 'outbox dispatch failed; the sweep will retry');
      return 0;
    }
  }

  /**
   * Rows a command just committed, carried out from memory (no read back, no
   * claim), then marked together with those of the other commands dispatching
   * now (actors/markBatcher.ts). A crash in between leaves them for the
   * sweep, which may carry one out a second time: harmless, as for dispatch.
   */
  async function dispatchWritten(
    rows: readonly WrittenOutboxRow[],
    owner: { tenantId: string; mode: Mode; actorId: string },
  ): Promise<number> {
    if (rows.length === 0) return 0;
    const full: OutboxRow[] = rows.map((r) => ({
      id: r.id,
      tenant_id: owner.tenantId,
      mode: owner.mode,
      actor_id: owner.actorId,
      kind: r.kind,
      payload: r.payload,
      age_ms: 0,
    }));
    try {
      const { done } = await carryOutAll(full);
      await marks.mark(done.map((id) => ({ id, tenantId: owner.tenantId })));
      return done.length;
    } catch (err) {
      deps.log.warn({ err, outboxIds: rows.map((r) => r.id) }, 'outbox dispatch failed; the sweep will retry');
      return 0;
    }
  }

  async function sweep(olderThanMs = DEFAULT_SWEEP_AGE_MS): Promise<number> {
    let total = 0;
    for (let batch = 0; batch < SWEEP_MAX_BATCHES; batch += 1) {
      const { claimed, done, failed } = await claimAndCarryOut((tx) => claimStaleOutbox(tx, olderThanMs, SWEEP_BATCH));
      total += done.length;
      if (failed || claimed < SWEEP_BATCH) break;
    }
    return total;
  }

  let timer: NodeJS.Timeout | null = null;
  let inFlight: Promise<unknown> | null = null;
  const tick = () => {
    if (inFlight) return;
    inFlight = sweep()
      .catch((err) => deps.log.warn({ err }, 'outbox sweep failed; will retry'))
      .finally(() => {
        inFlight = null;
      });
  };

  return {
    dispatch,
    dispatchWritten,
    sweep,
    start(intervalMs) {
      if (timer) return;
      tick();
      timer = setInterval(tick, intervalMs);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      await inFlight;
      await marks.drain();
    },
  };
}

function parse<T>(schema: z.ZodType<T>, row: OutboxRow): T {
  const parsed = schema.safeParse(row.payload);
  if (!parsed.success) throw new PoisonRow(`outbox ${row.kind} payload is malformed: ${parsed.error.message}`);
  return parsed.data;
}
