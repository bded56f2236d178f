import { describe, it, expect } from 'vitest';
import { ScoringInputError, score as scoreAnyVersion, type ScoreInput, type EvidenceItem, type Strength } from '../../src/scoring/index.js';
import { AS_OF, daysBefore } from './fixtures.js';

/**
 * METHODOLOGY.md section 7 (`trust-method/2`): every worked example exactly,
 * plus cases drawn from the definition by hand. v2 is no longer the current
 * version, so every input here names it (unless it names another).
 */
const score = (input: ScoreInput) => scoreAnyVersion({ methodology_version: 'trust-method/2', ...input });

function v2(disposition: EvidenceItem['disposition'], strength: Strength, overrides: Partial<EvidenceItem> = {}): EvidenceItem {
  return { provenance_class: 'third_party', trust_band: 'high', observed_at: AS_OF, disposition, strength, ...overrides };
}
const many = (n: number, item: EvidenceItem) => Array.from({ length: n }, () => item);

const WORKED: ReadonlyArray<{ name: string; evidence: EvidenceItem[]; k: number; expected: [number, number, number] }> = [
  { name: 'no evidence', evidence: [], k: 0, expected: [50, 5, 95] },
  { name: 'no evidence, four absences', evidence: [], k: 4, expected: [50, 4, 96] },
  { name: 'one moderate support', evidence: [v2('supports', 'moderate')], k: 0, expected: [67, 22, 98] },
  { name: 'one strong support', evidence: [v2('supports', 'strong')], k: 0, expected: [75, 36, 99] },
  { name: 'five moderate supports, two absences', evidence: many(5, v2('supports', 'moderate')), k: 2, expected: [86, 55, 100] },
  {
    name: 'disposable inbox',
    evidence: [
      v2('weakens', 'strong', { provenance_class: 'computed' }),
      v2('supports', 'weak', { provenance_class: 'computed', trust_band: 'low' }),
    ],
    k: 0,
    expected: [30, 2, 72],
  },
  {
    name: 'partial conflict',
    evidence: [...many(8, v2('supports', 'moderate')), ...many(2, v2('weakens', 'moderate'))],
    k: 0,
    expected: [75, 47, 95],
  },
];

describe('trust-method/2: section 7 worked examples', () => {
  it.each(WORKED)('given $name (k = $k), then $expected', ({ evidence, k, expected }) => {
    const result = score({ as_of: AS_OF, evidence, absences: k });
    expect([result.score, result.low, result.high]).toEqual(expected);
    expect(result.methodology_version).toBe('trust-method/2');
  });
});

describe('trust-method/2: cases worked from the definition', () => {
  it('given one weak support, then w = 0.5 and P = 1.5 / 2.5 = 0.6', () => {
    const result = score({ as_of: AS_OF, evidence: [v2('supports', 'weak')], absences: 0 });
    expect(result).toMatchObject({ R: 0.5, S: 0, n: 0.5, P: 0.6, score: 60, n_eff: 0.5 });
  });

  it('given a strong item 180 days old, then it weighs as one fresh moderate item', () => {
    const aged = score({ as_of: AS_OF, evidence: [v2('weakens', 'strong', { observed_at: daysBefore(180) })], absences: 0 });
    const fresh = score({ as_of: AS_OF, evidence: [v2('weakens', 'moderate')], absences: 0 });
    expect([aged.score, aged.low, aged.high]).toEqual([fresh.score, fresh.low, fresh.high]);
    expect(aged.S).toBeCloseTo(1, 12);
  });

  it('given two strong weakens, then S = 4 and P = 1 / 6, so the score is 17', () => {
    const result = score({ as_of: AS_OF, evidence: many(2, v2('weakens', 'strong')), absences: 0 });
    expect(result.score).toBe(17);
    expect(result.n_eff).toBe(4);
  });

  it('given absences, then u = k/20 / (1 + k/20) mixes the interval toward [0, 100] and the score stays', () => {
    const base = score({ as_of: AS_OF, evidence: many(3, v2('supports', 'strong')), absences: 0 });
    const twenty = score({ as_of: AS_OF, evidence: many(3, v2('supports', 'strong')), absences: 20 });
    expect(twenty.score).toBe(base.score);
    // u = 0.5: low is at most half of the evidence-only low, high at least halfway to 100.
    expect(twenty.low).toBeLessThanOrEqual(Math.floor(base.low / 2) + 1);
    expect(twenty.high).toBeGreaterThanOrEqual(Math.ceil((base.high + 100) / 2) - 1);
  });

  it('given perfect conflict of strong items, then the interval is the vacuous one', () => {
    const result = score({
      as_of: AS_OF,
      evidence: [...many(3, v2('supports', 'strong')), ...many(3, v2('weakens', 'strong'))],
      absences: 0,
    });
    expect([result.score, result.low, result.high]).toEqual([50, 5, 95]);
  });
});

describe('trust-method/2: strength is required, and v1 refuses it', () => {
  it('given a v2 item without strength, then ScoringInputError names evidence[i].strength', () => {
    const item = { provenance_class: 'computed', trust_band: 'high', observed_at: AS_OF, disposition: 'supports' } as const;
    expect(() => score({ as_of: AS_OF, evidence: [v2('supports', 'weak'), item], absences: 0 })).toThrow(ScoringInputError);
    expect(() => score({ as_of: AS_OF, evidence: [v2('supports', 'weak'), item], absences: 0 })).toThrow(
      /evidence\[1\]\.strength.*required by trust-method\/2/,
    );
  });

  it('given a v1 item with a strength, then ScoringInputError says v1 has none', () => {
    expect(() => score({ methodology_version: 'trust-method/1', as_of: AS_OF, evidence: [v2('supports', 'weak')], absences: 0 })).toThrow(
      /evidence\[0\]\.strength.*not part of trust-method\/1/,
    );
  });

  it('given an unknown strength, then it is refused with the three allowed values', () => {
    const item = { ...v2('supports', 'weak'), strength: 'huge' as Strength };
    expect(() => score({ as_of: AS_OF, evidence: [item], absences: 0 })).toThrow(/weak, moderate, strong/);
  });

  it('given an unknown methodology version, then it is refused naming the field', () => {
    expect(() => score({ methodology_version: 'trust-method/9' as never, as_of: AS_OF, evidence: [], absences: 0 })).toThrow(
      /methodology_version/,
    );
  });
});
