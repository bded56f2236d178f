import { withTenant, type Db } from '../platform/db/pool.js';
import type { Handler } from '../edge/handler.js';
import { ValidationFailure } from '../platform/problems.js';
import { loadAdmission, observationRefusals, recordObservation, recordOutcome } from './record.js';
import type { PolicyCache } from '../policies/index.js';
import type { RegistryCache } from '../registry/index.js';
import type { RuleId } from '../platform/rules.js';
import type { ObservationIn, OutcomeIn } from './schemas.js';
import { requirePrincipal } from '../auth/index.js';

/**
 * POST /v1/observations(/batch) and /v1/outcomes(/batch): 201 with what was
 * recorded. A batch is one transaction: every item is checked first, and a
 * refusal of any item (named by its index) writes nothing.
 */
export interface ObservationDeps {
  db: Db;
  registry: RegistryCache;
  policies: PolicyCache;
}

function observationsHandler(deps: ObservationDeps, batch: boolean): Handler {
  return async (ctx) => {
    const principal = requirePrincipal(ctx);
    const items = (batch ? ctx.body : [ctx.body]) as ObservationIn[];
    const at = (i: number) => (batch ? [i] : []);
    const [grants, policy] = await Promise.all([deps.registry.grants(principal), deps.policies.current(principal)]);
    ctx.audit.target_kind = 'observation';
    ctx.audit.purpose = items[0]?.purpose ?? null;
    const recorded = await withTenant(deps.db, principal, async (tx) => {
      const admission = await loadAdmission(tx, principal, grants, policy);
      const refusals = items.flatMap((obs, i) => observationRefusals(obs, admission, at(i)));
      if (refusals.length > 0) throw new ValidationFailure(refusals, refusals[0]!.type as RuleId);
      const out = [];
      for (const [i, obs] of items.entries()) out.push(await recordObservation(tx, principal, obs, at(i)));
      ctx.audit.target_id = batch ? null : out[0]!.observation_id;
      await ctx.auditInTx(tx, 'created');
      return out;
    });
    return { status: 201, body: batch ? recorded : recorded[0] };
  };
}

function outcomesHandler(deps: ObservationDeps, batch: boolean): Handler {
  return async (ctx) => {
    const principal = requirePrincipal(ctx);
    const items = (batch ? ctx.body : [ctx.body]) as OutcomeIn[];
    ctx.audit.target_kind = 'outcome';
    const recorded = await withTenant(deps.db, principal, async (tx) => {
      const out = [];
      for (const [i, outcome] of items.entries()) out.push(await recordOutcome(tx, principal, outcome, batch ? [i] : []));
      ctx.audit.target_id = batch ? null : out[0]!.observation_id;
      await ctx.auditInTx(tx, 'created');
      return out;
    });
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
