import type { ActorRuntime } from '../../actors/runtime.js';
import type { Principal } from '../auth/index.js';
import type { CheckDefinition } from '../checks/types.js';
import { gatherSubject } from '../assessment/index.js';
import { knownValuesOf } from '../entities/index.js';
import { findInquiry, latestAssessmentOf, type AssessmentRow } from './store.js';
import { withTenant, type Db } from '../platform/db/pool.js';
import type { StatementPool } from '../platform/db/namedStatements.js';
import type { EventHub } from '../events/index.js';
import { ServiceProblem } from '../platform/problems.js';
import type { PolicyCache } from '../policies/index.js';
import type { RegistryCache } from '../registry/index.js';
import { renderReport, type RenderMode } from '../reports/index.js';
import type { ModelRenderer } from '../reports/index.js';
import { Findings } from '../assessment/schemas.js';
import type { InquiryAsk } from './ask.js';
import { admitInquiry } from './admit.js';
import { fireInquiryTimer, runCheckJob, type CheckJob } from './continuation.js';
import { mayOpenInOneCall, openInOneCall } from './oneCall.js';
import { createRecentValues } from './recentValues.js';
import {
  openInquiry,
  prepareInquiry,
  probeInquiry,
  type AuditSink,
  type Opening,
  type OpenedInquiry,
  type Probe,
  type ProbedEvidence,
} from './engine.js';
import { checkById } from '../assessment/index.js';
import { claimer, IdempotencyClash, rememberAnswer, resolveClash, type IdempotencyClaim } from './idempotency.js';
import { parseViewFacts, type ViewFacts } from '../assessment/index.js';
import { assessmentOf } from '../assessment/index.js';
import { inquiryOutcome, mayShowFindings, type InquiryOutcome } from './view.js';
import type { Assessment } from '../../machines/types.js';

/**
 * The inquiry commands: one sync inquiry (`inquire`, for the HTTP route and
 * for a monitor's rescan alike), the view of one, and the two entry points
 * workers call (a check job's result, an inquiry timer). The HTTP routes are
 * in src/inquiries/routes.ts.
 *
 * The sync call answers within `stake.deadline_ms`: when worker checks are
 * planned it listens on the inquiry's stream before opening it, and at the
 * deadline it fires the deadline itself (the durable timer is the fallback
 * for a process that died meanwhile).
 */
/**
 * What one sync inquiry answers, whoever asked: the inquiry as the caller
 * sees it, its assessment, and whether it is the kept answer of an earlier
 * call with the same idempotency key. The route turns it into HTTP.
 */
export interface InquiryAnswer {
  inquiry: InquiryOutcome;
  assessment: Assessment;
  replayed: boolean;
}

export interface InquiryServiceDeps {
  db: Db;
  /** A new subject's one call (oneCall.ts) runs here, as a named statement of node-postgres. */
  statements: StatementPool;
  runtime: ActorRuntime;
  hub: EventHub;
  checks: readonly CheckDefinition[];
  registry: RegistryCache;
  policies: PolicyCache;
  model: ModelRenderer | null;
  /** Built-in checks this deployment has switched off, reported as coverage gaps (never as absences). */
  switchedOff?: readonly CheckDefinition[];
  now?: () => Date;
}

const DEFAULT_DEADLINE_MS = 3000;
// Time kept back from the caller's deadline for the deadline's own transaction and the response.
const DEADLINE_MARGIN_MS = 25;

export function createInquiryService(deps: InquiryServiceDeps) {
  const now = deps.now ?? (() => new Date());
  const continuation = { runtime: deps.runtime, checks: checkById(deps.checks), now };
  const recent = createRecentValues();

  async function view(principal: Principal, inquiryId: string): Promise<InquiryOutcome> {
    const found = await withTenant(deps.db, principal, async (tx) => {
      const inquiry = await findInquiry(tx, inquiryId);
      return inquiry ? { inquiry, assessment: await latestAssessmentOf(tx, inquiryId) } : null;
    });
    if (!found?.assessment) throw new ServiceProblem('not-found', 'No such inquiry.');
    // The request column holds the facts the engine wrote when the inquiry opened (insertInquiry).
    return render(principal, inquiryId, found.inquiry.status, parseViewFacts(found.inquiry.request), found.assessment);
  }

  async function render(
    principal: Principal,
    inquiryId: string,
    status: string,
    facts: ViewFacts,
    assessment: AssessmentRow,
  ): Promise<InquiryOutcome> {
    const showFindings = mayShowFindings(principal, facts.policy?.body.show_findings);
    const report = await reportFor(facts, assessment, status, showFindings);
    return inquiryOutcome({ inquiryId, status, assessment, showFindings, report });
  }

  async function reportFor(facts: ViewFacts, row: AssessmentRow, status: string, showFindings: boolean) {
    if (facts.render === 'none') return undefined;
    const ceiling: RenderMode = facts.policy?.body.render_ceiling ?? 'template';
    // The ledger's findings column is the JSON the engine wrote, parsed as the contract's Findings.
    const findings = status === 'concluded' && showFindings && row.findings ? Findings.parse(row.findings) : null;
    return renderReport(
      { model: deps.model },
      {
        render: facts.render,
        ceiling,
        assessment: assessmentOf(row),
        findings,
        lang: facts.renderLang ?? null,
        now: now(),
      },
    );
  }

  /**
   * One sync inquiry, for the HTTP call and for anything else that asks (a
   * monitor's rescan): admission, idempotency, opening, waiting up to the
   * deadline, and the answer as the caller sees it.
   */
  async function inquire(
    ctx: AuditSink,
    principal: Principal,
    asked: InquiryAsk,
    purposeHeader?: string,
    probed?: ProbedEvidence,
  ): Promise<InquiryAnswer> {
    ctx.audit.purpose = asked.purpose;
    const { policy, artifactTypes } = await admitInquiry(
      { registry: deps.registry, policies: deps.policies },
      principal,
      asked,
      purposeHeader,
    );
    const started = Date.now();
    const deadlineAt = started + (asked.deadlineMs ?? DEFAULT_DEADLINE_MS) - DEADLINE_MARGIN_MS;
    // The claim hashes the request as sent (wire.ts askOf); a call without a key is compared with nothing.
    const claim = asked.idempotency;
    const { ask, bindings } = await gather(principal, asked, artifactTypes);
    // With Redis down no worker can run a check nor report it: the worker checks are answered at once
    // as absences and the inquiry concludes on its inline evidence, rather than the caller getting a 503.
    const queueDown = probed || deps.hub.connected() ? undefined : QUEUE_UNREACHABLE;
    const prepared = prepareInquiry(deps.checks, ask, bindings, deps.switchedOff, queueDown);
    const answered = prepared.plan.worker.length > 0 && !probed ? listenForAnswer(deps.hub, prepared.inquiryId) : null;
    try {
      await answered?.ready;
      const opened = await open({ ctx, principal, ask, prepared, policy, deadlineAt }, claim, probed);
      if (opened.state === 'reasoning')
        await waitOrFireDeadline(answered!, deadlineAt, () =>
          fireInquiryTimer(continuation, principal, opened.inquiryId, 'deadline.reached'),
        );
      const inquiry = opened.issued
        ? await render(principal, opened.inquiryId, opened.state, opened.facts, opened.issued)
        : await view(principal, opened.inquiryId);
      await rememberAnswer(deps.db, principal, claim?.key, inquiry);
      return { inquiry, assessment: inquiry.assessment, replayed: false };
    } catch (error) {
      if (!(error instanceof IdempotencyClash) || claim === null) throw error;
      return replay(ctx, principal, claim);
    } finally {
      answered?.stop();
    }
  }

  /**
   * A subject never seen (by this process, and then by the database) opens
   * in one database call (oneCall.ts); a known one, or one the call cannot
   * take, the long way (engine.ts).
   */
  async function open(opening: Opening, claim: IdempotencyClaim | null, probed: ProbedEvidence | undefined): Promise<OpenedInquiry> {
    const { principal, ask, prepared } = opening;
    const inOneCall =
      mayOpenInOneCall(ask, prepared, probed) && !recent.anySeen(principal, prepared.presentations)
        ? await openInOneCall({ statements: deps.statements, runtime: deps.runtime, now }, opening, claim)
        : null;
    recent.remember(principal, prepared.presentations);
    if (inOneCall) return inOneCall;
    const openDeps = { runtime: deps.runtime, checks: deps.checks, now };
    return openInquiry(openDeps, opening, claimer(principal, claim), probed);
  }

  /** What the inquiry would answer now, writing nothing (engine.ts `probeInquiry`); admission refuses as for `inquire`. */
  async function probe(principal: Principal, asked: InquiryAsk): Promise<Probe> {
    const { policy, artifactTypes } = await admitInquiry({ registry: deps.registry, policies: deps.policies }, principal, asked, undefined);
    const { ask, bindings } = await gather(principal, asked, artifactTypes);
    const prepared = prepareInquiry(deps.checks, ask, bindings, deps.switchedOff);
    return probeInquiry({ db: deps.db, now }, principal, ask, prepared, policy);
  }

  /**
   * What an inquiry would spend, without running it: admission, the subject
   * gathered, the check plan, and the sum of the planned checks' costs (the
   * audit row's cost_amount of the same call). For budgeted callers (a case
   * expansion) that must refuse before any work.
   */
  async function estimate(principal: Principal, asked: InquiryAsk): Promise<number> {
    const { artifactTypes } = await admitInquiry({ registry: deps.registry, policies: deps.policies }, principal, asked, undefined);
    const { ask, bindings } = await gather(principal, asked, artifactTypes);
    const { plan } = prepareInquiry(deps.checks, ask, bindings);
    return [...plan.inline, ...plan.worker].reduce((sum, p) => sum + p.check.cost, 0);
  }

  /** The subject with the values of the material it names, or of the entity it names alone (src/assessment gatherSubject). */
  async function gather(principal: Principal, ask: InquiryAsk, artifactTypes: ReadonlySet<string>) {
    const { subject } = ask;
    const request = {
      subject: { presentations: subject.presentations, ...(subject.entityId !== undefined ? { entity_id: subject.entityId } : {}) },
      material_ids: ask.materialIds,
    };
    const gathered = await gatherSubject(deps.db, principal, request, artifactTypes, knownValuesOf);
    const presentations = gathered.body.subject.presentations ?? [];
    return { ask: { ...ask, subject: { ...subject, presentations } }, bindings: gathered.bindings };
  }

  async function replay(ctx: AuditSink, principal: Principal, claim: IdempotencyClaim): Promise<InquiryAnswer> {
    const prior = await resolveClash(deps.db, principal, claim.key, claim.hash);
    ctx.audit.target_kind = 'inquiry';
    ctx.audit.target_id = prior.inquiryId;
    const inquiry = prior.kind === 'replay' ? prior.inquiry : await view(principal, prior.inquiryId);
    return { inquiry, assessment: inquiry.assessment, replayed: true };
  }

  return {
    inquire,
    probe,
    estimate,
    view,
    runCheckJob: (job: CheckJob) => runCheckJob(continuation, job),
    fireTimer: (scope: { tenantId: string; mode: 'live' | 'test' }, inquiryId: string, type: 'deadline.reached' | 'reasoning.expired') =>
      fireInquiryTimer(continuation, scope, inquiryId, type),
  };
}

export type InquiryService = ReturnType<typeof createInquiryService>;

interface AnswerListener {
  ready: Promise<void>;
  answered: Promise<void>;
  stop(): void;
}

/** Resolves on the first assessment announced on the inquiry's stream. */
const QUEUE_UNREACHABLE = 'The check queue is unreachable, so the check was not run.';

function listenForAnswer(hub: EventHub, inquiryId: string): AnswerListener {
  let resolve!: () => void;
  const answered = new Promise<void>((r) => (resolve = r));
  const unsubscribe = hub.subscribe(inquiryId, (message) => {
    if (message.type === 'event' && /^Assessment(Issued|Revised)$|^InquiryConcluded$/.test(message.event.type)) resolve();
  });
  return { ready: unsubscribe.ready, answered, stop: () => unsubscribe() };
}

async function waitOrFireDeadline(listener: AnswerListener, deadlineAt: number, fire: () => Promise<unknown>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'deadline'>((r) => (timer = setTimeout(() => r('deadline'), Math.max(0, deadlineAt - Date.now()))));
  const first = await Promise.race([listener.answered.then(() => 'answered' as const), deadline]);
  clearTimeout(timer);
  if (first === 'deadline') await fire();
}
