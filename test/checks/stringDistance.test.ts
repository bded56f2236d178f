import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { confusableSkeleton, damerauLevenshtein } from '../../src/checks/stringDistance.js';

describe('damerauLevenshtein (optimal string alignment)', () => {
  it.each([
    ['', '', 0],
    ['', 'abc', 3],
    ['paypal', 'paypal', 0],
    ['paypal', 'paypa', 1],
    ['paypal', 'paypall', 1],
    ['paypal', 'paypel', 1],
    ['paypal', 'papyal', 1],
    ['ca', 'abc', 3],
    ['amazon', 'amzaon', 1],
    ['日本', '本日', 1],
  ])('given %j and %j, then %i', (left, right, expected) => {
    expect(damerauLevenshtein(left, right)).toBe(expected);
  });

  it('is symmetric, zero only for equal strings, and bounded by the lengths', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 12 }), fc.string({ maxLength: 12 }), (left, right) => {
        const distance = damerauLevenshtein(left, right);
        const [a, b] = [Array.from(left).length, Array.from(right).length];
        expect(damerauLevenshtein(right, left)).toBe(distance);
        expect(distance === 0).toBe(left === right);
        expect(distance).toBeGreaterThanOrEqual(Math.abs(a - b));
        expect(distance).toBeLessThanOrEqual(Math.max(a, b));
      }),
    );
  });
});

describe('confusableSkeleton', () => {
  it.each([
    ['paypa1', 'paypal'],
    ['rnicrosoft', 'microsoft'],
    ['g00gle', 'google'],
    ['аррӏе', 'apple'],
    ['pay-pal', 'paypal'],
  ])('given %j, then it reads like %j', (imitation, original) => {
    expect(confusableSkeleton(imitation)).toBe(confusableSkeleton(original));
  });
});
