import { newRowId } from '../platform/ids.js';
import type { ActorRuntime } from '../../actors/runtime.js';
import type { BlindWrite } from '../../actors/actions.js';
import type { Principal } from '../auth/index.js';
import type { Absence, CheckDefinition, CheckEnvironment, InquiryTestimony, Signal } from '../checks/types.js';
import { observationsInsert, type NewObservation } from '../observations/index.js';
import { stanceOf } from '../entities/index.js';
import type { MaterialBinding } from '../assessment/index.js';
import type { AssessmentRow, NewInquiry } from './store.js';
import { inquiryRowWrite } from './effects.js';
import { withTenant, type Db, type Tx } from '../platform/db/pool.js';
import { loadEnvironment, newEntityGraphExpression } from '../entities/index.js';
import { EntityNotFoundError, resolveEntity, type Resolution, type ResolveOptions } from '../entities/index.js';

/** Where an inquiry's audit row goes: the HTTP call's, or a monitor rescan's own. */
export type { AuditSink } from '../auth/index.js';
import type { AuditSink } from '../auth/index.js';
import { ServiceProblem } from '../platform/problems.js';
import type { InquiryRequest } from './schemas.js';
import type { InquiryEvent, PendingCheck } from '../../machines/inquiryMachine.js';
import { assessNow, normaliseSubject, runInline, type InquiryFacts } from '../assessment/index.js';
import type { Assessment } from '../../machines/types.js';
import { planChecks, type CheckPlan } from '../assessment/index.js';
import type { CurrentPolicy } from '../policies/index.js';

/**
 * Opening an inquiry: in ONE transaction, resolve the subject to its entity,
 * load the tenant's history and graph of it, run the inline checks, score,
 * and create the inquiry actor with its first event. When the stopping rule
 * is met at once (or nothing needs a worker), that transaction is the whole
 * inquiry: actor, ledger row, events and audit row commit together.
 * Otherwise the actor waits in `reasoning` for its worker checks.
 */
export const CHECK_QUEUE = 'checks';
/** The audit trail's currency for check costs: the operator's own units, not money. */
export const CHECK_COST_UNIT = 'check-units';
export const CHECK_JOB = 'check.run';
// After the caller's deadline, reasoning may go on this long beyond the slowest planned check
// before the inquiry concludes with what it has (the ceiling on a preliminary answer's revisions).
const REASONING_GRACE_MS = 5000;

export interface OpenedInquiry {
  inquiryId: string;
  state: string;
  facts: InquiryFacts;
  /** The assessment the opening issued, as written to the ledger (null while reasoning). */
  issued: AssessmentRow | null;
}

export interface OpenDeps {
  runtime: ActorRuntime;
  checks: readonly CheckDefinition[];
  now: () => Date;
}

export interface PreparedInquiry {
  inquiryId: string;
  presentations: InquiryFacts['presentations'];
  plan: CheckPlan;
  /** Values taken from the material the inquiry named, with where they sit in it. */
  bindings: MaterialBinding[];
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

/** The inquiry's attached testimony, each item with the stance it was given or that its words imply. */
function contextTestimony(body: InquiryRequest): InquiryTestimony[] {
  return (body.context ?? []).map((item) => ({
    provenance_class: item.provenance_class,
    summary: item.summary,
    observed_at: item.observed_at,
    stance: stanceOf(item.stance, item.summary),
  }));
}

/**
 * Attached testimony is kept as observations of this inquiry, about its
 * entity, so the entity's later assessments see it as history. Written after
 * the history was loaded (in this inquiry it counts once, as context), as one
 * insert in the command's last statement.
 */
function contextWrites(
  principal: Principal,
  inquiryId: string,
  entityId: string | null,
  body: InquiryRequest,
  testimony: InquiryTestimony[],
): BlindWrite[] {
  if (testimony.length === 0) return [];
  const rows = testimony.map((item, i): NewObservation => {
    const given = body.context![i]!;
    return {
      id: newRowId(),
      tenantId: principal.tenantId,
      mode: principal.mode,
      entityId,
      kind: 'observation',
      provenanceClass: item.provenance_class,
      observedAt: item.observed_at,
      body: {
        summary: item.summary,
        stance: item.stance,
        purpose: given.purpose,
        data_class: given.data_class ?? 'C1',
        consent_ref: given.consent_ref ?? null,
        case_id: given.case_id ?? null,
        inquiry_id: inquiryId,
      },
    };
  });
  return [{ table: 'observations', sql: observationsInsert(rows) }];
}

function auditRowWrite(ctx: AuditSink, outcome: Parameters<AuditSink['auditRow']>[0]): BlindWrite[] {
  const row = ctx.auditRow(outcome);
  return row === null ? [] : [{ table: 'audit_log', sql: row }];
}

export async function openInquiry(
  deps: OpenDeps,
  ctx: AuditSink,
  principal: Principal,
  body: InquiryRequest,
  prepared: PreparedInquiry,
  policy: CurrentPolicy | null,
  deadlineAt: number,
  claimIdempotency: (tx: Tx, inquiryId: string) => Promise<void>,
  gathered?: ProbedEvidence,
): Promise<OpenedInquiry> {
  const { inquiryId, presentations, plan } = prepared;
  ctx.audit.target_kind = 'inquiry';
  ctx.audit.target_id = inquiryId;
  // What the call spends: the cost of every check it runs, in the operator's check cost
  // units (a provider's `cost`); free offline checks cost 0, and 0 is still a cost on the record.
  ctx.audit.cost_amount = [...plan.inline, ...plan.worker].reduce((sum, p) => sum + p.check.cost, 0);
  ctx.audit.cost_currency = CHECK_COST_UNIT;
  const deadlineMs = Math.max(1, deadlineAt - Date.now());
  const slowest = Math.max(0, ...plan.worker.map((p) => p.check.timeoutMs));
  let facts: InquiryFacts | undefined;
  let evaluated: ReturnType<typeof assessNow> | undefined;
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
      rowsBeside = [...(resolution?.writes ?? []), ...contextWrites(principal, inquiryId, entityId, body, context)];
      facts = {
        ...factsOf(inquiryId, body, presentations, policy, plan, entityId, env.graph, deadlineAt),
        materialBindings: prepared.bindings,
      };
      // Its row goes out with the actor's in the command's last statement (`writes` below); nothing reads it before.
      row = {
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
      const now = deps.now();
      // Evidence a probe already gathered (every check, worker tier included) is taken as it is: nothing runs twice.
      const { signals, absences } = gathered?.evidence ?? (await runInline(plan, facts, env, now));
      const worker = gathered ? [] : plan.worker;
      const asOf = gathered ? new Date(gathered.asOf) : now;
      const out = assessNow(facts, { assessmentId: newRowId(), asOf, signals, absences, pendingCount: worker.length, preliminary: false });
      evaluated = out;
      return {
        type: 'inquiry.evaluated',
        signals,
        absences,
        pending: worker.map((p) => pendingJob(principal, inquiryId, p, presentations, body)),
        assessment: out.assessment,
        record: out.record,
        narrowEnough: out.narrowEnough,
        deadlineMs,
        maxReasoningMs: deadlineMs + slowest + REASONING_GRACE_MS,
      };
    },
    // The new entity's rows, the testimony, the inquiry's row and the call's audit row go out with the
    // actor's, in the command's last statement: foreign keys between them are checked at its end.
    writes: () => [...rowsBeside, ...(row ? [inquiryRowWrite(row)] : []), ...auditRowWrite(ctx, 'done')],
  });
  // Concluded at once: the answer is what was just written, no need to read it back.
  const issued = created.state === 'concluded' && evaluated ? ledgerRowOf(evaluated) : null;
  return { inquiryId, state: created.state, facts: facts!, issued };
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

function ledgerRowOf(out: ReturnType<typeof assessNow>): AssessmentRow {
  const a = out.assessment;
  return {
    id: a.assessment_id,
    inquiry_id: a.inquiry_id,
    entity_id: a.entity_id,
    score: a.score,
    low: a.low,
    high: a.high,
    preliminary: a.preliminary,
    as_of: a.as_of,
    methodology_version: a.methodology_version,
    label: a.label,
    evidence: a.evidence,
    findings: out.record.findings,
  };
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

function factsOf(
  inquiryId: string,
  body: InquiryRequest,
  presentations: InquiryFacts['presentations'],
  policy: CurrentPolicy | null,
  plan: CheckPlan,
  entityId: string | null,
  graph: InquiryFacts['graph'],
  deadlineAt: number,
): InquiryFacts {
  return {
    inquiryId,
    entityId,
    intent: body.intent,
    purpose: body.purpose,
    stake: body.stake,
    tierCeiling: body.tier_ceiling,
    subject: (body.subject.presentations ?? []).map((p) => ({ type: p.type, value: p.value })),
    presentations,
    claim: body.subject.claim,
    policy,
    render: body.render,
    renderLang: body.render_lang,
    gaps: plan.gaps,
    checksRun: plan.inline.length + plan.worker.length,
    graph,
    deadlineAt,
    pendingIndex: Object.fromEntries(plan.worker.map((p) => [p.key, p.presentation])),
  };
}

function pendingJob(
  principal: Principal,
  inquiryId: string,
  p: CheckPlan['worker'][number],
  subject: InquiryFacts['presentations'],
  body: InquiryRequest,
): PendingCheck {
  const claim = body.subject.claim
    ? Object.fromEntries(Object.entries(body.subject.claim).filter(([, v]) => typeof v === 'string'))
    : undefined;
  return {
    key: p.key,
    job: {
      queue: CHECK_QUEUE,
      name: CHECK_JOB,
      jobId: p.key,
      data: {
        tenantId: principal.tenantId,
        mode: principal.mode,
        actorId: inquiryId,
        key: p.key,
        checkId: p.check.id,
        presentation: p.presentation,
        subject,
        ...(claim ? { claim } : {}),
      },
    },
  };
}
