import { sql, type FragmentSqlToken } from 'slonik';
import { z } from 'zod';
import { withTenant, type Db, type Tx } from '../platform/db/pool.js';
import { ValidationFailure } from '../platform/problems.js';
import { loadAdmission, observationRefusals, recordObservation, recordOutcome } from './record.js';
import type { PolicyCache } from '../policies/index.js';
import type { RegistryCache } from '../registry/index.js';
import type { RuleId } from '../platform/rules.js';
import type { ObservationIn, ObservationOut, OutcomeIn } from './schemas.js';
import type { AuditSink, Principal } from '../auth/index.js';
import { observationsInsert as insertStatement, type NewObservation } from './store.js';

/**
 * Observations and outcomes as commands: each records one item or a batch,
 * and returns what was recorded. A batch is one transaction: every item is
 * checked first, and a refusal of any item (named by its index) writes
 * nothing. The call's audit row commits with the items.
 */
export interface ObservationDeps {
  db: Db;
  registry: RegistryCache;
  policies: PolicyCache;
}

/** One item, or a batch (`batch`: refusals name each item's index). */
export async function recordObservations(
  deps: ObservationDeps,
  call: AuditSink,
  principal: Principal,
  items: readonly ObservationIn[],
  batch: boolean,
): Promise<ObservationOut[]> {
  const at = (i: number) => (batch ? [i] : []);
  const [grants, policy] = await Promise.all([deps.registry.grants(principal), deps.policies.current(principal)]);
  call.audit.target_kind = 'observation';
  call.audit.purpose = items[0]?.purpose ?? null;
  return withTenant(deps.db, principal, async (tx) => {
    const admission = await loadAdmission(tx, principal, grants, policy);
    const refusals = items.flatMap((obs, i) => observationRefusals(obs, admission, at(i)));
    if (refusals.length > 0) throw new ValidationFailure(refusals, refusals[0]!.type as RuleId);
    const out = [];
    for (const [i, obs] of items.entries()) out.push(await recordObservation(tx, principal, obs, at(i)));
    call.audit.target_id = batch ? null : out[0]!.observation_id;
    await call.auditInTx(tx, 'created');
    return out;
  });
}

/** One outcome, or a batch (`batch`: refusals name each item's index). */
export async function recordOutcomes(
  deps: Pick<ObservationDeps, 'db'>,
  call: AuditSink,
  principal: Principal,
  items: readonly OutcomeIn[],
  batch: boolean,
): Promise<ObservationOut[]> {
  call.audit.target_kind = 'outcome';
  return withTenant(deps.db, principal, async (tx) => {
    const out = [];
    for (const [i, outcome] of items.entries()) out.push(await recordOutcome(tx, principal, outcome, batch ? [i] : []));
    call.audit.target_id = batch ? null : out[0]!.observation_id;
    await call.auditInTx(tx, 'created');
    return out;
  });
}

export type { NewObservation };

/**
 * Testimony as one insert, for the inquiry's combined last statement: the
 * rows are observations' own, written inside another command's transaction
 * so that they commit with the inquiry that carried them.
 */
export function observationsInsert(rows: readonly NewObservation[]): FragmentSqlToken {
  return insertStatement(rows);
}

/** A case's export carries the entities' testimony and outcomes as recorded, oldest first. */
export async function observationsOfEntities(tx: Tx, entityIds: readonly string[]): Promise<readonly Record<string, unknown>[]> {
  if (entityIds.length === 0) return [];
  return tx.any(sql.type(z.record(z.string(), z.unknown()))`
    SELECT id AS observation_id, entity_id, kind, provenance_class, body, observed_at, created_at
    FROM observations WHERE entity_id = ANY(${sql.array([...entityIds], 'uuid')}) ORDER BY observed_at, id`);
}
