import { initialTransition, transition } from './pureTransition.js';
import {
  type AnyMachineSnapshot,
  type AnyStateMachine,
  type ContextFrom,
  type EventFromLogic,
  type EventObject,
  type InputFrom,
  type SnapshotFrom,
  type StateValue,
} from 'xstate';
import type { ServiceMachines } from '../machines/kinds.js';
import { scopeTransaction, withTenant, type Db, type Mode, type TenantScope, type Tx } from '../src/platform/db/pool.js';
import { executeActions, sortActions, type BlindWrite, type EffectTable, type ExecutableAction } from './actions.js';
import {
  ActorKindUnknownError,
  ActorNotFoundError,
  ActorScopeRequiredError,
  ActorVersionConflictError,
  MachineVersionUnknownError,
} from './errors.js';
import type { Relay } from './relay.js';
import type { AppendedRow, WrittenOutboxRow } from './store.js';
import { written } from './store.js';
import { actorInsert, lockActor, selectActor, selectEventsAfter, updateActor, type ActorRow } from './store.js';
import type { StreamEvent } from './types.js';

/**
 * The persisted-actor runtime (DESIGN.md 2.1). A command is one transaction:
 * lock the actor row, restore its snapshot, take one pure transition, carry
 * out the returned actions (events, outbox rows, in-transaction effects), save
 * the snapshot o/** A persisted snapshot, as `machine.getPersistedSnapshot` produced it and Postgres stores it. */
export type PersistedSnapshot = Record<string, unknown>;

/**
 * A stored snapshot of machine T at its current version: its context is T's.
 * The row's kind and machine version vouch for it (restorable checks both and
 * walks older versions up), so the runtime takes the row's JSON as T's once,
 * there, and nothing above it casts a context.
 */
export type StoredSnapshot<T extends AnyStateMachine> = PersistedSnapshot & { value: StateValue; context: ContextFrom<T> };

/** The machines a runtime drives, by the kind stored with each actor (machines/kinds.ts is the service's). */
export type MachineKinds = Record<string, AnyStateMachine>;
/** A kind of the map M: the name an actor's row stores. */
export type KindOf<M extends MachineKinds> = keyof M & string;
/** An actor as a command names it: its kind says which machine, so which context and events. */
export interface ActorRef<K extends string> {
  kind: K;
  id: string;
}

export interface MachineEntry<T extends AnyStateMachine = AnyStateMachine> {
  machine: T;
  /** Stored with every snapshot; a snapshot of an unknown version is refused. */
  version: number;
  /**
   * Migration hook: `migrations[n]` turns a snapshot written by version n into
   * one of version n + 1. An older snapshot is walked up step by step on load
   * and saved at the current version by its next command; a missing step means
   * the version is unknown. Write a step whenever a machine change renames a
   * state or changes the context's shape, and bump `version`.
   */
  migrations?: Record<number, (snapshot: PersistedSnapshot) => PersistedSnapshot>;
  /**
   * What a snapshot in a final state keeps. Nothing can happen to a final
   * actor again, so context kept only for later transitions (an inquiry's
   * evidence, which its ledger entry holds) need not be stored a second time.
   */
  compactFinal?: (snapshot: StoredSnapshot<T>) => StoredSnapshot<T>;
}

/** Each kind of M with its machine's entry. */
export type MachineRegistry<M extends MachineKinds> = { [K in keyof M]: MachineEntry<M[K]> };

/** The snapshot as stored: compacted once the machine has reached a final state. */
function persistable(entry: MachineEntry, snapshot: AnyMachineSnapshot): PersistedSnapshot {
  const persisted = entry.machine.getPersistedSnapshot(snapshot) as PersistedSnapshot as StoredSnapshot<AnyStateMachine>;
  return snapshot.status === 'done' && entry.compactFinal ? entry.compactFinal(persisted) : persisted;
}

export interface ActorRuntimeDeps<M extends MachineKinds = ServiceMachines> {
  db: Db;
  machines: MachineRegistry<M>;
  effects: EffectTable;
  relay: Pick<Relay, 'dispatchWritten'>;
}

export interface CommandResult<T extends AnyStateMachine = AnyStateMachine> {
  snapshot: SnapshotFrom<T>;
  /** The stream events this command appended, with their sequence numbers. */
  events: StreamEvent[];
  /** The state value, flattened: `reasoning`, or JSON for a nested value. */
  state: string;
}

export interface SendResult<T extends AnyStateMachine = AnyStateMachine> extends CommandResult<T> {
  /** False when the event was ignored (or the builder had nothing to send): nothing was written. */
  changed: boolean;
}

export interface CreateOptions<T extends AnyStateMachine, K extends string = string> {
  kind: K;
  id: string;
  input: InputFrom<T>;
  /**
   * A first event taken in the same transaction as the creation; a function
   * builds it inside the transaction (after `prepare`), when it needs to read
   * or write rows first (an inquiry resolves its entity there).
   */
  event?: EventFromLogic<T> | ((tx: Tx) => Promise<EventFromLogic<T>>);
  /**
   * Runs first in the transaction, before any action: writes rows that effects
   * reference (the inquiries row a ledger insert points at).
   */
  prepare?: (tx: Tx) => Promise<void>;
  /**
   * Blind writes of rows the command creates beside the actor (the inquiry's
   * read-model row), taken after `event` is built and sent with the actor's
   * row in the command's last statement. A later overwrite of one of them in
   * the same command is taken into its insert (BlindWrite.absorb).
   */
  writes?: () => readonly BlindWrite[];
  /** Runs in the command's transaction after the actor is saved; a throw rolls everything back. */
  inTx?: (tx: Tx, result: CommandResult<T>) => Promise<void>;
}

/** Builds the event from the restored snapshot (under the row lock); null means there is nothing to send. */
export type EventBuilder<T extends AnyStateMachine = AnyStateMachine> = (
  snapshot: SnapshotFrom<T>,
  tx: Tx,
) => EventFromLogic<T> | null | Promise<EventFromLogic<T> | null>;

export interface SendOptions<T extends AnyStateMachine = AnyStateMachine> {
  /** Runs in the command's transaction, whether or not the event changed anything (e.g. to write the audit row). */
  inTx?: (tx: Tx, result: SendResult<T>) => Promise<void>;
}

export interface ActorRecord<T extends AnyStateMachine = AnyStateMachine> {
  id: string;
  kind: string;
  state: string;
  /** The stored snapshot's context, the machine's own. */
  context: ContextFrom<T>;
  snapshot: StoredSnapshot<T>;
  version: number;
  machineVersion: number;
  createdAt: string;
  updatedAt: string;
}

/**
 * A creating command computed without a transaction (createWith): the new
 * actor's row and everything its first transition asks to write, for a
 * caller that writes it all in one call of its own.
 */
export interface PlannedCreate {
  actor: { id: string; kind: string; machineVersion: number; snapshot: PersistedSnapshot };
  events: { type: string; payload: Record<string, unknown> }[];
  outbox: { kind: string; payload: unknown }[];
  /** The machine's own named actions (a ledger row, a read model's status), in order: the caller writes them. */
  effects: ExecutableAction[];
  state: string;
}

/** Writes a planned create in one call: what the append returned, or null when it wrote nothing (the caller goes another way). */
export type PlannedWrite = (planned: PlannedCreate) => Promise<AppendedRow | null>;

/**
 * The runtime, typed by its machines: a command names the actor's kind, and
 * gets that machine's snapshot, context and events. An actor stored as
 * another kind is not found (send throws ActorNotFoundError, read answers null).
 * The default map is the service's (machines/kinds.ts).
 */
export interface ActorRuntime<M extends MachineKinds = ServiceMachines> {
  create<K extends KindOf<M>>(scope: TenantScope, opts: CreateOptions<M[K], K>): Promise<CommandResult<M[K]>>;
  /**
   * A create and its first event, taken as pure transitions; `write` stores
   * the result in one call (a new subject's inquiry, tas_inquiry_open) and the
   * relay carries out its outbox rows once it returns. Null when `write` wrote nothing.
   */
  createWith<K extends KindOf<M>>(
    scope: TenantScope,
    opts: { kind: K; id: string; input: InputFrom<M[K]>; event: EventFromLogic<M[K]> },
    write: PlannedWrite,
  ): Promise<CommandResult<M[K]> | null>;
  send<K extends KindOf<M>>(
    scope: TenantScope,
    actor: ActorRef<K>,
    eventOrBuilder: EventFromLogic<M[K]> | EventBuilder<M[K]>,
    opts?: SendOptions<M[K]>,
  ): Promise<SendResult<M[K]>>;
  read<K extends KindOf<M>>(scope: TenantScope, actor: ActorRef<K>): Promise<ActorRecord<M[K]> | null>;
  readEvents(scope: TenantScope, actorId: string, afterSeq: number, limit: number): Promise<readonly StreamEvent[]>;
}

// The row lock serialises commands, so a conflict means a write that bypassed it; a few retries are plenty.
const MAX_SEND_ATTEMPTS = 3;

// A snapshot's value (a StateValue; AnyMachineSnapshot types it `any`) as one string.
export function stateOf(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function requireScope(scope: TenantScope): { tenantId: string; mode: Mode } {
  if (!scope.tenantId || !scope.mode) throw new ActorScopeRequiredError();
  return { tenantId: scope.tenantId, mode: scope.mode };
}

/**
 * Loose types inside, for a machine of any kind: the kind checked at each
 * command is what makes an actor's snapshot its kind's (see ActorRuntime).
 */
type LooseStored = PersistedSnapshot & { value: StateValue; context: unknown };
type LooseSnapshot = AnyMachineSnapshot;
interface LooseCreate extends Omit<CreateOptions<AnyStateMachine>, 'input' | 'event'> {
  input: unknown;
  event?: EventObject | ((tx: Tx) => Promise<EventObject>);
}
type LooseSend = EventObject | ((snapshot: LooseSnapshot, tx: Tx) => EventObject | null | Promise<EventObject | null>);
type LooseRecord = Omit<ActorRecord, 'context' | 'snapshot'> & { context: unknown; snapshot: LooseStored };

export function createActorRuntime<M extends MachineKinds = ServiceMachines>(deps: ActorRuntimeDeps<M>): ActorRuntime<M> {
  const machines: Record<string, MachineEntry> = deps.machines;
  const entryFor = (kind: string): MachineEntry => {
    const entry = Object.hasOwn(machines, kind) ? machines[kind] : undefined;
    if (!entry) throw new ActorKindUnknownError(kind);
    return entry;
  };

  /** The stored snapshot at the current machine version, or a refusal. */
  const restorable = (row: ActorRow): { entry: MachineEntry; persisted: LooseStored } => {
    const entry = entryFor(row.kind);
    if (row.machine_version > entry.version || row.machine_version < 1) {
      throw new MachineVersionUnknownError(row.kind, row.machine_version, entry.version);
    }
    let persisted: PersistedSnapshot = row.snapshot;
    for (let v = row.machine_version; v < entry.version; v += 1) {
      const step = entry.migrations?.[v];
      if (!step) throw new MachineVersionUnknownError(row.kind, row.machine_version, entry.version);
      persisted = step(persisted);
    }
    // The one place a row's JSON is taken as its machine's snapshot: its kind and version were checked above.
    return { entry, persisted: persisted as LooseStored };
  };

  // Not awaited: the command's caller does not wait on Redis or BullMQ. Its effects are already
  // durable in the outbox; the relay carries them out at once, and its sweep if this attempt fails.
  const afterCommit = (rows: WrittenOutboxRow[], scope: { tenantId: string; mode: Mode }, actorId: string): void => {
    if (rows.length === 0) return;
    // The relay logs and leaves undispatched rows to its sweep; a command never fails after it committed.
    void deps.relay.dispatchWritten(rows, { ...scope, actorId }).catch(() => 0);
  };

  async function create(scope: TenantScope, opts: LooseCreate): Promise<CommandResult> {
    const { tenantId, mode } = requireScope(scope);
    const entry = entryFor(opts.kind);
    const { result, outbox } = await deps.db.transaction(async (tx) => {
      await scopeTransaction(tx, scope);
      await opts.prepare?.(tx);
      let [snapshot, actions] = initialTransition(entry.machine, opts.input);
      const event = typeof opts.event === 'function' ? await opts.event(tx) : opts.event;
      if (event) {
        const [next, more] = transition(entry.machine, snapshot, event);
        snapshot = next;
        actions = [...actions, ...more];
      }
      // The row is a blind write: it goes out with the command's last statement, or before the first
      // effect that is not blind. A concurrent create of the same id fails there and rolls back everything.
      const row = actorInsert({
        id: opts.id,
        tenantId,
        mode,
        kind: opts.kind,
        machineVersion: entry.version,
        snapshot: persistable(entry, snapshot),
      });
      const outcome = await executeActions(tx, actions, {
        actorId: opts.id,
        tenantId,
        mode,
        scope,
        effects: deps.effects,
        leadingWrites: [{ table: 'actors', sql: row }, ...(opts.writes?.() ?? [])],
      });
      const result: CommandResult = { snapshot, events: outcome.events, state: stateOf(snapshot.value) };
      await opts.inTx?.(tx, result);
      return { result, outbox: outcome.outbox };
    });
    afterCommit(outbox, { tenantId, mode }, opts.id);
    return result;
  }

  async function createWith(
    scope: TenantScope,
    opts: { kind: string; id: string; input: unknown; event: EventObject },
    write: PlannedWrite,
  ): Promise<CommandResult | null> {
    const { tenantId, mode } = requireScope(scope);
    const entry = entryFor(opts.kind);
    const [initial, first] = initialTransition(entry.machine, opts.input);
    const [snapshot, more] = transition(entry.machine, initial, opts.event);
    const { events, outbox, effects } = sortActions([...first, ...more]);
    const state = stateOf(snapshot.value);
    const appended = await write({
      actor: { id: opts.id, kind: opts.kind, machineVersion: entry.version, snapshot: persistable(entry, snapshot) },
      events,
      outbox,
      effects,
      state,
    });
    if (appended === null) return null;
    const stored = written({ streamId: opts.id, events, outbox }, appended);
    afterCommit(stored.outbox, { tenantId, mode }, opts.id);
    return { snapshot, events: stored.events, state };
  }

  async function sendOnce(
    scope: TenantScope,
    actor: ActorRef<string>,
    eventOrBuilder: LooseSend,
    opts: SendOptions,
  ): Promise<{ result: SendResult; outbox: WrittenOutboxRow[] }> {
    const { tenantId, mode } = requireScope(scope);
    return deps.db.transaction(async (tx) => {
      await scopeTransaction(tx, scope);
      const row = await lockActor(tx, actor.id);
      // Another kind's actor is not this command's: its machine would take another kind's events.
      if (!row || row.kind !== actor.kind) throw new ActorNotFoundError(actor.id);
      const { entry, persisted } = restorable(row);
      const snapshot = entry.machine.resolveState(persisted) as LooseSnapshot;
      const event = typeof eventOrBuilder === 'function' ? await eventOrBuilder(snapshot, tx) : eventOrBuilder;
      const [next, actions] = event ? transition(entry.machine, snapshot, event) : [snapshot, []];
      if (next === snapshot && actions.length === 0) {
        // Ignored: no write, no version bump, so an idle timer or a duplicate report costs one read.
        const result: SendResult = { snapshot, events: [], state: stateOf(snapshot.value), changed: false };
        await opts.inTx?.(tx, result);
        return { result, outbox: [] };
      }
      const outcome = await executeActions(tx, actions, { actorId: actor.id, tenantId, mode, scope, effects: deps.effects });
      const saved = await updateActor(tx, {
        id: actor.id,
        expectedVersion: row.version,
        machineVersion: entry.version,
        snapshot: persistable(entry, next),
      });
      if (!saved) throw new ActorVersionConflictError(actor.id, row.version);
      const result: SendResult = { snapshot: next, events: outcome.events, state: stateOf(next.value), changed: true };
      await opts.inTx?.(tx, result);
      return { result, outbox: outcome.outbox };
    });
  }

  async function send(scope: TenantScope, actor: ActorRef<string>, eventOrBuilder: LooseSend, opts: SendOptions = {}): Promise<SendResult> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        const { result, outbox } = await sendOnce(scope, actor, eventOrBuilder, opts);
        afterCommit(outbox, requireScope(scope), actor.id);
        return result;
      } catch (err) {
        if (!(err instanceof ActorVersionConflictError) || attempt >= MAX_SEND_ATTEMPTS) throw err;
      }
    }
  }

  async function read(scope: TenantScope, actor: ActorRef<string>): Promise<LooseRecord | null> {
    requireScope(scope);
    const row = await withTenant(deps.db, scope, (tx) => selectActor(tx, actor.id));
    if (!row || row.kind !== actor.kind) return null;
    const { persisted } = restorable(row);
    return {
      id: row.id,
      kind: row.kind,
      state: stateOf(persisted.value),
      context: persisted.context,
      snapshot: persisted,
      version: row.version,
      machineVersion: row.machine_version,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
    };
  }

  async function readEvents(scope: TenantScope, actorId: string, afterSeq: number, limit: number): Promise<readonly StreamEvent[]> {
    requireScope(scope);
    return withTenant(deps.db, scope, (tx) => selectEventsAfter(tx, actorId, afterSeq, limit));
  }

  // Each method checks the actor's kind (or creates one of the kind it was given), so its loose
  // snapshot is that kind's machine's: the one place the typed interface is put over the loose one.
  return { create, createWith, send, read, readEvents } as unknown as ActorRuntime<M>;
}
