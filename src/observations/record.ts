import { newRowId } from '../platform/ids.js';
import { policyRefusalItem, purposePermitted, unregisteredTypes } from '../policies/index.js';
import type { Principal } from '../auth/index.js';
import { normalisePresented } from '../checks/normalise.js';
import { assessmentEntity, insertObservation } from './store.js';
import type { Tx } from '../platform/db/pool.js';
import { tenantIsInvestigative } from '../tenancy/index.js';
import { EntityNotFoundError, resolveEntity } from '../entities/index.js';
import { ValidationFailure, type ValidationItem } from '../platform/problems.js';
import type { Grants } from '../registry/index.js';
import type { CurrentPolicy } from '../policies/index.js';
import { stanceOf } from '../entities/index.js';
import type { ObservationIn, ObservationOut, OutcomeIn } from './schemas.js';

/**
 * Testimony and outcomes enter as evidence about an entity with their
 * provenance class; neither ever sets a score (the history check weighs them
 * through the methodology like any other evidence). Every item of a batch is
 * checked before anything is written, so a batch is all or nothing.
 */
export interface Admission {
  grants: Grants;
  policy: CurrentPolicy | null;
  investigative: boolean;
}

export async function loadAdmission(tx: Tx, principal: Principal, grants: Grants, policy: CurrentPolicy | null): Promise<Admission> {
  return { grants, policy, investigative: await tenantIsInvestigative(tx, principal.tenantId) };
}

/** Rule refusals for one observation; `at` is the item's place in the body (empty for a single one). */
export function observationRefusals(obs: ObservationIn, admission: Admission, at: (string | number)[]): ValidationItem[] {
  const refusals: ValidationItem[] = [];
  // The one admission's rules (src/policies/admission.ts), collected per item rather than thrown: a batch names every refusal.
  if (!purposePermitted(admission.grants, admission.policy, obs.purpose)) {
    const loc = ['body', ...at, 'purpose'];
    refusals.push(
      (admission.grants.purposes.has(obs.purpose) ? policyRefusalItem('I13', admission.policy, loc) : null) ?? {
        loc,
        msg: 'The declared purpose is not permitted for this tenant (rule I13).',
        type: 'I13',
      },
    );
  }
  refusals.push(...unregisteredTypes(admission.grants, obs.subject.presentations ?? [], [...at, 'subject']));
  if (obs.provenance_class === 'analyst_asserted' && !admission.investigative) {
    refusals.push({
      loc: ['body', ...at, 'provenance_class'],
      msg: 'Analyst assertions require an investigative tenant (rule C01).',
      type: 'C01',
    });
  }
  return refusals;
}

export async function recordObservation(
  tx: Tx,
  principal: Principal,
  obs: ObservationIn,
  at: (string | number)[],
): Promise<ObservationOut> {
  const entityId = await entityOf(tx, principal, obs, at);
  const id = newRowId();
  const dataClass = obs.data_class ?? 'C1';
  const { created_at } = await insertObservation(tx, {
    id,
    tenantId: principal.tenantId,
    mode: principal.mode,
    entityId,
    kind: 'observation',
    provenanceClass: obs.provenance_class,
    observedAt: obs.observed_at,
    body: {
      summary: obs.summary,
      stance: stanceOf(obs.stance, obs.summary),
      purpose: obs.purpose,
      data_class: dataClass,
      consent_ref: obs.consent_ref ?? null,
      case_id: obs.case_id ?? null,
      observed_range_start: obs.observed_range_start ?? null,
      observed_range_end: obs.observed_range_end ?? null,
    },
  });
  return {
    observation_id: id,
    kind: obs.provenance_class === 'analyst_asserted' ? 'assertion' : 'observation',
    provenance_class: obs.provenance_class,
    entity_id: entityId,
    assessment_id: null,
    case_id: obs.case_id ?? null,
    data_class: dataClass,
    observed_at: new Date(obs.observed_at).toISOString(),
    recorded_at: created_at,
  };
}

export async function recordOutcome(tx: Tx, principal: Principal, outcome: OutcomeIn, at: (string | number)[]): Promise<ObservationOut> {
  const assessment = await assessmentEntity(tx, outcome.assessment_id).catch(() => null);
  if (!assessment) {
    throw ValidationFailure.rule(
      'A01',
      ['body', ...at, 'assessment_id'],
      'The outcome must reference an assessment of this tenant and mode (rule A01).',
    );
  }
  const id = newRowId();
  const { created_at } = await insertObservation(tx, {
    id,
    tenantId: principal.tenantId,
    mode: principal.mode,
    entityId: assessment.entity_id,
    kind: 'outcome',
    provenanceClass: 'tenant_supplied',
    observedAt: outcome.observed_at,
    body: { kind: outcome.kind, decision_ref: outcome.decision_ref, assessment_id: outcome.assessment_id, detail: outcome.detail ?? null },
  });
  return {
    observation_id: id,
    kind: 'outcome',
    provenance_class: 'tenant_supplied',
    entity_id: assessment.entity_id,
    assessment_id: outcome.assessment_id,
    case_id: null,
    data_class: 'C1',
    observed_at: new Date(outcome.observed_at).toISOString(),
    recorded_at: created_at,
  };
}

async function entityOf(tx: Tx, principal: Principal, obs: ObservationIn, at: (string | number)[]): Promise<string | null> {
  const presented = normalisePresented(obs.subject.presentations ?? [], obs.subject.claim?.country);
  if (presented.length === 0 && !obs.subject.entity_id) return null;
  try {
    return (await resolveEntity(tx, principal, presented, { entityId: obs.subject.entity_id })).entityId;
  } catch (error) {
    if (error instanceof EntityNotFoundError)
      throw new ValidationFailure([
        { loc: ['body', ...at, 'subject', 'entity_id'], msg: 'No such entity for this tenant.', type: 'not_found' },
      ]);
    throw error;
  }
}
