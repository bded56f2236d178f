import { describe, expect, it } from 'vitest';
import { auc, calibration, isWithin, likelihoodRatio, sides, supportedStrength, wilson } from '../../bench/quality/stats.js';
import { halfOf, lookalikeOf, prng } from '../../bench/quality/corpus.js';

describe('the quality bench arithmetic', () => {
  it('AUC: all bad below all good is 1, the reverse 0, ties half', () => {
    expect(auc([10, 20], [30, 40])).toBe(1);
    expect(auc([30, 40], [10, 20])).toBe(0);
    expect(auc([50, 50], [50, 50])).toBe(0.5);
    expect(auc([10, 50], [50, 90])).toBe((1 + 1 + 0.5 + 1) / 4);
  });

  it('Wilson: the textbook 95 % interval of 8 in 10', () => {
    const [lo, hi] = wilson(8, 10);
    expect(lo).toBeCloseTo(0.4902, 3);
    expect(hi).toBeCloseTo(0.9433, 3);
    expect(wilson(0, 0)).toEqual([0, 1]);
  });

  it("likelihood ratio: the ratio of shares, read in the fact's direction, with a Katz interval around it", () => {
    const counts = { badWith: 60, bad: 100, goodWith: 6, good: 100 };
    const weakens = likelihoodRatio(counts, 'weakens');
    expect(weakens.lr).toBeCloseTo(10, 6);
    // se = sqrt(1/60 - 1/100 + 1/6 - 1/100), z = 1.645
    const se = Math.sqrt(1 / 60 - 1 / 100 + 1 / 6 - 1 / 100);
    expect(weakens.low).toBeCloseTo(10 * Math.exp(-1.644854 * se), 6);
    const supports = likelihoodRatio(counts, 'supports');
    expect(supports.lr).toBeCloseTo(0.1, 6);
  });

  it("likelihood ratio: a fact never seen on good subjects stays finite (Haldane's half)", () => {
    const r = likelihoodRatio({ badWith: 40, bad: 100, goodWith: 0, good: 100 }, 'weakens');
    expect(Number.isFinite(r.lr)).toBe(true);
    expect(r.lr).toBeCloseTo(40.5 / 101 / (0.5 / 101), 6);
    expect(r.low).toBeGreaterThan(6);
  });

  it('section 8 thresholds on the lower end: 6 strong, 2.8 moderate, 1.4 weak, else neutral', () => {
    expect(supportedStrength(6)).toBe('strong');
    expect(supportedStrength(5.99)).toBe('moderate');
    expect(supportedStrength(2.8)).toBe('moderate');
    expect(supportedStrength(2.79)).toBe('weak');
    expect(supportedStrength(1.4)).toBe('weak');
    expect(supportedStrength(1.39)).toBe('neutral');
    // No subject of the other class showed it: the lower end rests on the half added to the empty cell.
    expect(supportedStrength(30, true)).toBe('moderate');
    expect(supportedStrength(2, true)).toBe('weak');
    expect(isWithin('moderate', 'strong')).toBe(true);
    expect(isWithin('strong', 'moderate')).toBe(false);
    expect(isWithin('weak', 'neutral')).toBe(false);
  });

  it('sides of 50: a whole interval below 50 is right for bad, wrong for good', () => {
    const s = sides([
      { label: 'bad', score: 14, low: 1, high: 38 },
      { label: 'good', score: 14, low: 1, high: 38 },
      { label: 'good', score: 90, low: 71, high: 100 },
      { label: 'bad', score: 50, low: 5, high: 95 },
    ]);
    expect(s).toEqual({ right: 2, wrong: 1, n: 4 });
  });

  it("calibration: a band is honest when the observed share's interval meets its mean interval", () => {
    const honest = Array.from({ length: 20 }, (_, i) => ({
      label: i < 4 ? ('good' as const) : ('bad' as const),
      score: 14,
      low: 1,
      high: 38,
    }));
    const overconfident = Array.from({ length: 20 }, (_, i) => ({
      label: i < 18 ? ('good' as const) : ('bad' as const),
      score: 14,
      low: 1,
      high: 38,
    }));
    expect(calibration(honest)).toMatchObject([{ band: '10-19', n: 20, good: 4, share: 20, honest: true }]);
    expect(calibration(overconfident)).toMatchObject([{ band: '10-19', n: 20, good: 18, honest: false }]);
    expect(calibration([{ label: 'good', score: 100, low: 90, high: 100 }])[0]!.band).toBe('90-100');
  });

  it('corpus: halves and look-alikes are the same on every run', () => {
    expect(halfOf('example.com')).toBe(halfOf('example.com'));
    const a = prng(7);
    const b = prng(7);
    const made = Array.from({ length: 50 }, () => lookalikeOf('metamask.io', a));
    expect(made).toEqual(Array.from({ length: 50 }, () => lookalikeOf('metamask.io', b)));
    expect(made.filter((d) => d === 'metamask.io').length).toBeLessThan(5);
  });
});
