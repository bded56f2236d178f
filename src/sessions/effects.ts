import { newRowId } from '../platform/ids.js';
import type { EffectsFor } from '../../actors/actions.js';
import type { SessionEffectParams } from '../../machines/sessionMachine.js';
import { insertObservations, updateSessionState } from './store.js';

/**
 * The session machine's in-transaction effects. Its assessments use the
 * inquiry machine's `recordAssessment` (a session's assessments are ledger
 * entries of the session's own inquiry); these two are its own: the read
 * model's state, and the retention step of a standard session, whose
 * testimony becomes observations about the resolved entity when it closes.
 */
export const sessionEffects: EffectsFor<Omit<SessionEffectParams, 'recordAssessment'>> = {
  async updateSessionStatus(tx, params, ctx) {
    await updateSessionState(tx, ctx.actorId, params.state, params.reason);
  },
  async recordObservations(tx, params, ctx) {
    await insertObservations(
      tx,
      params.observations.map((o) => ({
        id: newRowId(),
        tenantId: ctx.scope.tenantId!,
        mode: ctx.scope.mode!,
        entityId: params.entityId,
        provenanceClass: o.provenance_class,
        body: {
          summary: o.summary,
          data_class: o.data_class,
          session_id: params.sessionId,
          ...(o.consent_ref ? { consent_ref: o.consent_ref } : {}),
          ...(o.case_id ? { case_id: o.case_id } : {}),
        },
        observedAt: o.observed_at,
      })),
    );
  },
};
