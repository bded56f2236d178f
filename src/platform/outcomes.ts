import type { FragmentSqlToken } from 'slonik';
import type { Tx } from './db/pool.js';
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

/** What a capability may say about its call for the audit row (the edge fills in the rest). */
export interface AuditFacts {
  action: string;
  target_kind: string | null;
  target_id: string | null;
  purpose: string | null;
  rule: string | null;
  cost_amount: number | null;
  cost_currency: string | null;
}

/** The part of a call that writes its audit row: enough for a command run by a worker too. */
export interface AuditSink {
  audit: AuditFacts;
  /**
   * Writes this call's audit row inside the command's own transaction, so it
   * commits with the effect or not at all. Call it last in the transaction,
   * with the outcome the call will answer with.
   */
  auditInTx(tx: Tx, outcome: CallOutcome): Promise<void>;
  /**
   * This call's audit row as a statement fragment, in place of auditInTx, for
   * a command that sends its writes in one last statement (an inquiry's). The
   * call counts as audited from here: a command that then fails takes the
   * row with it, and the failure is audited as any other. Null when the sink
   * leaves the row to someone else (an investigation's hops).
   */
  auditRow(outcome: CallOutcome): FragmentSqlToken | null;
  /**
   * The same row as its columns, for a command that writes every row of its
   * call in one database call of its own (a new subject's inquiry,
   * tas_inquiry_open): the same rules as auditRow.
   */
  auditRecord(outcome: CallOutcome): object | null;
}
