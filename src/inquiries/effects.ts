import { blindEffect, type BlindWrite, type EffectsFor } from '../../actors/actions.js';
import type { InquiryEffectParams } from '../../machines/inquiryMachine.js';
import { packFindings, packInputs } from '../scoring/index.js';
import { assessmentInsert, inquiryInsert, inquiryStatusUpdate, type NewAssessment, type NewInquiry } from './store.js';

/**
 * The inquiry machine's in-transaction effects: the ledger row of every
 * assessment it issues (append-only; with what `tas score` needs to
 * reconstruct it and the findings as they stood), and the read model's status.
 * Both are blind writes (actors/actions.ts): they go out with the command's
 * last statement instead of a round trip each.
 */
export const inquiryEffects: EffectsFor<InquiryEffectParams> = {
  recordAssessment: blindEffect<InquiryEffectParams['recordAssessment']>((_tx, params, ctx) => {
    ctx.defer({ table: 'assessments', sql: assessmentInsert(ledgerEntryOf(params, ctx.scope.tenantId!, ctx.scope.mode!)) });
    return Promise.resolve();
  }),
  updateInquiryStatus: blindEffect<InquiryEffectParams['updateInquiryStatus']>((_tx, params, ctx) => {
    // The row is born `accepted` in the transaction that creates the actor; saying so again costs a round trip.
    if (params.status === 'accepted') return Promise.resolve();
    // A later status in the same command replaces this one: the row ends as the two in order would leave it.
    ctx.defer({
      table: 'inquiries',
      replaces: statusKey(ctx.actorId),
      sets: { status: params.status },
      sql: inquiryStatusUpdate(ctx.actorId, params.status),
    });
    return Promise.resolve();
  }),
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
