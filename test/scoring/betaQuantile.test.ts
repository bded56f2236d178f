import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { betaQuantile, incompleteBeta, logGamma } from '../../src/scoring/index.js';

describe('betaQuantile: closed forms (METHODOLOGY.md section 3)', () => {
  it.each([
    { p: 0.05, a: 2, b: 1, expected: 0.2236068, closedForm: Math.sqrt(0.05) },
    { p: 0.95, a: 1, b: 7, expected: 0.3481637, closedForm: 1 - 0.05 ** (1 / 7) },
    { p: 0.05, a: 1, b: 1, expected: 0.05, closedForm: 0.05 },
  ])('given Q($p; $a, $b), then it is $expected to 7 decimals', ({ p, a, b, expected, closedForm }) => {
    const q = betaQuantile(p, a, b);
    expect(q).toBeCloseTo(expected, 7);
    expect(q).toBeCloseTo(closedForm, 12);
  });

  it('given Beta(a, 1), then Q(p) = p^(1/a) (the five-supports bounds)', () => {
    expect(betaQuantile(0.05, 6, 1)).toBeCloseTo(0.05 ** (1 / 6), 12);
    expect(betaQuantile(0.95, 6, 1)).toBeCloseTo(0.95 ** (1 / 6), 12);
  });
});

describe('incompleteBeta and logGamma', () => {
  it('given integer arguments, then logGamma matches ln((n-1)!)', () => {
    expect(logGamma(1)).toBeCloseTo(0, 13);
    expect(logGamma(5)).toBeCloseTo(Math.log(24), 12);
    expect(logGamma(0.5)).toBeCloseTo(0.5 * Math.log(Math.PI), 12);
    expect(logGamma(0.01)).toBeCloseTo(4.599479878042022, 10);
  });

  it('given the ends of [0, 1], then I is 0 and 1', () => {
    expect(incompleteBeta(0, 2, 3)).toBe(0);
    expect(incompleteBeta(1, 2, 3)).toBe(1);
  });

  it('given a and b, then I_x(a, b) = 1 - I_(1-x)(b, a) on both sides of the switch', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0.01, max: 0.99, noNaN: true }),
        fc.double({ min: 0.05, max: 50, noNaN: true }),
        fc.double({ min: 0.05, max: 50, noNaN: true }),
        (x, a, b) => Math.abs(incompleteBeta(x, a, b) - (1 - incompleteBeta(1 - x, b, a))) < 1e-12,
      ),
    );
  });

  it('given a random Beta, then Q inverts I and is monotone in p', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0.01, max: 0.99, noNaN: true }),
        fc.double({ min: 0.1, max: 200, noNaN: true }),
        fc.double({ min: 0.1, max: 200, noNaN: true }),
        (p, a, b) => {
          const q = betaQuantile(p, a, b);
          // Bisection leaves q where I crosses p between neighbouring doubles; where the
          // density is huge (b = 0.1, q = 1 - 4e-9) one ulp moves I by ~5e-10, so test
          // the bracket rather than a fixed tolerance.
          const ulp = Math.max(Number.MIN_VALUE, q * Number.EPSILON);
          expect(incompleteBeta(q - ulp, a, b)).toBeLessThanOrEqual(p + 1e-12);
          expect(incompleteBeta(q + ulp, a, b)).toBeGreaterThanOrEqual(p - 1e-12);
          expect(betaQuantile(Math.min(1, p + 0.005), a, b)).toBeGreaterThanOrEqual(q);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('given bad parameters, then it refuses rather than returning NaN', () => {
    expect(() => betaQuantile(0.5, 0, 1)).toThrow(RangeError);
    expect(() => betaQuantile(Number.NaN, 1, 1)).toThrow(RangeError);
    expect(() => betaQuantile(0.5, 1, Infinity)).toThrow(RangeError);
  });
});
