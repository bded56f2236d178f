import { newRowId } from '../platform/ids.js';
import type { ActorRuntime } from '../../actors/runtime.js';
import type { BlindWrite } from '../../actors/actions.js';
import type { Principal } from '../auth/index.js';
import type { Absence, CheckDefinition, CheckEnvironment, Signal } from '../checks/types.js';
import { observationsInsert } from '../observations/index.js';
import type { MaterialBinding } from '../assessment/index.js';
import type { NewInquiry } from './store.js';
import { inquiryRowWrite } from './effects.js';
import { withTenant, type Db, type Tx } from '../platform/db/pool.js';
import { loadEnvironment, newEntityGraphExpression } from '../entities/index.js';
import { EntityNotFoundError, resolveEntity, type Resolution, type ResolveOptions } from '../entities/index.js';

/** Where an inquiry's audit row goes: the HTTP call's, or a monitor rescan's own. */
export type { AuditSink } from '../auth/index.js';
import type { AuditSink } from '../auth/index.js';
import { ServiceProblem } from '../platform/problems.js';
import type { InquiryRequest } from './schemas.js';
import type { InquiryEvent } from '../../machines/inquiryMachine.js';
import { assessNow, normaliseSubject, runInline, type InquiryFacts } from '../assessment/index.js';
import type { Assessment } from '../../machines/types.js';
import { planChecks } from '../assessment/index.js';
import type { CurrentPolicy } from '../policies/index.js';
import {
  chargeChecks,
  contextObservations,
  contextTestimony,
  evaluatedEvent,
  factsOf,
  ledgerRowOf,
  type Evaluated,
  type Opening,
  type OpenedInquiry,
  type PreparedInquiry,
} from './opening.js';

export { CHECK_COST_UNIT, type Opening, type OpenedInquiry, type PreparedInquiry } from './opening.js';

/**
 * Opening an inquiry: in ONE transaction, resolve the subject to its entity,
 * load the tenant's history and graph of it, run the inline checks, score,
 * and create the inquiry actor with its first event. When the stopping rule
 * is met at once (or nothing needs a worker), that transaction is the whole
 * inquiry: actor, ledger row, events and audit row commit together.
 * Otherwise the actor waits in `reasoning` for its worker checks.
 */
export interface OpenDeps {
  runtime: ActorRuntime;
  checks: readonly CheckDefinition[];
  now: () => Date;
}

/** Pure preparation: normalised presentations and the check plan, before any I/O. */
export function prepareInquiry(
  checks: readonly CheckDefinition[],
  body: InquiryRequest,
  bindings: MaterialBinding[] = [],
  switchedOff: readonly CheckDefinition[] = [],
  workersUnreachable?: string,
): PreparedInquiry {
  const inquiryId = newRowId();
  const presentations = normaliseSubject(body);
  const plan = planChecks({
    inquiryId,
    checks,
    presentations,
    tierCeiling: body.tier_ceiling,
    stake: body.stake,
    switchedOff,
    ...(workersUnreachable ? { workersUnreachable } : {}),
  });
  return { inquiryId, presentations, bindings, plan };
}

function auditRowWrite(ctx: AuditSink, outcome: Parameters<AuditSink['auditRow']>[0]): BlindWrite[] {
  const row = ctx.auditRow(outcome);
  return row === null ? [] : [{ table: 'audit_log', sql: row }];
}

export async function openInquiry(
  deps: OpenDeps,
  opening: Opening,
  claimIdempotency: (tx: Tx, inquiryId: string) => Promise<void>,
  gathered?: ProbedEvidence,
): Promise<OpenedInquiry> {
  const { ctx, principal, body, prepared, policy, deadlineAt } = opening;
  const { inquiryId, presentations, plan } = prepared;
  chargeChecks(ctx, inquiryId, plan);
  let facts: InquiryFacts | undefined;
  let evaluated: Evaluated | undefined;
  // Set (never added to) inside the event, which runs again if the transaction is retried.
  let row: NewInquiry | undefined;
  let rowsBeside: BlindWrite[] = [];

  const created = await deps.runtime.create<InquiryEvent>(principal, {
    kind: 'inquiry',
    id: inquiryId,
    input: { inquiry_id: inquiryId, preliminaryAllowed: body.intent === 'pre_transaction' },
    event: async (tx) => {
      await claimIdempotency(tx, inquiryId);
      // A new entity's rows wait for the last statement too: its identifiers stay locked until commit.
      // Its graph question is asked with the owners' look-up, in one round trip.
      const resolution = await resolveSubject(tx, principal, body, presentations, {
        deferWrites: true,
        whenNew: newEntityGraphExpression(presentations),
      });
      const entityId = resolution?.entityId ?? null;
      const loaded: CheckEnvironment = resolution
        ? await loadEnvironment(tx, resolution.entityId, presentations, { created: resolution.created, preloaded: resolution.alongside })
        : {};
      const context = contextTestimony(body);
      const env: CheckEnvironment = { ...loaded, context };
      const testimony = contextObservations(principal, inquiryId, entityId, body, context);
      rowsBeside = [
        ...(resolution?.writes ?? []),
        ...(testimony.length > 0 ? [{ table: 'observations', sql: observationsInsert(testimony) }] : []),
      ];
      facts = {
        ...factsOf(inquiryId, body, presentations, policy, plan, entityId, env.graph, deadlineAt),
        materialBindings: prepared.bindings,
      };
      // Its row goes out with the actor's in the command's last statement (`writes` below); nothing reads it before.
      row = newInquiryRow(principal, body, inquiryId, entityId, facts);
      const now = deps.now();
      // Evidence a probe already gathered (every check, worker tier included) is taken as it is: nothing runs twice.
      const evidence = gathered?.evidence ?? (await runInline(plan, facts, env, now));
      const worker = gathered ? [] : plan.worker;
      const asOf = gathered ? new Date(gathered.asOf) : now;
      evaluated = assessNow(facts, { assessmentId: newRowId(), asOf, ...evidence, pendingCount: worker.length, preliminary: false });
      return evaluatedEvent(principal, body, prepared, evidence, worker, evaluated, deadlineAt);
    },
    // The new entity's rows, the testimony, the inquiry's row and the call's audit row go out with the
    // actor's, in the command's last statement: foreign keys between them are checked at its end.
    writes: () => [...rowsBeside, ...(row ? [inquiryRowWrite(row)] : []), ...auditRowWrite(ctx, 'done')],
  });
  // Concluded at once: the answer is what was just written, no need to read it back.
  const issued = created.state === 'concluded' && evaluated ? ledgerRowOf(evaluated) : null;
  return { inquiryId, state: created.state, facts: facts!, issued };
}

/** The inquiry's read-model row as it is born: `accepted`, until its machine's first status says otherwise. */
export function newInquiryRow(
  principal: Principal,
  body: InquiryRequest,
  inquiryId: string,
  entityId: string | null,
  facts: InquiryFacts,
): NewInquiry {
  return {
    id: inquiryId,
    tenantId: principal.tenantId,
    mode: principal.mode,
    entityId,
    status: 'accepted',
    intent: body.intent,
    purpose: body.purpose,
    request: facts,
    principal: principal.label,
  };
}

/**
 * What the inquiry would answer now, writing nothing: the subject is
 * resolved and its history read in a transaction that is then rolled back
 * (a new entity is not kept), every planned check runs here, inline and
 * worker tier alike (each under its own timeout), and the one scoring
 * function scores them. A monitor's rescan asks this first and opens a real
 * inquiry only when the answer differs from its last one (issue 18), so an
 * unchanged subject costs the checks and no ledger entry. A changed one opens
 * its inquiry with the probe's evidence (`openInquiry`'s `gathered`): the
 * checks never run twice, and the ledger holds exactly what was compared.
 */
export interface ProbedEvidence {
  evidence: { signals: Signal[]; absences: Absence[] };
  asOf: string;
}

export interface Probe extends ProbedEvidence {
  assessment: Assessment;
}

export async function probeInquiry(
  deps: { db: Db; now: () => Date },
  principal: Principal,
  body: InquiryRequest,
  prepared: PreparedInquiry,
  policy: CurrentPolicy | null,
): Promise<Probe> {
  const { inquiryId, presentations, plan } = prepared;
  const read = await readWithoutWriting(deps.db, principal, async (tx) => {
    const resolution = await resolveSubject(tx, principal, body, presentations);
    const loaded: CheckEnvironment = resolution
      ? await loadEnvironment(tx, resolution.entityId, presentations, { created: resolution.created })
      : {};
    return {
      entityId: resolution && !resolution.created ? resolution.entityId : null,
      env: { ...loaded, context: contextTestimony(body) },
    };
  });
  const facts = factsOf(inquiryId, body, presentations, policy, plan, read.entityId, read.env.graph, Date.now());
  const now = deps.now();
  const everyCheck = { ...plan, inline: [...plan.inline, ...plan.worker], worker: [] };
  const { signals, absences } = await runInline(everyCheck, facts, read.env, now);
  const { assessment } = assessNow(facts, { assessmentId: newRowId(), asOf: now, signals, absences, pendingCount: 0, preliminary: false });
  return { assessment, evidence: { signals, absences }, asOf: now.toISOString() };
}

class RolledBack<T> extends Error {
  constructor(readonly value: T) {
    super('rolled back on purpose');
  }
}

/** Runs `fn` in the tenant's transaction and rolls it back, keeping only what `fn` returned. */
async function readWithoutWriting<T>(db: Db, principal: Principal, fn: (tx: Tx) => Promise<T>): Promise<T> {
  try {
    await withTenant(db, principal, async (tx) => {
      throw new RolledBack(await fn(tx));
    });
  } catch (error) {
    if (error instanceof RolledBack) return error.value as T;
    throw error;
  }
  throw new Error('unreachable: the probe transaction always rolls back');
}

async function resolveSubject(
  tx: Tx,
  principal: Principal,
  body: InquiryRequest,
  presentations: InquiryFacts['presentations'],
  options: Omit<ResolveOptions, 'entityId'> = {},
): Promise<Resolution | null> {
  if (presentations.length === 0 && !body.subject.entity_id) return null;
  try {
    return await resolveEntity(tx, principal, presentations, { ...options, entityId: body.subject.entity_id });
  } catch (error) {
    // An entity_id the tenant cannot see is indistinguishable from an unknown one.
    if (error instanceof EntityNotFoundError) throw new ServiceProblem('not-found', 'No such entity.');
    throw error;
  }
}
