import type { EffectsFor } from '../../actors/actions.js';
import { appendEventsAndOutbox, lockActor } from '../../actors/store.js';
import { recordMonitorHeartbeat, setMonitorAssessment, updateMonitorState } from './store.js';
import type { MonitorEffectParams } from '../../machines/monitorMachine.js';

/**
 * The monitor machine's in-transaction effects: the read model's state (with
 * `closed_at`) and the id of the last rescan's ledger row, written in the same
 * transaction as the snapshot so GET never disagrees with the actor.
 */
export const monitorEffects: EffectsFor<MonitorEffectParams> = {
  async updateMonitorState(tx, params, ctx) {
    await updateMonitorState(tx, ctx.actorId, params.state);
  },
  async recordMonitorAssessment(tx, params, ctx) {
    await setMonitorAssessment(tx, ctx.actorId, params.assessmentId, params.checkedAt);
  },
  async recordMonitorHeartbeat(tx, params, ctx) {
    await recordMonitorHeartbeat(tx, ctx.actorId, params.checkedAt);
  },
  /**
   * The event of a monitor opened in a case, also on the case's stream. The
   * case's row lock gives it the stream's next sequence; monitors lock their
   * own row first and case commands never lock a monitor's, so the order
   * cannot deadlock. Its publish row is written here, so the relay's sweep
   * (not the command's own dispatch) sends it: on the case stream within a
   * couple of seconds.
   */
  async copyToCaseStream(tx, params, ctx) {
    const found = await lockActor(tx, params.caseId);
    if (!found || found.kind !== 'case' || ctx.scope.tenantId === null || ctx.scope.mode === null) return;
    await appendEventsAndOutbox(tx, {
      streamId: params.caseId,
      tenantId: ctx.scope.tenantId,
      mode: ctx.scope.mode,
      events: [{ type: params.type, payload: params.payload }],
      outbox: [],
    });
  },
};
