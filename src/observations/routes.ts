import type { Handler } from '../edge/handler.js';
import type { ObservationIn, OutcomeIn } from './schemas.js';
import { requirePrincipal } from '../auth/index.js';
import { recordObservations, recordOutcomes, type ObservationDeps } from './index.js';

/**
 * POST /v1/observations(/batch) and /v1/outcomes(/batch): 201 with what was
 * recorded, around the commands in commands.ts.
 */
export type { ObservationDeps } from './index.js';

function observationsHandler(deps: ObservationDeps, batch: boolean): Handler {
  return async (ctx) => {
    const items = (batch ? ctx.body : [ctx.body]) as ObservationIn[];
    const recorded = await recordObservations(deps, ctx, requirePrincipal(ctx), items, batch);
    return { status: 201, body: batch ? recorded : recorded[0] };
  };
}

function outcomesHandler(deps: ObservationDeps, batch: boolean): Handler {
  return async (ctx) => {
    const items = (batch ? ctx.body : [ctx.body]) as OutcomeIn[];
    const recorded = await recordOutcomes(deps, ctx, requirePrincipal(ctx), items, batch);
    return { status: 201, body: batch ? recorded : recorded[0] };
  };
}

export function observationHandlers(deps: ObservationDeps): [string, Handler][] {
  return [
    ['createObservation', observationsHandler(deps, false)],
    ['createObservationBatch', observationsHandler(deps, true)],
    ['createOutcome', outcomesHandler(deps, false)],
    ['createOutcomeBatch', outcomesHandler(deps, true)],
  ];
}
