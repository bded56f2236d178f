import type { CheckDefinition, CheckEnvironment, NormalisedPresentation, Signal, SubjectClaim, TrustBand } from '../checks/types.js';
import type { Tx } from '../platform/db/pool.js';
import { loadEnvironment } from '../entities/index.js';
import { resolveEntity, resolvingIdentifiers, type ResolveScope } from '../entities/index.js';
import { assessNow, factsOf, runInline, type Question } from '../assessment/index.js';
import { planChecks } from '../assessment/index.js';
import type { CurrentPolicy } from '../policies/index.js';
import type { Stake } from '../scoring/index.js';
import type { FindingBody, RetentionMode } from '../../machines/sessionMachine.js';
import type { Assessment, AssessmentRecord } from '../../machines/types.js';

/**
 * One assessment of a session from everything it holds so far, computed
 * under the session actor's row lock: entity resolution when identifiers
 * were added, the tenant's history and graph of the entity, the inline (t0)
 * checks, the testimony given in the session, and the one scoring function
 * through the inquiry engine's `assessNow`, so a session's assessment is
 * exactly what an inquiry on the same evidence would say.
 *
 * Sessions run inline checks only: a frame is answered in milliseconds, and
 * the checks a network tier would add are reported in `coverage.gaps`
 * (an inquiry with the session's entity_id runs them).
 */
export const SESSION_TIER = 't0';

/** What a session's inquiry row keeps as its `request` (the static half of its facts). */
export interface SessionFacts {
  kind: 'session';
  sessionId: string;
  inquiryId: string;
  intent: string;
  purpose: string;
  stake: Stake;
  policy: CurrentPolicy | null;
  /** GET /v1/inquiries reads it: sessions never render a report. */
  render: 'none';
  retention: RetentionMode;
  consentRef: string | null;
  caseId: string | null;
  /** Region for phone numbers written without a prefix: the country claimed when the session opened. */
  defaultCountry: string | null;
}

/** The evolving half, from the actor's context. */
export interface SessionEvidence {
  presentations: NormalisedPresentation[];
  claim: SubjectClaim | null;
  testimony: Signal[];
  entityId: string | null;
  findingIds: readonly string[];
}

export interface Additions {
  presentations?: NormalisedPresentation[];
  claim?: SubjectClaim | null;
  testimony?: Signal[];
  /** Only when the session is opened with a subject naming one. */
  explicitEntityId?: string;
}

export interface Evaluated extends Omit<SessionEvidence, 'findingIds'> {
  assessment: Assessment;
  record: AssessmentRecord;
  addedFindings: FindingBody[];
}

/** What a session asks, as the engine reads it: a session renders no report, and its tier is the inline one. */
function questionOf(facts: SessionFacts, claim: SubjectClaim | null): Question {
  return {
    intent: facts.intent,
    purpose: facts.purpose,
    stake: facts.stake,
    tierCeiling: SESSION_TIER,
    claim: claim ?? undefined,
    render: 'none',
    renderLang: undefined,
  };
}

const keyOf = (p: NormalisedPresentation) => `${p.type}\u0000${p.normalised}`;

export function mergePresentations(
  known: readonly NormalisedPresentation[],
  added: readonly NormalisedPresentation[],
): NormalisedPresentation[] {
  const seen = new Set(known.map(keyOf));
  const out = [...known];
  for (const p of added) {
    if (seen.has(keyOf(p))) continue;
    seen.add(keyOf(p));
    out.push(p);
  }
  return out;
}

/** A later claim frame amends the claim field by field; it never erases what it does not mention. */
export function mergeClaim(known: SubjectClaim | null, added: SubjectClaim | null | undefined): SubjectClaim | null {
  if (!added) return known;
  return { ...(known ?? {}), ...added };
}

/** The entity now, re-resolved only when the resolving identifiers changed; `created` when this transaction made it. */
async function entityFor(
  tx: Tx,
  scope: ResolveScope,
  before: SessionEvidence,
  presentations: NormalisedPresentation[],
  explicit?: string,
): Promise<{ entityId: string | null; created: boolean }> {
  const identifiers = (ps: readonly NormalisedPresentation[]) =>
    resolvingIdentifiers([...ps])
      .map(keyOf)
      .sort()
      .join('\u0001');
  const grew = identifiers(presentations) !== identifiers(before.presentations);
  if (!grew && explicit === undefined && (before.entityId !== null || presentations.length === 0))
    return { entityId: before.entityId, created: false };
  const resolution = await resolveEntity(tx, scope, presentations, { entityId: explicit ?? before.entityId ?? undefined });
  return { entityId: resolution.entityId, created: resolution.created };
}

export async function evaluateSession(
  tx: Tx,
  deps: { checks: readonly CheckDefinition[]; now: Date; newId: () => string },
  scope: ResolveScope,
  facts: SessionFacts,
  before: SessionEvidence,
  add: Additions = {},
): Promise<Evaluated> {
  const presentations = mergePresentations(before.presentations, add.presentations ?? []);
  const claim = mergeClaim(before.claim, add.claim);
  const testimony = [...before.testimony, ...(add.testimony ?? [])];
  const { entityId, created } = await entityFor(tx, scope, before, presentations, add.explicitEntityId);
  const env: CheckEnvironment = entityId
    ? await loadEnvironment(tx, entityId, presentations, { excludeInquiryId: facts.inquiryId, created })
    : {};
  const plan = planChecks({
    inquiryId: facts.inquiryId,
    checks: deps.checks,
    presentations,
    tierCeiling: SESSION_TIER,
    stake: facts.stake,
  });
  // Sessions run no worker check: the plan's worker tier is neither run nor counted (SESSION_TIER).
  const inline = { ...plan, worker: [] };
  const inquiryFacts = factsOf(questionOf(facts, claim), {
    inquiryId: facts.inquiryId,
    entityId,
    subject: presentations.map((p) => ({ type: p.type, value: p.value })),
    presentations,
    policy: facts.policy,
    plan: inline,
    graph: env.graph,
    deadlineAt: 0,
  });
  // With the policy, as an inquiry: a check reads a number without its prefix in the tenant's default country.
  const found = await runInline(inline, { presentations, claim: inquiryFacts.claim, policy: facts.policy }, env, deps.now);
  const out = assessNow(inquiryFacts, {
    assessmentId: deps.newId(),
    asOf: deps.now,
    signals: [...found.signals, ...testimony],
    absences: found.absences,
    pendingCount: 0,
    preliminary: false,
  });
  const known = new Set(before.findingIds);
  const findings: FindingBody[] = out.record.findings.findings.filter((f) => !known.has(f.finding_id));
  return {
    presentations,
    claim,
    testimony,
    entityId,
    assessment: out.assessment,
    record: out.record,
    addedFindings: findings,
  };
}

// Testimony's banded trust follows who gives it: the tenant or its analyst over the subject itself.
const TESTIMONY_BAND: Record<string, TrustBand> = { tenant_supplied: 'medium', analyst_asserted: 'medium', self_attested: 'low' };

/**
 * An observation frame as evidence: a neutral signal (testimony never sets a
 * score) with its provenance class, about the session's first presented value.
 * Its statement is ours, never the summary: the summary is content.
 */
export function testimonySignal(input: {
  seq: number;
  provenanceClass: string;
  dataClass: 'C0' | 'C1' | 'C2';
  observedAt: string;
  about: NormalisedPresentation | undefined;
}): Signal {
  return {
    kind: 'session_testimony',
    about: input.about?.value ?? 'subject',
    about_type: input.about?.type ?? 'SUBJECT',
    disposition: 'neutral',
    statement: `Testimony (${input.provenanceClass.replace('_', ' ')}) was given in the session (frame ${input.seq}).`,
    provenance_class: input.provenanceClass,
    trust_band: TESTIMONY_BAND[input.provenanceClass] ?? 'low',
    data_class: input.dataClass,
    observed_at: input.observedAt,
  };
}
