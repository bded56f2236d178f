import { describe, expect, it } from 'vitest';
import { check as domainShape } from '../../src/checks/domainShapeCheck.js';
import { check as localPart } from '../../src/checks/localPartCheck.js';
import { looksRandom } from '../../src/checks/randomness.js';
import { BRAND_DOMAINS } from '../../src/checks/brandDomains.js';
import { runOn, verdict } from './support.js';

describe('looksRandom', () => {
  it.each(['paypal', 'strength', 'rhythms', 'schwarz', 'ibm', 'bbc', 'kpmg', 'nvidia', 'jane', 'smith'])(
    'a word or acronym is not random: %s',
    (word) => {
      expect(looksRandom(word)).toBe(false);
    },
  );
  it.each(['xkqzvbtr', 'mnbvcxz', 'qwrtzpsd', 'jdfkghlw'])('a keyboard string is random: %s', (text) => {
    expect(looksRandom(text)).toBe(true);
  });
  it.each(['fdpbnzx', 'jbsze', 'txcct', 'qvwkdj'])('letters English spelling never pairs are random: %s', (text) => {
    expect(looksRandom(text)).toBe(true);
  });
  it.each([
    'duckduckgo',
    'nguyen',
    'tkowalski',
    'xiaomi',
    'jingdong',
    'wroclaw',
    'jsmith',
    'bnguyen',
    'janedoe',
    'xrpgift',
    'mvzcrypto',
    'jdsports',
  ])('names from other spellings, run-together words and acronyms beside words are not random: %s', (text) => {
    expect(looksRandom(text)).toBe(false);
  });

  it('calls almost no well-known brand name random, and most strings of random letters random', () => {
    // The brand names were chosen by people in many languages: the letter-pair bar must leave them alone.
    const labels = [...new Set(BRAND_DOMAINS.map((d) => d.split('.')[0]!.replace(/[^a-z]/g, '')))].filter((l) => l.length >= 5);
    const flagged = labels.filter((l) => looksRandom(l));
    expect(labels.length).toBeGreaterThan(2000);
    expect(flagged.length / labels.length).toBeLessThan(0.015);
    // mulberry32 with a fixed seed: the same strings on every run.
    let a = 20261126;
    const next = () => {
      a = (a + 0x6d2b79f5) >>> 0;
      let t = Math.imul(a ^ (a >>> 15), a | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    const strings = Array.from({ length: 1000 }, () =>
      Array.from({ length: 7 }, () => String.fromCharCode(97 + Math.floor(next() * 26))).join(''),
    );
    expect(strings.filter((s) => looksRandom(s)).length / strings.length).toBeGreaterThan(0.6);
  });
});

describe('domain_shape', () => {
  it.each([
    ['an ordinary name', 'DOMAIN', 'example.com', 'neutral'],
    ['a company with one hyphen', 'DOMAIN', 'siemens-energy.com', 'neutral'],
    ['hyphenated words', 'DOMAIN', 'north-west-bakery.com', 'weakens'],
    ['mixed digits', 'URL', 'https://acc0unt1234.net/', 'weakens'],
    // A random-looking name is measured neutral (institutions' acronyms read so too): reported, not scored.
    ['a random string', 'EMAIL', 'x@qwrtzpsdfg.com', 'neutral'],
    ['letters no word pairs', 'DOMAIN', 'fdpbnzx.top', 'neutral'],
    ["a brand's own odd-looking name", 'DOMAIN', 'airbnb.com', 'neutral'],
    ['an IP host', 'URL', 'http://192.0.2.1/', 'none'],
    ['a punycode host in a web address', 'URL', 'https://xn--pypal-4ve.com/', 'weakens'],
    ['an internationalised name as typed', 'DOMAIN', 'bücher.de', 'weakens'],
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
    ['a punycode name, whose xn-- and encoding digits are not the name', 'xn--yetherwallet-634f.com', ['domain_punycode']],
    ['a Cyrillic name in punycode', 'xn--80aabqk5atp.com', ['domain_punycode']],
    ['a punycode name with hyphens of its own', 'xn--mnchen-konto-login-m6b.de', ['domain_hyphens', 'domain_lure_word', 'domain_punycode']],
    ['a punycode sub-domain of an ordinary name', 'xn--pypal-4ve.example.com', ['domain_punycode']],
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
