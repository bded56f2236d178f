import type { EffectsFor } from '../../actors/actions.js';
import type { Relay } from '../../actors/relay.js';
import { createActorRuntime, type ActorRuntime } from '../../actors/runtime.js';
import { CASE_MACHINE_VERSION, caseMachine } from '../../machines/caseMachine.js';
import { INQUIRY_MACHINE_VERSION, inquiryMachine, withoutEvidence, type InquiryEffectParams } from '../../machines/inquiryMachine.js';
import { MONITOR_MACHINE_VERSION, monitorMachine, type MonitorEffectParams } from '../../machines/monitorMachine.js';
import { SESSION_MACHINE_VERSION, sessionMachine, type SessionEffectParams } from '../../machines/sessionMachine.js';
import { inquiryEffects } from '../inquiries/effects.js';
import { monitorEffects } from '../monitors/effects.js';
import type { Db } from '../platform/db/pool.js';
import { sessionEffects } from '../sessions/effects.js';

/**
 * The actor runtime of the service: each kind of machines/kinds.ts with its
 * machine and version, and every machine's own actions with their effects.
 */
export function createServiceRuntime(deps: { db: Db; relay: Pick<Relay, 'dispatchWritten'> }): ActorRuntime {
  return createActorRuntime({
    db: deps.db,
    relay: deps.relay,
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
}
