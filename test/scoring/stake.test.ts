import { describe, it, expect } from 'vitest';
import { extraChecksWorthRunning, isNarrowEnough, maxWidth, stakeTier } from '../../src/scoring/index.js';
import type { Stake } from '../../src/scoring/index.js';

describe('maxWidth: METHODOLOGY.md section 4 examples', () => {
  it.each<{ name: string; stake: Stake; wMax: number }>([
    { name: 'payment, 50, reversible', stake: { kind: 'payment', amount: 50, reversible: true }, wMax: 40 },
    { name: 'payment, 2,500, irreversible', stake: { kind: 'payment', amount: 2_500, reversible: false }, wMax: 21 },
    { name: 'credit, 50,000, irreversible', stake: { kind: 'credit', amount: 50_000, reversible: false }, wMax: 12 },
    { name: 'hire, 60,000, irreversible', stake: { kind: 'hire', amount: 60_000, reversible: false }, wMax: 12 },
    { name: 'listing, no amount, reversible', stake: { kind: 'listing', reversible: true }, wMax: 50 },
  ])('given $name, then w_max is $wMax', ({ stake, wMax }) => {
    expect(maxWidth(stake)).toBe(wMax);
  });

  it.each<{ stake: Stake; wMax: number; why: string }>([
    { stake: { kind: 'listing' }, wMax: 50, why: 'reversible absent counts as reversible' },
    { stake: { kind: 'belief', amount: 99.99 }, wMax: 60, why: 'below 100 keeps f = 1.0' },
    { stake: { kind: 'belief', amount: 100 }, wMax: 51, why: '100 is in the 0.85 band (60·0.85 = 51)' },
    { stake: { kind: 'account', amount: 100_000 }, wMax: 20, why: 'from 100,000 f = 0.40' },
    { stake: { kind: 'credit', amount: 1e9, reversible: false }, wMax: 10, why: '30·0.4·0.75 = 9 is floored at 10' },
    { stake: { kind: 'other', amount: 5_000, reversible: false }, wMax: 26, why: '50·0.7·0.75 = 26.25' },
    { stake: { kind: 'account', amount: 500, reversible: false }, wMax: 32, why: '50·0.85·0.75 = 31.875' },
    { stake: { kind: 'hire', amount: 5_000, reversible: false }, wMax: 16, why: '30·0.7·0.75 = 15.75' },
    { stake: { kind: 'payment', amount: 500, reversible: false }, wMax: 26, why: '40·0.85·0.75 = 25.5 rounds half up' },
  ])('given $stake.kind $stake.amount, then w_max $wMax ($why)', ({ stake, wMax }) => {
    expect(maxWidth(stake)).toBe(wMax);
  });
});

describe('stakeTier and extraChecksWorthRunning', () => {
  it.each([
    { amount: undefined, tier: 0 },
    { amount: 0, tier: 0 },
    { amount: 99, tier: 0 },
    { amount: 100, tier: 1 },
    { amount: 999.99, tier: 1 },
    { amount: 1_000, tier: 2 },
    { amount: 10_000, tier: 3 },
    { amount: 99_999, tier: 3 },
    { amount: 100_000, tier: 4 },
    { amount: Infinity, tier: 4 },
  ])('given amount $amount, then tier $tier', ({ amount, tier }) => {
    expect(stakeTier(amount)).toBe(tier);
  });

  it.each([
    { stake: { amount: 50 }, checks: 2 },
    { stake: { amount: 50, reversible: true }, checks: 2 },
    { stake: { amount: 50, reversible: false }, checks: 4 },
    { stake: { amount: 2_500, reversible: false }, checks: 8 },
    { stake: { amount: 250_000 }, checks: 10 },
    { stake: { amount: 250_000, reversible: false }, checks: 12 },
  ])('given $stake, then $checks extra checks are worth running', ({ stake, checks }) => {
    expect(extraChecksWorthRunning(stake)).toBe(checks);
  });

  it('given a NaN amount, then it refuses', () => {
    expect(() => stakeTier(Number.NaN)).toThrow(/stake.amount/);
  });
});

describe('isNarrowEnough: stop as soon as high - low <= w_max', () => {
  const stake: Stake = { kind: 'payment', amount: 2_500, reversible: false }; // w_max 21
  it.each([
    { low: 60, high: 81, narrow: true },
    { low: 60, high: 82, narrow: false },
    { low: 5, high: 95, narrow: false },
  ])('given [$low, $high], then narrow enough is $narrow', ({ low, high, narrow }) => {
    expect(isNarrowEnough(low, high, stake)).toBe(narrow);
  });
});
