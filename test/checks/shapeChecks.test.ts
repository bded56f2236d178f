import { describe, expect, it } from 'vitest';
import { check as domainShape } from '../../src/checks/domainShapeCheck.js';
import { check as localPart } from '../../src/checks/localPartCheck.js';
import { looksRandom } from '../../src/checks/randomness.js';
import { runOn, verdict } from './support.js';

describe('looksRandom', () => {
  it.each(['paypal', 'strength', 'rhythms', 'schwarz', 'ibm', 'bbc', 'kpmg', 'nvidia', 'jane', 'smith'])('a word or acronym is not random: %s', (word) => {
    expect(looksRandom(word)).toBe(false);
  });
  it.each(['xkqzvbtr', 'mnbvcxz', 'qwrtzpsd', 'jdfkghlw'])('a keyboard string is random: %s', (text) => {
    expect(looksRandom(text)).toBe(true);
  });
});

describe('domain_shape', () => {
  it.each([
    ['an ordinary name', 'DOMAIN', 'example.com', 'neutral'],
    ['a company with one hyphen', 'DOMAIN', 'siemens-energy.com', 'neutral'],
    ['hyphenated words', 'DOMAIN', 'north-west-bakery.com', 'weakens'],
    ['mixed digits', 'URL', 'https://acc0unt1234.net/', 'weakens'],
    ['a random string', 'EMAIL', 'x@qwrtzpsdfg.com', 'weakens'],
    ['an IP host', 'URL', 'http://192.0.2.1/', 'none'],
  ])('given %s, then it %s', async (_given, type, value, expected) => {
    const result = await runOn(domainShape, type, value);
    expect(result.signals.length === 0 ? 'none' : verdict(result)).toBe(expected);
  });
});

describe('domain_shape lure words', () => {
  it.each([
    ['keyword stuffing', 'secure-login-verify.com', ['domain_hyphens', 'domain_lure_word']],
    ['bait run together with a name', 'ethgiveaway.net', ['domain_lure_word']],
    ['a short bait word as a token', 'free-tokens.io', ['domain_lure_word']],
    ['a short bait word inside another word', 'freedom.org', []],
    ['an ordinary company', 'siemens-energy.com', []],
  ])('given %s (%s), then it finds %j', async (_given, value, kinds) => {
    const result = await runOn(domainShape, 'DOMAIN', value);
    expect(result.signals.filter((s) => s.disposition === 'weakens').map((s) => s.kind)).toEqual(kinds);
  });
});

describe('local_part', () => {
  it.each([
    ['a name', 'jane.doe@example.com', 'neutral'],
    ['a random string', 'xkqzvbtrw@example.com', 'weakens'],
    ['a long digit run', 'user83749261@example.com', 'weakens'],
  ])('given %s, then it %s', async (_given, value, expected) => {
    expect(verdict(await runOn(localPart, 'EMAIL', value))).toBe(expected);
  });

  it('reports plus addressing without counting it', async () => {
    const result = await runOn(localPart, 'EMAIL', 'jane+shop@example.com');
    expect(result.signals).toEqual([expect.objectContaining({ kind: 'plus_addressing', disposition: 'neutral' })]);
  });
});
