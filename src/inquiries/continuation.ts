import { newRowId } from '../platform/ids.js';
import type { AnyMachineSnapshot } from 'xstate';
import type { ActorRuntime, SendResult } from '../../actors/runtime.js';
import { runCheck } from '../checks/runCheck.js';
import type { Absence, CheckDefinition } from '../checks/types.js';
import { findInquiry } from './store.js';
import type { Mode, Tx } from '../platform/db/pool.js';
import { assessNow, timeoutAbsences, type InquiryFacts } from '../assessment/index.js';
import { willBePreliminary } from './preliminary.js';
import { parseInquiryFacts } from '../assessment/index.js';

/**
 * Everything that moves an inquiry after it was opened: a worker check's
 * result, the caller's deadline, the ceiling on reasoning. Each builds its
 * event from the actor's snapshot under the row lock, so two of them racing
 * (a late check and the deadline) are applied one after the other, and one
 * that finds the inquiry already past caring sends nothing.
 */
export interface ContinuationDeps {
  runtime: ActorRuntime;
  checks: ReadonlyMap<string, CheckDefinition>;
  now: () => Date;
}

export interface CheckJob {
  tenantId: string;
  mode: Mode;
  actorId: string;
  key: string;
  checkId: string;
  presentation: { type: string; value: string; normalised: string };
  subject: { type: string; value: string; normalised: string }[];
  claim?: Record<string, string>;
}

type Scope = { tenantId: string; mode: Mode };

async function factsOf(tx: Tx, inquiryId: string): Promise<InquiryFacts | null> {
  const row = await findInquiry(tx, inquiryId);
  // The request column holds the facts the engine wrote when the inquiry opened (insertInquiry).
  return row ? parseInquiryFacts(row.request) : null;
}

function isOpen(snapshot: AnyMachineSnapshot): boolean {
  return snapshot.value === 'reasoning' || snapshot.value === 'preliminary';
}

/** Runs one worker check and reports it to its inquiry. A check that is no longer awaited is not run at all. */
export async function runCheckJob(deps: ContinuationDeps, job: CheckJob): Promise<SendResult | null> {
  const scope: Scope = { tenantId: job.tenantId, mode: job.mode };
  const check = deps.checks.get(job.checkId);
  const actor = await deps.runtime.read(scope, { kind: 'inquiry', id: job.actorId });
  const context = actor?.context;
  if (!actor || !context?.pending.includes(job.key)) return null;
  const result = check
    ? await runCheck(check, {
        presentation: job.presentation,
        subject: job.subject,
        ...(job.claim ? { claim: job.claim } : {}),
        now: deps.now(),
        signal: new AbortController().signal,
        env: {},
      })
    : {
        signals: [],
        absences: [
          {
            about: job.presentation.value,
            about_type: job.presentation.type,
            kind: 'unregistered' as const,
            reason: 'The check is no longer registered.',
          },
        ],
      };
  return deps.runtime.send(scope, { kind: 'inquiry', id: job.actorId }, async (snapshot, tx) => {
    const ctx = snapshot.context;
    if (!isOpen(snapshot) || !ctx.pending.includes(job.key)) return null;
    const facts = await factsOf(tx, job.actorId);
    if (!facts) return null;
    const signals = [...ctx.signals, ...result.signals];
    const absences = [...ctx.absences, ...result.absences];
    const remaining = ctx.pending.length - 1;
    const probe = assessNow(facts, {
      assessmentId: newRowId(),
      asOf: deps.now(),
      signals,
      absences,
      pendingCount: remaining,
      preliminary: false,
    });
    const settled = probe.narrowEnough || remaining === 0;
    const preliminary = willBePreliminary(String(snapshot.value), 'check.reported', settled, ctx.preliminaryAllowed);
    // A revised preliminary answer still counts the checks that have not answered as absences.
    const stillPending = timeoutAbsences(
      pendingPresentations(
        facts,
        ctx.pending.filter((k) => k !== job.key),
      ),
    );
    const out = preliminary
      ? assessNow(facts, {
          assessmentId: probe.assessment.assessment_id,
          asOf: deps.now(),
          signals,
          absences: [...absences, ...stillPending],
          pendingCount: 0,
          preliminary,
        })
      : probe;
    return {
      type: 'check.reported',
      key: job.key,
      signals: result.signals,
      absences: result.absences,
      assessment: out.assessment,
      record: out.record,
      narrowEnough: out.narrowEnough,
    };
  });
}

/** `deadline.reached` or `reasoning.expired`: what is still pending becomes a timeout absence. */
export async function fireInquiryTimer(
  deps: ContinuationDeps,
  scope: Scope,
  inquiryId: string,
  type: 'deadline.reached' | 'reasoning.expired',
): Promise<SendResult> {
  return deps.runtime.send(scope, { kind: 'inquiry', id: inquiryId }, async (snapshot, tx) => {
    const ctx = snapshot.context;
    if (type === 'deadline.reached' ? snapshot.value !== 'reasoning' : !isOpen(snapshot)) return null;
    const facts = await factsOf(tx, inquiryId);
    if (!facts) return null;
    const preliminary = willBePreliminary(String(snapshot.value), type, false, ctx.preliminaryAllowed);
    const pending = pendingPresentations(facts, ctx.pending);
    const timeouts = timeoutAbsences(pending);
    // A preliminary answer counts the unanswered checks as absences too: they widen its interval honestly.
    const absences: Absence[] = [...ctx.absences, ...timeouts];
    const out = assessNow(facts, {
      assessmentId: newRowId(),
      asOf: deps.now(),
      signals: ctx.signals,
      absences,
      pendingCount: 0,
      preliminary,
    });
    return { type, assessment: out.assessment, record: out.record, timeoutAbsences: preliminary ? [] : timeouts };
  });
}

/** The presentations behind pending keys (a key names its check and the value's digest; the job data is not kept). */
function pendingPresentations(
  facts: InquiryFacts,
  pending: readonly string[],
): { presentation: InquiryFacts['presentations'][number]; key: string }[] {
  return pending.flatMap((key) => {
    const presentation = facts.pendingIndex[key];
    return presentation ? [{ presentation, key }] : [];
  });
}
