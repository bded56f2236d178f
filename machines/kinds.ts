import type { caseMachine } from './caseMachine.js';
import type { inquiryMachine } from './inquiryMachine.js';
import type { monitorMachine } from './monitorMachine.js';
import type { sessionMachine } from './sessionMachine.js';

/**
 * The service's persisted machines, by the kind stored with each actor
 * (actors.kind). The actor runtime is generic over such a map: from a kind
 * it knows the machine, so its context (`ContextFrom`), its events
 * (`EventFromLogic`) and its input, and no caller casts a snapshot's context.
 * A type only: the root hands the runtime the machines themselves.
 */
export type ServiceMachines = {
  inquiry: typeof inquiryMachine;
  monitor: typeof monitorMachine;
  session: typeof sessionMachine;
  case: typeof caseMachine;
};
