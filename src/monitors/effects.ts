import type { Effect } from '../../actors/actions.js';
import { setMonitorAssessment, updateMonitorState } from '../db/monitors.js';
import type { MonitorStatus } from '../../machines/monitorMachine.js';

/**
 * The monitor machine's in-transaction effects: the read model's state (with
 * `closed_at`) and the id of the last rescan's ledger row, written in the same
 * transaction as the snapshot so GET never disagrees with the actor.
 */
export const monitorEffects: Record<string, Effect> = {
  async updateMonitorState(tx, params: { state: MonitorStatus }, ctx) {
    await updateMonitorState(tx, ctx.actorId, params.state);
  },
  async recordMonitorAssessment(tx, params: { assessmentId: string }, ctx) {
    await setMonitorAssessment(tx, ctx.actorId, params.assessmentId);
  },
};
