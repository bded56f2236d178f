import { sql } from 'slonik';
import { newRowId } from '../platform/ids.js';
import type { EffectsFor } from '../../actors/actions.js';
import type { SessionEffectParams } from '../../machines/sessionMachine.js';
import { concludeInquiry } from '../inquiries/index.js';
import { observationsInsert, type NewObservation } from '../observations/index.js';
import { updateSessionState } from './store.js';

/**
 * The session machine's in-transaction effects. Its assessments use the
 * inquiry machine's `recordAssessment` (a session's assessments are ledger
 * entries of the session's own inquiry); these two are its own: the read
 * model's state, and the retention step of a standard session, whose
 * testimony becomes observations about the resolved entity when it closes.
 * Sessions write only their own tables: a closed session's inquiry is
 * concluded by inquiries, and the testimony is written by observations'
 * insert, both in this transaction.
 */
export const sessionEffects: EffectsFor<Omit<SessionEffectParams, 'recordAssessment'>> = {
  async updateSessionStatus(tx, params, ctx) {
    const inquiryId = await updateSessionState(tx, ctx.actorId, params.state, params.reason);
    if (params.state === 'closed' && inquiryId !== null) await concludeInquiry(tx, inquiryId);
  },
  async recordObservations(tx, params, ctx) {
    if (params.observations.length === 0) return;
    const rows = params.observations.map((o): NewObservation => ({
      id: newRowId(),
      tenantId: ctx.scope.tenantId!,
      mode: ctx.scope.mode!,
      entityId: params.entityId,
      kind: 'observation',
      provenanceClass: o.provenance_class,
      body: {
        summary: o.summary,
        data_class: o.data_class,
        session_id: params.sessionId,
        ...(o.consent_ref ? { consent_ref: o.consent_ref } : {}),
        ...(o.case_id ? { case_id: o.case_id } : {}),
      },
      observedAt: o.observed_at,
    }));
    await tx.query(sql.unsafe`${observationsInsert(rows)}`);
  },
};
