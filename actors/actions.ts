import { z } from 'zod';
import type { Mode, TenantScope, Tx } from '../src/db/pool.js';
import { ActionUnknownError } from './errors.js';
import { appendEventsAndOutbox, type OutboxKind, type WrittenOutboxRow } from './store.js';
import type { StreamEvent } from './types.js';

/**
 * Carrying out the actions a pure transition returned, inside the command's
 * transaction (see types.ts for the contract). Nothing here talks to Redis:
 * jobs, timers and publishes become outbox rows, and the relay carries them
 * out after commit.
 */

export interface EffectContext {
  actorId: string;
  scope: TenantScope;
}

/** An in-transaction handler for a machine's own action type (e.g. `recordAssessment` writing a ledger row). */
// Params are whatever the machine declared for that action; the handler owns their shape.
export type Effect = (tx: Tx, params: any, ctx: EffectContext) => Promise<void>;

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
  effects: Record<string, Effect>;
}

export interface ActionOutcome {
  events: StreamEvent[];
  outbox: WrittenOutboxRow[];
}

export async function executeActions(tx: Tx, actions: readonly ExecutableAction[], t: ActionTarget): Promise<ActionOutcome> {
  const events: { type: string; payload: Record<string, unknown> }[] = [];
  const outbox: { kind: OutboxKind; payload: unknown }[] = [];
  // Effects run in the order the machine emitted them; stream events and outbox rows are
  // gathered and written together at the end (they reference nothing the effects write).
  for (const action of actions) {
    switch (action.type) {
      case 'appendEvent':
        events.push(paramsOf(AppendEventParams, action));
        break;
      case 'enqueueJob':
        outbox.push({ kind: 'job', payload: paramsOf(EnqueueJobParams, action) });
        break;
      case 'scheduleEvent':
        outbox.push({ kind: 'timer', payload: paramsOf(ScheduleEventParams, action) });
        break;
      default:
        await runEffect(tx, action, t);
    }
  }
  if (events.length === 0 && outbox.length === 0) return { events: [], outbox: [] };
  return appendEventsAndOutbox(tx, { streamId: t.actorId, tenantId: t.tenantId, mode: t.mode, events, outbox });
}

async function runEffect(tx: Tx, action: ExecutableAction, t: ActionTarget): Promise<void> {
  if (action.type === 'xstate.raise' && !hasDelay(action.params)) return; // already taken inside the transition
  if (action.type.startsWith('xstate.')) {
    // Delayed raises, spawned children, sendTo...: they need a live actor, which a restored snapshot never has.
    throw new ActionUnknownError(action.type, 'persisted machines do I/O only through named actions');
  }
  const effect = Object.hasOwn(t.effects, action.type) ? t.effects[action.type] : undefined;
  if (!effect) throw new ActionUnknownError(action.type);
  await effect(tx, action.params, { actorId: t.actorId, scope: t.scope });
}

function hasDelay(params: unknown): boolean {
  return typeof params === 'object' && params !== null && (params as { delay?: unknown }).delay !== undefined;
}

function paramsOf<T>(schema: z.ZodType<T>, action: ExecutableAction): T {
  const parsed = schema.safeParse(action.params);
  if (!parsed.success) throw new ActionUnknownError(action.type, `malformed params: ${parsed.error.message}`);
  return parsed.data;
}
