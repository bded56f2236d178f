import { describe, expect, it } from 'vitest';
import { TriggerKind } from '../../src/events/schemas.js';
import { evaluateTriggers, TRIGGER_KINDS, type Scored, type Triggers } from '../../src/monitors/triggers.js';

/** Given triggers and the assessments, when a rescan is evaluated, then exactly these reasons fire. */

const a = (score: number, width = 20, label: string | null = null): Scored => ({
  score,
  low: score - Math.floor(width / 2),
  high: score + Math.ceil(width / 2),
  label: label === null ? null : { value: label },
});

interface Case {
  name: string;
  triggers: Triggers;
  current: Scored;
  previous: Scored | null;
  reference?: Scored | null;
  then: string[];
}

describe('evaluateTriggers', () => {
  it('names the same trigger kinds as the published schema, in its order', () => {
    expect([...TRIGGER_KINDS]).toEqual(TriggerKind.options);
  });

  it.each<Case>([
    // The baseline.
    {
      name: 'the first rescan fires nothing, whatever it shows',
      triggers: { label_change: true, score_below: 90, score_moves_by: 1, width_above: 0 },
      current: a(10, 60, 'deny'),
      previous: null,
      then: [],
    },
    // label_change
    {
      name: 'label value changed',
      triggers: { label_change: true },
      current: a(50, 20, 'review'),
      previous: a(50, 20, 'proceed'),
      then: ['label_change'],
    },
    {
      name: 'label appeared (null to a value)',
      triggers: { label_change: true },
      current: a(50, 20, 'review'),
      previous: a(50),
      then: ['label_change'],
    },
    {
      name: 'label went away (a value to null)',
      triggers: { label_change: true },
      current: a(50),
      previous: a(50, 20, 'review'),
      then: ['label_change'],
    },
    {
      name: 'same label value (a new policy version alone is no change)',
      triggers: { label_change: true },
      current: a(20, 20, 'review'),
      previous: a(80, 20, 'review'),
      then: [],
    },
    {
      name: 'label changed but label_change is false',
      triggers: { label_change: false },
      current: a(50, 20, 'a'),
      previous: a(50, 20, 'b'),
      then: [],
    },
    // score_below: a crossing
    { name: 'score fell below the bound', triggers: { score_below: 40 }, current: a(39), previous: a(40), then: ['score_below'] },
    { name: 'score stays below the bound', triggers: { score_below: 40 }, current: a(20), previous: a(30), then: [] },
    { name: 'score lands exactly on the bound', triggers: { score_below: 40 }, current: a(40), previous: a(60), then: [] },
    { name: 'score rises from below', triggers: { score_below: 40 }, current: a(60), previous: a(30), then: [] },
    // score_above: a crossing
    { name: 'score rose above the bound', triggers: { score_above: 70 }, current: a(71), previous: a(70), then: ['score_above'] },
    { name: 'score stays above the bound', triggers: { score_above: 70 }, current: a(90), previous: a(80), then: [] },
    { name: 'score falls from above', triggers: { score_above: 70 }, current: a(50), previous: a(80), then: [] },
    // score_moves_by: from the reference (last announced), else the previous
    {
      name: 'moved by exactly n from the previous',
      triggers: { score_moves_by: 10 },
      current: a(60),
      previous: a(50),
      then: ['score_moves_by'],
    },
    { name: 'moved down by more than n', triggers: { score_moves_by: 10 }, current: a(30), previous: a(50), then: ['score_moves_by'] },
    { name: 'moved by less than n', triggers: { score_moves_by: 10 }, current: a(59), previous: a(50), then: [] },
    {
      name: 'a slow drift adds up against the last announced one',
      triggers: { score_moves_by: 10 },
      current: a(61),
      previous: a(58),
      reference: a(51),
      then: ['score_moves_by'],
    },
    {
      name: 'a big step back towards the last announced one does not fire',
      triggers: { score_moves_by: 10 },
      current: a(52),
      previous: a(70),
      reference: a(50),
      then: [],
    },
    // width_above: a crossing
    { name: 'interval widened beyond n', triggers: { width_above: 30 }, current: a(50, 31), previous: a(50, 30), then: ['width_above'] },
    { name: 'interval stays wide', triggers: { width_above: 30 }, current: a(50, 50), previous: a(50, 40), then: [] },
    { name: 'interval narrowed', triggers: { width_above: 30 }, current: a(50, 10), previous: a(50, 40), then: [] },
    // Several at once, in the published order.
    {
      name: 'several fire together, in the order of the trigger kinds',
      triggers: { width_above: 30, score_moves_by: 20, score_below: 50, label_change: true, score_above: 95 },
      current: a(30, 40, 'review'),
      previous: a(60, 20, 'proceed'),
      then: ['label_change', 'score_below', 'score_moves_by', 'width_above'],
    },
  ])('given $name, then $then', ({ triggers, current, previous, reference, then }) => {
    expect(evaluateTriggers(triggers, { current, previous, reference: reference ?? null }).map((h) => h.reason)).toEqual(then);
  });
});
