import { sha256 } from '../platform/digest.js';
import { applicableChecks, checksBeyondCeiling } from '../checks/registry.js';
import { absenceFor } from '../checks/evidence.js';
import type { Absence, CheckContext, CheckDefinition, CheckResult, NormalisedPresentation, Tier } from '../checks/types.js';
import { extraChecksWorthRunning, PARAMETERS, type Stake } from '../scoring/index.js';

/**
 * Which checks an inquiry runs. Inline checks (pure computation) always run.
 * Worker checks (network I/O) are ordered by the largest weight they can add
 * per unit of cost, then by id (METHODOLOGY.md section 4), and only as many
 * as the stake makes worth running; the rest become `budget` absences. What
 * the tier ceiling puts out of reach is counted per tier and question. A
 * worker check that knows it can look nothing up now (`unreachableReason`)
 * is answered inline with its absence, without a queue round trip.
 */
export interface PlannedCheck {
  /** Deterministic per inquiry, check and value: the job id and the dedupe key of its result. */
  key: string;
  check: CheckDefinition;
  presentation: NormalisedPresentation;
}

export interface CheckPlan {
  inline: PlannedCheck[];
  worker: PlannedCheck[];
  absences: Absence[];
  gaps: CoverageGap[];
}

/** A question the inquiry could not ask: out of its tier ceiling, or a check this deployment has switched off. */
export interface CoverageGap {
  tier: Tier;
  kind: string;
  count: number;
  reason: 'beyond_tier_ceiling' | 'switched_off';
}

// Stands in for a zero cost so free checks sort first without dividing by zero.
const MIN_COST = 1e-3;

export function planChecks(input: {
  inquiryId: string;
  checks: readonly CheckDefinition[];
  presentations: readonly NormalisedPresentation[];
  tierCeiling: Tier;
  stake: Stake;
  /** Built-in checks this deployment does not run (the network ones when no resolver or RDAP base is set). */
  switchedOff?: readonly CheckDefinition[];
  /** Why no worker can run a check now (the queue's Redis is down), if so: every worker check is then answered at once. */
  workersUnreachable?: string;
}): CheckPlan {
  const inline: PlannedCheck[] = [];
  const candidates: PlannedCheck[] = [];
  const absences: Absence[] = [];
  const gaps = new Map<string, CoverageGap>();
  const inquiryPart = safeKeyPart(input.inquiryId);
  const count = (check: CheckDefinition, reason: CoverageGap['reason']) => {
    const id = `${reason}:${check.tier}:${check.kind}`;
    const gap = gaps.get(id) ?? { tier: check.tier, kind: check.kind, count: 0, reason };
    gap.count += 1;
    gaps.set(id, gap);
  };
  for (const presentation of input.presentations) {
    // A value that is not a value of its type has no content to read: only the form check and the
    // checks of the tenant's records about it run (src/checks/valueForm.ts), so it is one finding, not a dozen absences.
    const applicable = applicableChecks(input.checks, presentation.type, input.tierCeiling);
    const reachable = presentation.malformed === undefined ? applicable : applicable.filter((check) => check.runsOnMalformed === true);
    for (const beyond of checksBeyondCeiling(input.checks, presentation.type, input.tierCeiling)) count(beyond, 'beyond_tier_ceiling');
    for (const off of input.switchedOff ?? []) if (off.artifactTypes.includes(presentation.type)) count(off, 'switched_off');
    if (reachable.length === 0 && !input.checks.some((c) => c.artifactTypes.includes(presentation.type))) {
      absences.push({
        about: presentation.value,
        about_type: presentation.type,
        kind: 'unregistered',
        reason: 'No check is registered for this type of value.',
      });
    }
    // One digest per value, not per check: a value has a few dozen checks and each would hash it again.
    const digest = valueDigest(presentation);
    for (const check of reachable) {
      const planned = { key: `${inquiryPart}.${safeKeyPart(check.id)}.${digest}`, check, presentation };
      (check.runs === 'inline' ? inline : candidates).push(planned);
    }
  }
  sortByValuePerCost(candidates);
  const allowed = extraChecksWorthRunning(input.stake);
  for (const skipped of candidates.slice(allowed)) {
    absences.push({
      about: skipped.presentation.value,
      about_type: skipped.presentation.type,
      kind: 'budget',
      reason: 'Not run: the stake did not justify more checks.',
    });
  }
  // The budget is spent first, so a check whose dependency is down is counted exactly as when it is up.
  const worker: PlannedCheck[] = [];
  for (const planned of candidates.slice(0, allowed)) {
    const unreachable = input.workersUnreachable ?? unreachableReason(planned);
    if (unreachable === null) worker.push(planned);
    else inline.push(answeredAtOnce(planned, unreachable));
  }
  return {
    inline,
    worker,
    absences,
    gaps: [...gaps.values()].sort((a, b) => (a.reason + a.tier + a.kind).localeCompare(b.reason + b.tier + b.kind)),
  };
}

/**
 * The check's own word on its dependency. Planning runs outside runCheck's
 * guard, so a hook that throws (on a value no one foresaw) must not fail the
 * inquiry: the check is then planned as usual and its run is guarded.
 */
function unreachableReason(planned: PlannedCheck): string | null {
  try {
    return planned.check.unreachableReason?.(planned.presentation) ?? null;
  } catch {
    return null;
  }
}

/** The planned check in a stand-in that runs inline and answers the absence its dependency forces, looking nothing up. */
function answeredAtOnce(planned: PlannedCheck, reason: string): PlannedCheck {
  const unanswered = (ctx: CheckContext): CheckResult => ({ signals: [], absences: [absenceFor(ctx, 'error', reason)] });
  // Nothing is asked of the dependency, so nothing is spent: the call's audited cost leaves it out.
  return { ...planned, check: { ...planned.check, runs: 'inline', cost: 0, run: unanswered } };
}

export function maxWeight(check: CheckDefinition): number {
  const band = PARAMETERS.trustBandWeight[check.trustBand] ?? 0;
  const provenance = PARAMETERS.provenanceWeight.get(check.provenanceClass) ?? PARAMETERS.otherProvenanceWeight;
  return band * provenance;
}

/** Largest weight per unit of cost first, then by check id, then by key; each check's value worked out once, not per comparison. */
function sortByValuePerCost(planned: PlannedCheck[]): void {
  const value = new Map<CheckDefinition, number>();
  for (const p of planned) if (!value.has(p.check)) value.set(p.check, maxWeight(p.check) / Math.max(p.check.cost, MIN_COST));
  planned.sort((a, b) => {
    const va = value.get(a.check)!;
    const vb = value.get(b.check)!;
    if (va !== vb) return vb - va;
    return a.check.id === b.check.id ? a.key.localeCompare(b.key) : a.check.id.localeCompare(b.check.id);
  });
}

function valueDigest(p: NormalisedPresentation): string {
  return sha256(`${p.type}\u0000${p.normalised}`).slice(0, 16);
}

// BullMQ job ids may not contain ':'; a key (`<inquiry>.<check>.<digest>`) keeps to safe characters.
// Each part is made safe on its own: the joining dots are safe, so the key is the same as the whole made safe.
const UNSAFE_KEY_CHARACTER = /[^A-Za-z0-9._-]/g;
const safeKeyPart = (part: string) => part.replace(UNSAFE_KEY_CHARACTER, '_');
