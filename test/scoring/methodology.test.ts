import { describe, it, expect } from 'vitest';
import { METHODOLOGY_VERSION, PARAMETERS, ScoringInputError, score as scoreAnyVersion } from '../../src/scoring/index.js';
import { AS_OF, WORKED_EXAMPLES, daysBefore, item, items } from './fixtures.js';

/** These tests pin `trust-method/1` (sections 1-6), which must keep reproducing bit for bit. */
const score = (input: Parameters<typeof scoreAnyVersion>[0]) => scoreAnyVersion({ ...input, methodology_version: 'trust-method/1' });

describe('score: METHODOLOGY.md section 5 worked examples', () => {
  it.each(WORKED_EXAMPLES)('given $name (k = $k), then $expected', ({ evidence, k, expected }) => {
    // When
    const result = score({ as_of: AS_OF, evidence, absences: k });
    // Then
    expect({ score: result.score, low: result.low, high: result.high }).toEqual(expected);
    expect(result.methodology_version).toBe('trust-method/1');
  });

  it('given the partial-conflict example, then the intermediate quantities are those of section 3', () => {
    const result = score({ as_of: AS_OF, evidence: [...items(8, 'supports'), ...items(2, 'weakens')], absences: 0 });
    expect(result).toMatchObject({ R: 8, S: 2, n: 10, n_eff: 6, P: 0.75 });
  });

  it('given two absences, then n_eff is n_c / (1 + k/4)', () => {
    const result = score({ as_of: AS_OF, evidence: items(5, 'supports'), absences: 2 });
    expect(result.n_eff).toBeCloseTo(5 / 1.5, 15);
  });

  it('exports the current version string (v3; v1 stays reproducible)', () => {
    expect(METHODOLOGY_VERSION).toBe('trust-method/3');
  });
});

describe('score: weights (section 3 step 1)', () => {
  it.each([
    { band: 'high', provenance: 'third_party', w: 1.0 },
    { band: 'medium', provenance: 'third_party', w: 0.6 },
    { band: 'low', provenance: 'computed', w: 0.3 * 0.8 },
    { band: 'high', provenance: 'tenant_supplied', w: 0.5 },
    { band: 'high', provenance: 'analyst_asserted', w: 0.5 },
    { band: 'high', provenance: 'self_attested', w: 0.25 },
    { band: 'high', provenance: 'rumour', w: 0.25 },
    { band: 'high', provenance: 'constructor', w: 0.25 },
    { band: 'high', provenance: '__proto__', w: 0.25 },
  ] as const)('given a fresh $band $provenance support, then w = $w', ({ band, provenance, w }) => {
    const result = score({
      as_of: AS_OF,
      evidence: [item('supports', { trust_band: band, provenance_class: provenance })],
      absences: 0,
    });
    expect(result.R).toBeCloseTo(w, 15);
  });

  it('given an item 180 days old, then it weighs half', () => {
    const result = score({ as_of: AS_OF, evidence: [item('supports', { observed_at: daysBefore(180) })], absences: 0 });
    expect(result.R).toBe(0.5);
  });

  it('given two items 180 days old, then they score exactly as one fresh item', () => {
    const old = score({ as_of: AS_OF, evidence: [0, 1].map(() => item('weakens', { observed_at: daysBefore(180) })), absences: 0 });
    const fresh = score({ as_of: AS_OF, evidence: items(1, 'weakens'), absences: 0 });
    expect(old).toEqual(fresh);
  });

  it('given an item 360 days old, then it weighs a quarter', () => {
    const result = score({ as_of: AS_OF, evidence: [item('supports', { observed_at: daysBefore(360) })], absences: 0 });
    expect(result.R).toBe(0.25);
  });

  it('given a future-dated item, then it counts as age 0 (never heavier than fresh)', () => {
    const future = score({ as_of: AS_OF, evidence: [item('supports', { observed_at: daysBefore(-30) })], absences: 0 });
    const fresh = score({ as_of: AS_OF, evidence: items(1, 'supports'), absences: 0 });
    expect(future).toEqual(fresh);
    expect(future.R).toBe(1);
  });

  it('given an offset instead of Z, then the age is measured between instants', () => {
    const shifted = item('supports', { observed_at: '2024-07-05T02:00:00+02:00' }); // 180 days before as_of
    expect(score({ as_of: AS_OF, evidence: [shifted], absences: 0 }).R).toBe(0.5);
  });
});

describe('score: rounding and clamps', () => {
  it('given P = 0.125 exactly, then the score rounds half up to 13, not to even', () => {
    const result = score({ as_of: AS_OF, evidence: items(6, 'weakens'), absences: 0 });
    expect(result.P).toBe(0.125);
    expect(result.score).toBe(13);
  });

  it('given 6 supports (P = 0.875), then 87.5 rounds up to 88', () => {
    const result = score({ as_of: AS_OF, evidence: items(6, 'supports'), absences: 0 });
    expect(result.P).toBe(0.875);
    expect(result.score).toBe(88);
  });

  it('given a mass of support, then every bound stays within 0..100 and contains the score', () => {
    const result = score({ as_of: AS_OF, evidence: items(2_000, 'supports'), absences: 0 });
    expect(result.score).toBe(100);
    expect(result.high).toBe(100);
    expect(result.low).toBeLessThanOrEqual(result.score);
    expect(result.low).toBeGreaterThanOrEqual(99);
  });

  it('given a mass of weakening, then the score is 0 and the interval starts at 0', () => {
    const result = score({ as_of: AS_OF, evidence: items(2_000, 'weakens'), absences: 3 });
    expect(result).toMatchObject({ score: 0, low: 0 });
    expect(result.high).toBeGreaterThanOrEqual(0);
  });

  it('uses the section 2 parameters', () => {
    expect(PARAMETERS).toMatchObject({
      priorWeight: 2,
      baseRate: 0.5,
      halfLifeDays: 180,
      conflict: 1,
      absence: 0.25,
      lowerQuantile: 0.05,
      upperQuantile: 0.95,
      epsilon: 1e-9,
      otherProvenanceWeight: 0.25,
    });
    expect(PARAMETERS.trustBandWeight).toEqual({ high: 1.0, medium: 0.6, low: 0.3 });
  });
});

describe('score: invalid input throws a typed error, never NaN', () => {
  const cases: Array<{ name: string; input: unknown; field: string }> = [
    { name: 'unparseable as_of', input: { as_of: 'yesterday', evidence: [], absences: 0 }, field: 'as_of' },
    { name: 'calendar-invalid as_of', input: { as_of: '2025-02-30T00:00:00Z', evidence: [], absences: 0 }, field: 'as_of' },
    { name: 'local time without offset', input: { as_of: '2025-01-01T00:00:00', evidence: [], absences: 0 }, field: 'as_of' },
    {
      name: 'bad observed_at',
      input: { as_of: AS_OF, evidence: [item('supports'), item('weakens', { observed_at: 'soon' })], absences: 0 },
      field: 'evidence[1].observed_at',
    },
    {
      name: 'unknown trust band',
      input: { as_of: AS_OF, evidence: [{ ...item('supports'), trust_band: 'certain' }], absences: 0 },
      field: 'evidence[0].trust_band',
    },
    {
      name: 'neutral disposition',
      input: { as_of: AS_OF, evidence: [{ ...item('supports'), disposition: 'neutral' }], absences: 0 },
      field: 'evidence[0].disposition',
    },
    { name: 'negative absences', input: { as_of: AS_OF, evidence: [], absences: -1 }, field: 'absences' },
    { name: 'fractional absences', input: { as_of: AS_OF, evidence: [], absences: 1.5 }, field: 'absences' },
  ];

  it.each(cases)('given $name, then ScoringInputError names $field', ({ input, field }) => {
    const attempt = () => score(input as Parameters<typeof score>[0]);
    expect(attempt).toThrow(ScoringInputError);
    try {
      attempt();
    } catch (error) {
      expect(error).toMatchObject({ code: 'ERR_SCORING_INPUT', field });
      expect((error as Error).message).toContain(field);
    }
  });
});
