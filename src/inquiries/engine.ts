import { newRowId } from '../platform/ids.js';
import type { ActorRuntime } from '../../actors/runtime.js';
import type { BlindWrite } from '../../actors/actions.js';
import type { Principal } from '../auth/index.js';
import type { Absence, CheckDefinition, CheckEnvironment, Signal } from '../checks/types.js';
import { observationsInsert } from '../observations/index.js';
import type { MaterialBinding } from '../assessment/index.js';
import { inquiryRowWrite } from './effects.js';
import { withTenant, type Db, type Tx } from '../platform/db/pool.js';
import { loadEnvironment, newEntityGraphExpression } from '../entities/index.js';
import { EntityNotFoundError, resolveEntity, type Resolution, type ResolveOptions } from '../entities/index.js';

/** Where an inquiry's audit row goes: the HTTP call's, or a monitor rescan's own. */
export type { AuditSink } from '../auth/index.js';
import type { AuditSink } from '../auth/index.js';
import { ServiceProblem } from '../platform/problems.js';
import type { InquiryAsk } from './ask.js';
import type { InquiryInput } from '../../machines/inquiryMachine.js';
import { normaliseSubject, runInline, type CheckPlan, type InquiryFacts } from '../assessment/index.js';
import type { Assessment } from '../../machines/types.js';
import { planChecks } from '../assessment/index.js';
import type { CurrentPolicy } from '../policies/index.js';
import { chargeChecks, contextTestimony, openingFacts, type Opening, type OpenedInquiry, type PreparedInquiry } from './opening.js';
import { issuedBy, openPlan, type Gathered, type OpenPlan } from './openPlan.js';

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
  ask: InquiryAsk,
  bindings: MaterialBinding[] = [],
  switchedOff: readonly CheckDefinition[] = [],
  workersUnreachable?: string,
): PreparedInquiry {
  const inquiryId = newRowId();
  const presentations = normaliseSubject(ask);
  const plan = planChecks({
    inquiryId,
    checks,
    presentations,
    tierCeiling: ask.tierCeiling,
    stake: ask.stake,
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
  const { ctx, principal, ask, prepared } = opening;
  const { inquiryId, presentations, plan } = prepared;
  chargeChecks(ctx, inquiryId, plan);
  // Set (never added to) inside the event, which runs again if the transaction is retried.
  let opened: OpenPlan | undefined;
  let rowsBeside: BlindWrite[] = [];

  const created = await deps.runtime.create(principal, {
    kind: 'inquiry',
    id: inquiryId,
    input: machineInputOf(opening),
    event: async (tx) => {
      await claimIdempotency(tx, inquiryId);
      // A new entity's rows wait for the last statement too: its identifiers stay locked until commit.
      // Its graph question is asked with the owners' look-up, in one round trip.
      const resolution = await resolveSubject(tx, principal, ask, presentations, {
        deferWrites: true,
        whenNew: newEntityGraphExpression(presentations),
      });
      const entityId = resolution?.entityId ?? null;
      const loaded: CheckEnvironment = resolution
        ? await loadEnvironment(tx, resolution.entityId, presentations, { created: resolution.created, preloaded: resolution.alongside })
        : {};
      const env: CheckEnvironment = { ...loaded, context: contextTestimony(ask) };
      const facts = openingFacts(opening, entityId, env.graph);
      opened = openPlan(opening, facts, await evidenceFor(deps, facts, env, plan, gathered), { newId: newRowId, wallNow: Date.now() });
      const testimony = opened.observations;
      rowsBeside = [
        ...(resolution?.writes ?? []),
        ...(testimony.length > 0 ? [{ table: 'observations', sql: observationsInsert(testimony) }] : []),
      ];
      return opened.create.event;
    },
    // The new entity's rows, the testimony, the inquiry's row and the call's audit row go out with the
    // actor's, in the command's last statement: foreign keys between them are checked at its end.
    writes: () => [...rowsBeside, ...(opened ? [inquiryRowWrite(opened.inquiry)] : []), ...auditRowWrite(ctx, 'done')],
  });
  // Concluded at once: the answer is what was just written, no need to read it back.
  return { inquiryId, state: created.state, facts: opened!.facts, issued: issuedBy(opened!, created.state) };
}

/** The machine's input, whichever way it opens. */
export function machineInputOf(opening: Pick<Opening, 'ask' | 'prepared'>): InquiryInput {
  return { inquiry_id: opening.prepared.inquiryId, preliminaryAllowed: opening.ask.intent === 'pre_transaction' };
}

/** The inline checks run now; evidence a probe already gathered (every check, worker tier included) is taken as it is. */
async function evidenceFor(
  deps: Pick<OpenDeps, 'now'>,
  facts: InquiryFacts,
  env: CheckEnvironment,
  plan: CheckPlan,
  gathered: ProbedEvidence | undefined,
): Promise<Gathered> {
  if (gathered) return { evidence: gathered.evidence, worker: [], asOf: new Date(gathered.asOf) };
  const now = deps.now();
  return { evidence: await runInline(plan, facts, env, now), worker: plan.worker, asOf: now };
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
  ask: InquiryAsk,
  prepared: PreparedInquiry,
  policy: CurrentPolicy | null,
): Promise<Probe> {
  const { presentations, plan } = prepared;
  const read = await readWithoutWriting(deps.db, principal, async (tx) => {
    const resolution = await resolveSubject(tx, principal, ask, presentations);
    const loaded: CheckEnvironment = resolution
      ? await loadEnvironment(tx, resolution.entityId, presentations, { created: resolution.created })
      : {};
    return {
      entityId: resolution && !resolution.created ? resolution.entityId : null,
      env: { ...loaded, context: contextTestimony(ask) },
    };
  });
  const opening = { principal, ask, prepared, policy, deadlineAt: Date.now() };
  const facts = openingFacts(opening, read.entityId, read.env.graph);
  const now = deps.now();
  const everyCheck = { ...plan, inline: [...plan.inline, ...plan.worker], worker: [] };
  const evidence = await runInline(everyCheck, facts, read.env, now);
  const { evaluated } = openPlan(opening, facts, { evidence, worker: [], asOf: now }, { newId: newRowId, wallNow: Date.now() });
  return { assessment: evaluated.assessment, evidence, asOf: now.toISOString() };
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
  ask: InquiryAsk,
  presentations: InquiryFacts['presentations'],
  options: Omit<ResolveOptions, 'entityId'> = {},
): Promise<Resolution | null> {
  if (presentations.length === 0 && !ask.subject.entityId) return null;
  try {
    return await resolveEntity(tx, principal, presentations, { ...options, entityId: ask.subject.entityId });
  } catch (error) {
    // An entity_id the tenant cannot see is indistinguishable from an unknown one.
    if (error instanceof EntityNotFoundError) throw new ServiceProblem('not-found', 'No such entity.');
    throw error;
  }
}
