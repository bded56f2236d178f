import { describe, it, expect } from 'vitest';
import {
  METHODOLOGY_VERSION,
  ScoringInputError,
  TRUST_METHOD_3,
  score,
  type EvidenceItem,
  type Strength,
} from '../../src/scoring/index.js';
import { AS_OF, daysBefore } from './fixtures.js';
import { SECTION_8_EXAMPLES } from './trustMethod3Examples.js';

/**
 * METHODOLOGY.md section 8 (`trust-method/3`, the current version): every
 * worked example exactly, plus cases drawn from the definition by hand.
 * v3 is v2's function with σ weak 1, moderate 3, strong 8.
 */

function v3(disposition: EvidenceItem['disposition'], strength: Strength, overrides: Partial<EvidenceItem> = {}): EvidenceItem {
  return { provenance_class: 'third_party', trust_band: 'high', observed_at: AS_OF, disposition, strength, ...overrides };
}
const many = (n: number, item: EvidenceItem) => Array.from({ length: n }, () => item);

describe('trust-method/3: section 8 worked examples', () => {
  it.each(SECTION_8_EXAMPLES)('given $name (k = $k), when scored with no version named, then $expected', ({ evidence, k, expected }) => {
    const result = score({ as_of: AS_OF, evidence, absences: k });
    expect([result.score, result.low, result.high]).toEqual(expected);
    expect(result.methodology_version).toBe('trust-method/3');
  });

  it.each(SECTION_8_EXAMPLES)('given $name, when v3 is named, then the same $expected', ({ evidence, k, expected }) => {
    const result = score({ methodology_version: TRUST_METHOD_3, as_of: AS_OF, evidence, absences: k });
    expect([result.score, result.low, result.high]).toEqual(expected);
  });

  it('given no methodology_version, then the current one (v3) applies', () => {
    expect(METHODOLOGY_VERSION).toBe('trust-method/3');
    expect(score({ as_of: AS_OF, evidence: [], absences: 0 }).methodology_version).toBe('trust-method/3');
  });
});

describe('trust-method/3: cases worked from the definition', () => {
  it.each([
    { strength: 'weak' as const, w: 1, P: 2 / 3 },
    { strength: 'moderate' as const, w: 3, P: 4 / 5 },
    { strength: 'strong' as const, w: 8, P: 9 / 10 },
  ])('given one fresh $strength support, then w = $w and the odds move by w + 1', ({ strength, w, P }) => {
    const result = score({ as_of: AS_OF, evidence: [v3('supports', strength)], absences: 0 });
    expect(result.R).toBe(w);
    expect(result.n_eff).toBe(w);
    expect(result.P).toBeCloseTo(P, 15);
    expect(result.P / (1 - result.P)).toBeCloseTo(w + 1, 12);
  });

  it('given a strong weakening item 180 days old, then it weighs 4 (half of 8)', () => {
    const aged = score({ as_of: AS_OF, evidence: [v3('weakens', 'strong', { observed_at: daysBefore(180) })], absences: 0 });
    expect(aged.S).toBeCloseTo(4, 12);
    expect(aged.score).toBe(17); // P = 1 / 6
  });

  it('given the same items under v2 and v3, then only the weights differ: v3 moves further from 50', () => {
    const evidence = [v3('weakens', 'strong', { provenance_class: 'computed' })];
    const v2 = score({ methodology_version: 'trust-method/2', as_of: AS_OF, evidence, absences: 0 });
    const now = score({ as_of: AS_OF, evidence, absences: 0 });
    expect(v2.S).toBeCloseTo(1.6, 12); // 0.8 · 2
    expect(now.S).toBeCloseTo(6.4, 12); // 0.8 · 8
    expect(now.score).toBeLessThan(v2.score);
    expect(now.high).toBeLessThan(v2.high);
  });

  it('given perfect conflict of strong items, then the interval is the vacuous one', () => {
    const result = score({
      as_of: AS_OF,
      evidence: [...many(3, v3('supports', 'strong')), ...many(3, v3('weakens', 'strong'))],
      absences: 0,
    });
    expect([result.score, result.low, result.high]).toEqual([50, 5, 95]);
  });
});

describe('trust-method/3: strength is required, and v1 refuses it', () => {
  it('given a v3 item without strength, then ScoringInputError names evidence[i].strength', () => {
    const item = { provenance_class: 'computed', trust_band: 'high', observed_at: AS_OF, disposition: 'supports' } as const;
    const input = { as_of: AS_OF, evidence: [v3('supports', 'weak'), item], absences: 0 };
    expect(() => score(input)).toThrow(ScoringInputError);
    expect(() => score(input)).toThrow(/evidence\[1\]\.strength.*required by trust-method\/3/);
  });

  it('given a v1 item with a strength, then v1 refuses it and points to the current version', () => {
    expect(() => score({ methodology_version: 'trust-method/1', as_of: AS_OF, evidence: [v3('supports', 'weak')], absences: 0 })).toThrow(
      /evidence\[0\]\.strength.*not part of trust-method\/1.*trust-method\/3/,
    );
  });

  it('given an unknown version, then the refusal lists the three known ones', () => {
    expect(() => score({ methodology_version: 'trust-method/4' as never, as_of: AS_OF, evidence: [], absences: 0 })).toThrow(
      /methodology_version.*trust-method\/1, trust-method\/2, trust-method\/3/,
    );
  });
});
