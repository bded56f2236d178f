import { ARTIFACT_TYPES } from './artifactTypes.js';
import { PERSONAL_FACT, type CheckInfo } from './evidence.js';
import type { CheckContext } from './types.js';

/**
 * Shared by the checks that answer about the subject as a whole (its
 * history, the testimony attached to an inquiry) rather than about one of its
 * values: they read records the engine already holds, and answer once, on
 * the subject's first presentation.
 */
export const SUBJECT_LEVEL: Pick<
  CheckInfo,
  'artifactTypes' | 'tier' | 'runs' | 'cost' | 'timeoutMs' | 'provenanceClass' | 'trustBand' | 'dataClass' | 'runsOnMalformed'
> = {
  artifactTypes: ARTIFACT_TYPES,
  // The records are about the subject, however its values were typed.
  runsOnMalformed: true,
  tier: 't0',
  runs: 'inline',
  cost: 0,
  // Pure reading of what is already loaded; the limit only guards against a runaway.
  timeoutMs: 50,
  provenanceClass: 'tenant_supplied',
  trustBand: 'high',
  dataClass: PERSONAL_FACT,
};

/** Whether this run is about the subject's first presentation (or there is none). */
export function isPrimaryPresentation(ctx: Pick<CheckContext, 'subject' | 'presentation'>): boolean {
  const first = ctx.subject[0];
  return first === undefined || (first.type === ctx.presentation.type && first.normalised === ctx.presentation.normalised);
}

/**
 * One report of testimony, whoever holds it: the same words, from the same
 * provenance, dated the same and pointing the same way. A caller attaching
 * the same context to every inquiry restates one report; it counts once.
 */
export function testimonyKey(t: { provenance_class: string; summary: string; stance?: string | undefined }, observedAt: Date): string {
  return JSON.stringify([t.provenance_class, t.summary, observedAt.getTime(), t.stance]);
}

/** A stored instant as a Date, or undefined when it does not parse. */
export function dateOf(iso: string): Date | undefined {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? undefined : date;
}
