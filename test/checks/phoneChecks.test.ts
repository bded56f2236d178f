import { describe, expect, it } from 'vitest';
import { check as phoneCountry } from '../../src/checks/phoneCountryCheck.js';
import { check as phoneLineType } from '../../src/checks/phoneLineTypeCheck.js';
import { check as phoneValidity } from '../../src/checks/phoneValidityCheck.js';
import { onlySignal, runOn, verdict } from './support.js';

describe('phone_validity', () => {
  it.each([
    // A valid number is reported only; a real line in the claimed country is phone_line_type's support.
    ['a valid UK mobile in E.164', '+44 7400 123456', undefined, 'neutral'],
    ['a national number read in the claimed country', '07400 123456', 'GB', 'neutral'],
    ['a number too short for its plan', '+44 123', undefined, 'weakens'],
    // Unreadable values are the form check's (valueForm.test.ts).
    ['letters only', 'call me maybe', undefined, 'nothing'],
    ['a national number and no claimed country', '07400 123456', undefined, 'absence:no_data'],
    ['a national number and an unknown claimed country', '07400 123456', 'ZZ', 'absence:no_data'],
  ])('given %s, when checked, then it %s', async (_given, value, country, expected) => {
    const claim = country === undefined ? undefined : { country };
    expect(verdict(await runOn(phoneValidity, 'PHONE', value, { claim }))).toBe(expected);
  });
});

describe('phone_line_type', () => {
  it.each([
    ['a mobile line', '+44 7400 123456', 'neutral', /mobile line/],
    ['a fixed line', '+44 20 7946 0018', 'neutral', /fixed line/],
    ['a toll-free line', '+1 800 555 0199', 'neutral', /toll-free/],
    ['an internet telephony line', '+44 56 1234 5678', 'weakens', /VoIP/],
    ['a premium-rate line', '+44 909 876 5432', 'weakens', /premium-rate/],
    ['a personal forwarding number', '+44 70 1234 5678', 'weakens', /personal forwarding/],
  ])('given %s, when checked, then it %s', async (_given, value, disposition, statement) => {
    const signal = onlySignal(await runOn(phoneLineType, 'PHONE', value));
    expect(signal.disposition).toBe(disposition);
    expect(signal.statement).toMatch(statement);
  });

  it.each([
    // given a number and a claimed country; then the answer's kind and disposition
    [
      'a UK mobile, GB claimed',
      '+44 7400 123456',
      'GB',
      'phone_real_line',
      'supports',
      /a mobile line valid in the claimed country, United Kingdom \(GB\)/,
    ],
    [
      'a London fixed line in national format, GB claimed',
      '020 7946 0018',
      'GB',
      'phone_real_line',
      'supports',
      /a fixed line valid in the claimed country/,
    ],
    ['a Canadian number, CA claimed', '+1 604 555 0123', 'CA', 'phone_real_line', 'supports', /Canada \(CA\)/],
    // The plan places a +1 415 number in the United States: sharing Canada's calling code does not place it there.
    ['a San Francisco number, CA claimed', '+1 415 555 2671', 'CA', 'phone_line_type', 'neutral', /fixed or mobile line\.$/],
    // Another country is claim_consistency's weakening fact, not counted here.
    ['a UK mobile, FR claimed', '+44 7400 123456', 'FR', 'phone_line_type', 'neutral', /mobile line\.$/],
    ['a UK mobile, no country claimed', '+44 7400 123456', undefined, 'phone_line_type', 'neutral', /mobile line\.$/],
    ['a toll-free line in the claimed country', '+1 800 555 0199', 'US', 'phone_line_type', 'neutral', /toll-free/],
    ['a VoIP line in the claimed country', '+44 56 1234 5678', 'GB', 'phone_line_type', 'weakens', /VoIP/],
  ])('given %s, when checked, then it is %s %s', async (_given, value, country, kind, disposition, statement) => {
    const claim = country === undefined ? undefined : { country };
    const signal = onlySignal(await runOn(phoneLineType, 'PHONE', value, { claim }));
    expect([signal.kind, signal.disposition]).toEqual([kind, disposition]);
    expect(signal.statement).toMatch(statement);
    if (disposition === 'supports') expect(signal.strength).toBe('moderate');
  });

  it('given an invalid number, then the line type is an absence', async () => {
    expect(verdict(await runOn(phoneLineType, 'PHONE', '+44 123'))).toBe('absence:no_data');
  });
});

describe('phone_country', () => {
  it.each([
    ['a French mobile', '+33 6 12 34 56 78', /France \(FR\), calling code \+33/],
    ['a Canadian number', '+1 604 555 0123', /Canada \(CA\), calling code \+1/],
    ['a non-geographic number', '+800 1234 5678', /non-geographic number \(\+800\)/],
  ])('given %s, when checked, then the country is reported, not counted', async (_given, value, statement) => {
    const signal = onlySignal(await runOn(phoneCountry, 'PHONE', value));
    expect(signal.disposition).toBe('neutral');
    expect(signal.statement).toMatch(statement);
  });

  it('given garbage, then the country is an absence', async () => {
    expect(verdict(await runOn(phoneCountry, 'PHONE', 'nope'))).toBe('absence:no_data');
  });
});
