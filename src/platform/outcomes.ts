import { ServiceProblem, ValidationFailure } from './problems.js';

/**
 * How a call that went through ended, as a command says it: done (an answer
 * or a change), created (a new resource), accepted (work that goes on after
 * the answer), removed (nothing left to show) or connected (a session's
 * socket opened on a spent connection token). Commands and their audit
 * sinks speak in outcomes; the edge answers with the status an outcome maps
 * to, and the audit row records that status. Refusals are the problem family
 * (problems.ts), which carries its own status.
 */
export type CallOutcome = 'done' | 'created' | 'accepted' | 'removed' | 'connected';

const STATUS: Record<CallOutcome, number> = { done: 200, created: 201, accepted: 202, removed: 204, connected: 101 };

/** A 422: the refusal of a shape or a rule, as the edge answers it. */
const VALIDATION_STATUS = 422;

/** The status a call's answer (and its audit row) carries for how it ended. */
export function statusOf(ending: CallOutcome | ServiceProblem | ValidationFailure): number {
  if (ending instanceof ServiceProblem) return ending.status;
  if (ending instanceof ValidationFailure) return VALIDATION_STATUS;
  return STATUS[ending];
}
