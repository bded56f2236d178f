import { reasonOf, runCheckNowOrLater } from '../checks/runCheck.js';
import type { Absence, CheckDefinition, CheckEnvironment, NormalisedPresentation, Signal, SubjectClaim, Tier } from '../checks/types.js';
import { normalisePresented } from '../checks/normalise.js';
import type { CurrentPolicy } from '../policies/index.js';
import type { Stake } from '../scoring/index.js';
import type { Subject } from '../schemas/common.js';
import { assess, type AssessOutput } from './assess.js';
import { buildFindings } from './findings.js';
import type { CheckPlan } from './plan.js';

/**
 * What an inquiry remembers of its question, stored once with it (the
 * inquiries row's `request`), so every later assessment (a worker's check
 * result, a deadline) is computed from the same facts.
 */
export interface InquiryFacts {
  inquiryId: string;
  entityId: string | null;
  intent: string;
  purpose: string;
  stake: Stake;
  tierCeiling: Tier;
  subject: { type: string; value: string }[];
  presentations: NormalisedPresentation[];
  claim: SubjectClaim | undefined;
  policy: CurrentPolicy | null;
  render: 'none' | 'template' | 'model';
  renderLang: string | undefined;
  gaps: CheckPlan['gaps'];
  /** Checks started: inline plus worker ones. */
  checksRun: number;
  graph: CheckEnvironment['graph'];
  /** Wall-clock instant by which the caller must have its first answer. */
  deadlineAt: number;
  /** The presentation each worker check's key is about, to name it in a timeout absence. */
  pendingIndex: Record<string, NormalisedPresentation>;
  /** Values taken from material the inquiry named, bound to where they sit in it. */
  materialBindings?: { material_id: string; binding_id: string; type: string; value: string }[];
}

/** The presented values, normalised; a phone without its prefix is read in the claimed country. */
export function normaliseSubject(asked: {
  subject: Pick<Subject, 'presentations'> & { claim?: { country?: string } };
}): NormalisedPresentation[] {
  return normalisePresented(asked.subject.presentations ?? [], asked.subject.claim?.country);
}

/** Runs the plan's inline checks (pure computation) through runCheck's rules, which turn any throw into an absence. */
export async function runInline(
  plan: CheckPlan,
  facts: Pick<InquiryFacts, 'presentations' | 'claim'> & Partial<Pick<InquiryFacts, 'policy'>>,
  env: CheckEnvironment,
  now: Date,
): Promise<{ signals: Signal[]; absences: Absence[] }> {
  // The tenant's default country reaches the checks with the policy the inquiry keeps in its facts.
  const defaultCountry = facts.policy?.body.default_region ?? undefined;
  const signals: Signal[] = [];
  const absences: Absence[] = [...plan.absences];
  const controller = new AbortController();
  for (const planned of plan.inline) {
    const answered = runCheckNowOrLater(planned.check, {
      presentation: planned.presentation,
      subject: facts.presentations,
      ...(facts.claim ? { claim: facts.claim } : {}),
      ...(defaultCountry ? { defaultCountry } : {}),
      now,
      signal: controller.signal,
      env,
    });
    // Awaited only when pending: an await per check costs more than most checks.
    const result = answered instanceof Promise ? await answered : answered;
    signals.push(...result.signals);
    absences.push(...result.absences);
  }
  return { signals, absences };
}

/** The assessment and its ledger record from the evidence so far. */
export function assessNow(
  facts: InquiryFacts,
  input: { assessmentId: string; asOf: Date; signals: Signal[]; absences: Absence[]; pendingCount: number; preliminary: boolean },
): AssessOutput & { record: { inputs: AssessOutput['inputs']; findings: ReturnType<typeof buildFindings> } } {
  const asOf = input.asOf.toISOString();
  const out = assess({
    inquiryId: facts.inquiryId,
    assessmentId: input.assessmentId,
    entityId: facts.entityId,
    asOf,
    signals: input.signals,
    absences: input.absences,
    stake: facts.stake,
    intent: facts.intent,
    purpose: facts.purpose,
    policy: facts.policy,
    preliminary: input.preliminary,
  });
  const unanswered = input.absences.filter((a) => a.kind !== 'budget' && a.kind !== 'unregistered').length + input.pendingCount;
  const findings = buildFindings({
    inquiryId: facts.inquiryId,
    assessmentId: input.assessmentId,
    subject: facts.subject,
    signals: input.signals,
    absences: input.absences,
    graph: facts.graph,
    coverage: {
      tierCeiling: facts.tierCeiling,
      checksRun: facts.checksRun,
      checksAnswered: Math.max(0, facts.checksRun - unanswered),
      gaps: facts.gaps,
    },
    generatedAt: asOf,
  });
  return { ...out, record: { inputs: out.inputs, findings } };
}

/** One absence a pending check: its key (`<inquiry>.<check id>.<digest>`, plan.ts) names the check, and so does the reason. */
export function timeoutAbsences(pending: readonly { presentation: NormalisedPresentation; key?: string }[]): Absence[] {
  return pending.map((p) => {
    const checkId = p.key?.split('.').at(-2);
    const reason = 'The check did not answer before the deadline.';
    return {
      about: p.presentation.value,
      about_type: p.presentation.type,
      kind: 'timeout',
      reason: checkId === undefined ? reason : reasonOf(checkId, reason),
    };
  });
}

export function checkById(checks: readonly CheckDefinition[]): Map<string, CheckDefinition> {
  return new Map(checks.map((c) => [c.id, c]));
}
