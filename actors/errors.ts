/**
 * The actor runtime's small family of errors. Each has a stable `code` that
 * callers branch on (never the message) and says whether retrying the same
 * command can succeed:
 *
 * - ERR_ACTOR_NOT_FOUND: no actor with that id in the caller's tenant and mode
 *   (another tenant's actor is indistinguishable from a missing one). Not retryable.
 * - ERR_ACTOR_VERSION_CONFLICT: another command saved the actor between our read
 *   and our write, and the bounded retry ran out. Retryable.
 * - ERR_MACHINE_VERSION_UNKNOWN: the stored snapshot was written by a machine
 *   definition this process does not know (newer, or older without a migration).
 *   Not retryable here; a process with the right definition can serve it.
 * - ERR_ACTOR_KIND_UNKNOWN: no machine registered under that kind (wiring bug).
 * - ERR_ACTION_UNKNOWN: a machine emitted an action the runtime cannot carry out,
 *   or gave a runtime action malformed params (a bug in the machine).
 * - ERR_ACTOR_SCOPE_REQUIRED: actors always belong to one tenant and mode.
 */
export type ActorErrorCode =
  | 'ERR_ACTOR_NOT_FOUND'
  | 'ERR_ACTOR_VERSION_CONFLICT'
  | 'ERR_MACHINE_VERSION_UNKNOWN'
  | 'ERR_ACTOR_KIND_UNKNOWN'
  | 'ERR_ACTION_UNKNOWN'
  | 'ERR_ACTOR_SCOPE_REQUIRED';

export class ActorRuntimeError extends Error {
  readonly code: ActorErrorCode;
  readonly retryable: boolean;

  constructor(code: ActorErrorCode, message: string, opts: { retryable?: boolean; cause?: unknown } = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = new.target.name;
    this.code = code;
    this.retryable = opts.retryable ?? false;
  }
}

export class ActorNotFoundError extends ActorRuntimeError {
  constructor(readonly actorId: string) {
    super('ERR_ACTOR_NOT_FOUND', `actor ${actorId} not found`);
  }
}

export class ActorVersionConflictError extends ActorRuntimeError {
  constructor(
    readonly actorId: string,
    readonly expectedVersion: number,
  ) {
    super('ERR_ACTOR_VERSION_CONFLICT', `actor ${actorId} changed under version ${expectedVersion}`, { retryable: true });
  }
}

export class MachineVersionUnknownError extends ActorRuntimeError {
  constructor(
    readonly kind: string,
    readonly storedVersion: number,
    readonly knownVersion: number,
  ) {
    super('ERR_MACHINE_VERSION_UNKNOWN', `${kind} snapshot has machine version ${storedVersion}; this process knows ${knownVersion}`);
  }
}

export class ActorKindUnknownError extends ActorRuntimeError {
  constructor(readonly kind: string) {
    super('ERR_ACTOR_KIND_UNKNOWN', `no machine registered for actor kind ${kind}`);
  }
}

export class ActionUnknownError extends ActorRuntimeError {
  constructor(
    readonly actionType: string,
    detail = 'no handler is registered for it',
  ) {
    super('ERR_ACTION_UNKNOWN', `action ${actionType}: ${detail}`);
  }
}

export class ActorScopeRequiredError extends ActorRuntimeError {
  constructor() {
    super('ERR_ACTOR_SCOPE_REQUIRED', 'actors need a tenant and a mode');
  }
}
