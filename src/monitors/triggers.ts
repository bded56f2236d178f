/**
 * When a monitor's rescan is announced (MonitorTriggered): a pure function of
 * the tenant's triggers and three assessments.
 *
 * Glossary:
 * - current:   the assessment this rescan produced.
 * - previous:  the assessment of the rescan before it (null on the first one).
 * - reference: the assessment movement is measured from: the last one that
 *              was announced, or the first rescan's while none was.
 *
 * Semantics (README "Monitors"):
 * - The first rescan is the baseline: with no previous assessment nothing can
 *   have changed, so nothing fires.
 * - `label_change`: the label's value differs from the previous one (null, no
 *   label, counts as a value). A new policy version that gives the same label
 *   is not a change.
 * - `score_below: n` / `score_above: n`: crossings, not levels. Below fires
 *   when the previous score was at or above n and the current is under it;
 *   above when the previous was at or below n and the current is over it. A
 *   score that stays under n announces once, when it got there.
 * - `score_moves_by: n`: |current - reference| >= n. Measured from the last
 *   announcement rather than the previous rescan, so a slow drift of a point
 *   per rescan is still announced once it adds up to n.
 * - `width_above: n`: the interval (high - low) crossed from at most n to
 *   more than n (the evidence grew thinner or more contradictory).
 */
import { TRIGGER_KINDS, type TriggerHit, type TriggerKind } from '../../machines/types.js';

export { TRIGGER_KINDS, type TriggerHit, type TriggerKind };

export interface Triggers {
  label_change?: boolean | undefined;
  score_below?: number | undefined;
  score_above?: number | undefined;
  score_moves_by?: number | undefined;
  width_above?: number | undefined;
}

/** The parts of an assessment the triggers read. */
export interface Scored {
  score: number;
  low: number;
  high: number;
  label?: { value: string } | null;
}

export interface TriggerInput {
  current: Scored;
  previous: Scored | null;
  reference: Scored | null;
}

const width = (a: Scored) => a.high - a.low;
const labelOf = (a: Scored) => a.label?.value ?? null;

/** Which triggers fired, in the order of TRIGGER_KINDS (empty on the baseline rescan). */
export function evaluateTriggers(triggers: Triggers, input: TriggerInput): TriggerHit[] {
  const { current, previous } = input;
  if (!previous) return [];
  const reference = input.reference ?? previous;
  const fired: Record<TriggerKind, boolean> = {
    label_change: triggers.label_change === true && labelOf(previous) !== labelOf(current),
    score_below: triggers.score_below !== undefined && previous.score >= triggers.score_below && current.score < triggers.score_below,
    score_above: triggers.score_above !== undefined && previous.score <= triggers.score_above && current.score > triggers.score_above,
    score_moves_by: triggers.score_moves_by !== undefined && Math.abs(current.score - reference.score) >= triggers.score_moves_by,
    width_above: triggers.width_above !== undefined && width(previous) <= triggers.width_above && width(current) > triggers.width_above,
  };
  return TRIGGER_KINDS.filter((k) => fired[k]).map((reason) => ({ reason }));
}
