import { describe, expect, it } from 'vitest';
import { allows, labelFor, type LabelFacts, type PolicyBody } from '../../src/policies/evaluate.js';
import type { PolicyCondition } from '../../src/policies/schemas.js';
import { without } from '../support/objects.js';

const FACTS: LabelFacts = {
  score: 70,
  low: 60,
  high: 80,
  intent: 'onboarding',
  purpose: 'fraud_prevention',
  stake_kind: 'payment',
  amount: 250,
  preliminary: false,
};

function policy(rules: PolicyBody['rules']): PolicyBody {
  return {
    allowed_purposes: ['fraud_prevention'],
    allowed_intents: ['onboarding'],
    render_ceiling: 'template',
    show_findings: true,
    rules,
  };
}

function only(when: PolicyCondition): PolicyBody {
  return policy([{ label: 'matched', when }]);
}

describe('labelFor: rule order', () => {
  it('given several matching rules, then the first in order labels, naming the version', () => {
    const p = policy([
      { label: 'first', when: { score_gte: 50 } },
      { label: 'second', when: {} },
    ]);
    expect(labelFor(p, 3, FACTS)).toEqual({ value: 'first', policy_version: 3 });
  });

  it('given an earlier rule that does not match, then a later one labels', () => {
    const p = policy([
      { label: 'high', when: { score_gte: 90 } },
      { label: 'fallback', when: {} },
    ]);
    expect(labelFor(p, 1, FACTS)).toEqual({ value: 'fallback', policy_version: 1 });
  });

  it('given an empty condition, then it always matches', () => {
    expect(labelFor(only({}), 1, FACTS)?.value).toBe('matched');
  });
});

describe('labelFor: null cases', () => {
  it.each([
    ['no policy published', null, null],
    ['a policy without a version', only({}), null],
    ['no rules at all', policy([]), 1],
    ['no rule that matches', only({ score_lte: 10 }), 1],
  ] as const)('given %s, then no label', (_given, p, version) => {
    expect(labelFor(p, version, FACTS)).toBeNull();
  });
});

describe('labelFor: each condition (facts: score 70, interval 60-80, width 20)', () => {
  it.each<[string, PolicyCondition, boolean]>([
    ['score_gte at the score', { score_gte: 70 }, true],
    ['score_gte above the score', { score_gte: 71 }, false],
    ['score_lte at the score', { score_lte: 70 }, true],
    ['score_lte below the score', { score_lte: 69 }, false],
    ['low_gte at low', { low_gte: 60 }, true],
    ['low_gte above low', { low_gte: 61 }, false],
    ['low_lte below low', { low_lte: 59 }, false],
    ['high_gte above high', { high_gte: 81 }, false],
    ['high_lte at high', { high_lte: 80 }, true],
    ['high_lte below high', { high_lte: 79 }, false],
    ['width_lte at the width', { width_lte: 20 }, true],
    ['width_lte below the width', { width_lte: 19 }, false],
    ['width_gte at the width', { width_gte: 20 }, true],
    ['width_gte above the width', { width_gte: 21 }, false],
    ['intents including the intent', { intents: ['pre_transaction', 'onboarding'] }, true],
    ['intents without the intent', { intents: ['pre_transaction'] }, false],
    ['an empty intents list', { intents: [] }, false],
    ['purposes including the purpose', { purposes: ['fraud_prevention'] }, true],
    ['purposes without the purpose', { purposes: ['credit_risk'] }, false],
    ['stake_kinds including the kind', { stake_kinds: ['payment', 'credit'] }, true],
    ['stake_kinds without the kind', { stake_kinds: ['listing'] }, false],
    ['amount_gte at the amount', { amount_gte: 250 }, true],
    ['amount_gte above the amount', { amount_gte: 251 }, false],
    ['amount_lte below the amount', { amount_lte: 249 }, false],
    ['preliminary false on a final assessment', { preliminary: false }, true],
    ['preliminary true on a final assessment', { preliminary: true }, false],
    ['all of several that hold', { score_gte: 60, width_lte: 25, stake_kinds: ['payment'] }, true],
    ['several where one fails', { score_gte: 60, width_lte: 10, stake_kinds: ['payment'] }, false],
  ])('given %s, then matched is %s', (_given, when, matched) => {
    expect(labelFor(only(when), 1, FACTS) !== null).toBe(matched);
  });

  it('given an amount bound and a stake without an amount, then the rule does not match', () => {
    const noAmount = without(FACTS, 'amount');
    expect(labelFor(only({ amount_lte: 1_000_000 }), 1, noAmount)).toBeNull();
    expect(labelFor(only({ score_gte: 0 }), 1, noAmount)?.value).toBe('matched');
  });

  it('given a preliminary assessment, then a preliminary rule labels it', () => {
    const p = policy([
      { label: 'wait', when: { preliminary: true } },
      { label: 'final', when: {} },
    ]);
    expect(labelFor(p, 2, { ...FACTS, preliminary: true })?.value).toBe('wait');
    expect(labelFor(p, 2, FACTS)?.value).toBe('final');
  });
});

describe('allows', () => {
  it('given no policy yet, then every purpose and intent is allowed (the registry decides alone)', () => {
    expect(allows(null, { purpose: 'anything', intent: 'anything' })).toEqual({ purpose: true, intent: true });
  });

  it.each([
    ['both listed', 'fraud_prevention', 'onboarding', { purpose: true, intent: true }],
    ['the purpose not listed', 'credit_risk', 'onboarding', { purpose: false, intent: true }],
    ['the intent not listed', 'fraud_prevention', 'pre_transaction', { purpose: true, intent: false }],
  ])('given a policy with %s, then %j', (_given, purpose, intent, expected) => {
    expect(allows(policy([]), { purpose, intent })).toEqual(expected);
  });
});
