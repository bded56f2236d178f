import { blindEffect, type BlindWrite, type EffectsFor, type ExecutableAction } from '../../actors/actions.js';
import { ActionUnknownError } from '../../actors/errors.js';
import type { InquiryEffectParams } from '../../machines/inquiryMachine.js';
import { packFindings, packInputs } from '../scoring/index.js';
import { assessmentInsert, inquiryInsert, inquiryStatusUpdate, type NewAssessment, type NewInquiry } from './store.js';

/**
 * The one map from the inquiry machine's own actions to rows: the ledger
 * row of every assessment it issues (append-only; with what `tas score`
 * needs to reconstruct it and the findings as they stood), and the read
 * model's status. `rowOf` is typed by the machine's actions, so an action
 * the machine gains fails the type check here until it says what it writes.
 * Two writers read it: the runtime, as blind writes that go out with the
 * command's last statement (`inquiryEffects`), and the one call, as the
 * rows of its argument (`inquiryRowsOf`, written by tas_inquiry_open).
 */
export type InquiryRow = { table: 'assessments'; row: NewAssessment } | { table: 'inquiries'; status: string };

interface Scope {
  tenantId: string;
  mode: string;
}

const rowOf: { [K in keyof InquiryEffectParams]: (params: InquiryEffectParams[K], scope: Scope) => InquiryRow } = {
  recordAssessment: (params, scope) => ({ table: 'assessments', row: ledgerEntryOf(params, scope.tenantId, scope.mode) }),
  updateInquiryStatus: (params) => ({ table: 'inquiries', status: params.status }),
};

function rowOfAction(action: ExecutableAction, scope: Scope): InquiryRow {
  if (!Object.hasOwn(rowOf, action.type)) throw new ActionUnknownError(action.type, 'the inquiry machine writes no row for it');
  const map = rowOf[action.type as keyof InquiryEffectParams] as (params: unknown, scope: Scope) => InquiryRow;
  return map(action.params, scope);
}

/**
 * A new inquiry's machine actions as the rows they leave: the ledger in the
 * order the machine recorded it, and the status its read-model row is born
 * with (the last one set; `accepted` when none was).
 */
export function inquiryRowsOf(effects: readonly ExecutableAction[], scope: Scope): { status: string; ledger: NewAssessment[] } {
  let status = 'accepted';
  const ledger: NewAssessment[] = [];
  for (const effect of effects) {
    const row = rowOfAction(effect, scope);
    if (row.table === 'assessments') ledger.push(row.row);
    else status = row.status;
  }
  return { status, ledger };
}

/** The same rows as blind writes of a command (actors/actions.ts): sent with its last statement, not a round trip each. */
function blindWriteOf(row: InquiryRow, inquiryId: string): BlindWrite | null {
  if (row.table === 'assessments') return { table: 'assessments', sql: assessmentInsert(row.row) };
  // The row is born `accepted` in the transaction that creates the actor; saying so again costs a round trip.
  if (row.status === 'accepted') return null;
  // A later status in the same command replaces this one: the row ends as the two in order would leave it.
  return {
    table: 'inquiries',
    replaces: statusKey(inquiryId),
    sets: { status: row.status },
    sql: inquiryStatusUpdate(inquiryId, row.status),
  };
}

function deferred<K extends keyof InquiryEffectParams>(type: K) {
  return blindEffect<InquiryEffectParams[K]>((_tx, params, ctx) => {
    const write = blindWriteOf(rowOfAction({ type, params }, { tenantId: ctx.scope.tenantId!, mode: ctx.scope.mode! }), ctx.actorId);
    if (write) ctx.defer(write);
    return Promise.resolve();
  });
}

/** The inquiry machine's in-transaction effects, each the blind write of its row. */
export const inquiryEffects: EffectsFor<InquiryEffectParams> = {
  recordAssessment: deferred('recordAssessment'),
  updateInquiryStatus: deferred('updateInquiryStatus'),
};

/**
 * The ledger row of an assessment the machine records: with what `tas score`
 * needs to reconstruct it, and the findings as they stood, each in its
 * stored form (src/scoring/ledgerRecord.ts), which every read unpacks.
 */
export function ledgerEntryOf(params: InquiryEffectParams['recordAssessment'], tenantId: string, mode: string): NewAssessment {
  const a = params.assessment;
  return {
    id: a.assessment_id,
    tenantId,
    mode,
    inquiryId: a.inquiry_id,
    entityId: a.entity_id,
    score: a.score,
    low: a.low,
    high: a.high,
    preliminary: a.preliminary,
    asOf: a.as_of,
    methodologyVersion: a.methodology_version,
    label: a.label,
    evidence: a.evidence,
    inputs: packInputs(params.record?.inputs ?? null),
    findings: packFindings(params.record?.findings ?? null),
  };
}

const statusKey = (inquiryId: string) => `inquiry-status:${inquiryId}`;

/**
 * The new inquiry's row as a blind write beside its actor's (actors/runtime.ts
 * `writes`): sent with the command's last statement, and born with the status
 * the command leaves it in, since an update in that statement would not see it.
 */
export function inquiryRowWrite(inquiry: NewInquiry): BlindWrite {
  return {
    table: 'inquiries',
    replaces: statusKey(inquiry.id),
    sql: inquiryInsert(inquiry),
    absorb: (sets) => inquiryRowWrite({ ...inquiry, status: String(sets.status) }),
  };
}
