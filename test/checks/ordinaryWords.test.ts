import { describe, expect, it } from 'vitest';
import { isSlipSubstitution } from '../../src/checks/domainLookalikeCheck.js';
import { isPlaceName } from '../../src/checks/placeNames.js';
import { isOrdinaryWord } from '../../src/checks/wordRuns.js';

describe('country names as ordinary words', () => {
  it.each([
    ['ireland', true],
    ['saudiarabia', true],
    ['arabia', true],
    ['unitedkingdom', true],
    ['cotedivoire', true],
    ['paypal', false],
    ['amazon', false],
    ['of', false],
  ])('given %s, then isPlaceName is %s', (text, expected) => {
    expect(isPlaceName(text)).toBe(expected);
  });

  it('given a country or an English word, then it is an ordinary word; a brand name is not', () => {
    expect([isOrdinaryWord('iceland'), isOrdinaryWord('planet'), isOrdinaryWord('coinbase')]).toEqual([true, true, false]);
  });
});

describe('a substitution that a slip makes', () => {
  it.each([
    ['binsnce', 'binance', true, 'a neighbouring key on the same row'],
    ['bimance', 'binance', true, 'the next key along the bottom row'],
    ['bjnance', 'binance', true, 'a key on the row below'],
    ['blnance', 'binance', true, 'a look-alike letter'],
    ['b1nance', 'binance', true, 'a look-alike digit'],
    ['bipance', 'binance', false, 'a far-off key'],
    ['binance', 'binance', false, 'no substitution at all'],
    ['bimamce', 'binance', false, 'two substitutions'],
    ['binancee', 'binance', false, 'an insertion'],
  ])('given %s for %s, then it is %s (%s)', (candidate, known, expected) => {
    expect(isSlipSubstitution(candidate, known)).toBe(expected);
  });
});
