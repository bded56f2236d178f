import { sql, type FragmentSqlToken } from 'slonik';
import { z } from 'zod';
import type { Mode, TenantScope, Tx } from '../src/platform/db/pool.js';
import { ActionUnknownError } from './errors.js';
import { appendEventsAndOutbox, writesAsCtes, type OutboxKind, type WrittenOutboxRow } from './store.js';
import type { StreamEvent } from './types.js';

/**
 * Carrying out the actions a pure transition returned, inside the command's
 * transaction (see types.ts for the contract). Nothing here talks to Redis:
 * jobs, timers and publishes become outbox rows, and the relay carries them
 * out after commit.
 *
 * Blind writes (issue 15): a write whose result nobody reads, and that
 * nothing later in the command reads back (a ledger row, a read model's
 * status, the new actor's row), is not sent on its own. It waits and goes out
 * in the command's last statement, beside its stream events and outbox rows,
 * as one more data-modifying CTE: one round trip for all of them. Order is
 * kept where it shows: an effect that is not blind runs only after every
 * write before it was sent, and two writes to one table never share a
 * statement (the ledger's order is the order of its inserts).
 */

/** A write carried in the command's last statement; see above. */
export interface BlindWrite {
  /** The table it writes. */
  table: string;
  /**
   * For an overwrite of one row (an UPDATE or upsert, not a plain INSERT): a later write with the same
   * key replaces this one while both wait, leaving the row as running both in order would.
   */
  replaces?: string;
  /** For an overwrite: the columns it sets, so that a pending insert of the same row can take them in (`absorb`). */
  sets?: Readonly<Record<string, unknown>>;
  /**
   * For an insert: the same insert with a later overwrite's columns taken in. The overwrite could not
   * share the insert's statement (it would not see the row), so the row is inserted as it would end.
   */
  absorb?: (sets: Readonly<Record<string, unknown>>) => BlindWrite;
  sql: FragmentSqlToken;
}

export interface EffectContext {
  actorId: string;
  scope: TenantScope;
  /** Queues a blind write for the command's last statement (only from an effect made with `blindEffect`). */
  defer(write: BlindWrite): void;
}

/**
 * An in-transaction handler for one of a machine's own actions (e.g.
 * `recordAssessment` writing a ledger row), typed by the params the machine
 * declares for it. Declared through a method so that one table can hold
 * effects of different params (a method's parameters compare both ways).
 */
export type Effect<P = unknown> = { run(tx: Tx, params: P, ctx: EffectContext): Promise<void> }['run'];

/** A capability's effects: exactly the actions named in its machine's params map, each with its params. */
export type EffectsFor<P> = { readonly [K in keyof P]: Effect<P[K]> };

/** What the runtime looks actions up in, by the name the machine emitted. */
export type EffectTable = Readonly<Record<string, Effect>>;

const BLIND = Symbol('blind effect');

/** An effect that only defers blind writes and reads nothing the command wrote: it needs no earlier write sent first. */
export function blindEffect<P>(effect: Effect<P>): Effect<P> {
  return Object.assign(effect, { [BLIND]: true });
}

const isBlind = (effect: Effect) => (effect as { [BLIND]?: boolean })[BLIND] === true;

/** The blind writes waiting for the command's last statement, in order. */
class PendingWrites {
  private writes: BlindWrite[] = [];

  constructor(private readonly tx: Tx) {}

  async add(write: BlindWrite): Promise<void> {
    const same = write.replaces === undefined ? -1 : this.writes.findIndex((w) => w.replaces === write.replaces);
    const pendingInsert = same >= 0 ? this.writes[same]!.absorb : undefined;
    if (pendingInsert !== undefined && write.sets !== undefined) {
      this.writes[same] = pendingInsert(write.sets);
      return;
    }
    if (same >= 0) {
      this.writes.splice(same, 1);
    } else if (this.writes.some((w) => w.table === write.table)) {
      await this.flush();
    }
    this.writes.push(write);
  }

  /** Sends what waits, in one statement, before anything that might read it. */
  async flush(): Promise<void> {
    const writes = this.take();
    if (writes.length === 1) await this.tx.query(sql.unsafe`${writes[0]!}`);
    else if (writes.length > 1) await this.tx.query(sql.unsafe`WITH ${writesAsCtes(writes)} SELECT 1`);
  }

  take(): FragmentSqlToken[] {
    const out = this.writes.map((w) => w.sql);
    this.writes = [];
    return out;
  }
}

export interface ExecutableAction {
  type: string;
  params?: unknown;
}

export const AppendEventParams = z.object({
  type: z.string().min(1),
  payload: z.record(z.string(), z.unknown()),
});
export const EnqueueJobParams = z.object({
  queue: z.string().min(1),
  name: z.string().min(1),
  jobId: z.string().min(1),
  data: z.record(z.string(), z.unknown()),
  delayMs: z.number().int().nonnegative().optional(),
});
export const ScheduleEventParams = z.object({
  event: z.looseObject({ type: z.string().min(1) }),
  delayMs: z.number().int().nonnegative(),
  timerId: z.string().min(1),
});

export interface ActionTarget {
  actorId: string;
  tenantId: string;
  mode: Mode;
  scope: TenantScope;
  effects: EffectTable;
  /** Blind writes the command made before any action (a new actor's row). */
  leadingWrites?: readonly BlindWrite[];
}

export interface ActionOutcome {
  events: StreamEvent[];
  outbox: WrittenOutboxRow[];
}

/** A transition's actions sorted the way the runtime carries them out: stream events, outbox rows, then effects in order. */
export interface SortedActions {
  events: { type: string; payload: Record<string, unknown> }[];
  outbox: { kind: OutboxKind; payload: unknown }[];
  /** The machine's own named actions, in the order it emitted them. */
  effects: ExecutableAction[];
}

/**
 * Sorts a transition's actions without doing any: stream events and outbox
 * rows are gathered (they reference nothing the effects write), raises the
 * transition already took are dropped, and any other XState action is refused:
 * a restored snapshot never has the live actor a delayed raise, a spawned
 * child or a sendTo would need, so persisted machines do I/O only through
 * named actions.
 */
export function sortActions(actions: readonly ExecutableAction[]): SortedActions {
  const sorted: SortedActions = { events: [], outbox: [], effects: [] };
  for (const action of actions) {
    if (action.type === 'appendEvent') sorted.events.push(paramsOf(AppendEventParams, action));
    else if (action.type === 'enqueueJob') sorted.outbox.push({ kind: 'job', payload: paramsOf(EnqueueJobParams, action) });
    else if (action.type === 'scheduleEvent') sorted.outbox.push({ kind: 'timer', payload: paramsOf(ScheduleEventParams, action) });
    else if (action.type === 'xstate.raise' && !hasDelay(action.params)) continue;
    else if (action.type.startsWith('xstate.'))
      throw new ActionUnknownError(action.type, 'persisted machines do I/O only through named actions');
    else sorted.effects.push(action);
  }
  return sorted;
}

export async function executeActions(tx: Tx, actions: readonly ExecutableAction[], t: ActionTarget): Promise<ActionOutcome> {
  const { events, outbox, effects } = sortActions(actions);
  const pending = new PendingWrites(tx);
  for (const write of t.leadingWrites ?? []) await pending.add(write);
  // Effects run in the order the machine emitted them; stream events and outbox rows are
  // written together at the end.
  for (const action of effects) await runEffect(tx, action, t, pending);
  if (events.length === 0 && outbox.length === 0) {
    await pending.flush();
    return { events: [], outbox: [] };
  }
  return appendEventsAndOutbox(tx, { streamId: t.actorId, tenantId: t.tenantId, mode: t.mode, events, outbox, writes: pending.take() });
}

async function runEffect(tx: Tx, action: ExecutableAction, t: ActionTarget, pending: PendingWrites): Promise<void> {
  const effect = Object.hasOwn(t.effects, action.type) ? t.effects[action.type] : undefined;
  if (!effect) throw new ActionUnknownError(action.type);
  if (!isBlind(effect)) {
    await pending.flush();
    await effect(tx, action.params, {
      actorId: t.actorId,
      scope: t.scope,
      defer: () => {
        throw new ActionUnknownError(action.type, 'only an effect made with blindEffect defers writes');
      },
    });
    return;
  }
  const deferred: BlindWrite[] = [];
  await effect(tx, action.params, { actorId: t.actorId, scope: t.scope, defer: (write) => deferred.push(write) });
  for (const write of deferred) await pending.add(write);
}

function hasDelay(params: unknown): boolean {
  return typeof params === 'object' && params !== null && (params as { delay?: unknown }).delay !== undefined;
}

function paramsOf<T>(schema: z.ZodType<T>, action: ExecutableAction): T {
  const parsed = schema.safeParse(action.params);
  if (!parsed.success) throw new ActionUnknownError(action.type, `malformed params: ${parsed.error.message}`);
  return parsed.data;
}
