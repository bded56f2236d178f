import { describe, expect, it } from 'vitest';
import { check as phoneCountry } from '../../src/checks/phoneCountryCheck.js';
import { check as phoneLineType } from '../../src/checks/phoneLineTypeCheck.js';
import { check as phoneValidity } from '../../src/checks/phoneValidityCheck.js';
import { onlySignal, runOn, verdict } from './support.js';

describe('phone_validity', () => {
  it.each([
    ['a valid UK mobile in E.164', '+44 7400 123456', undefined, 'supports'],
    ['a national number read in the claimed country', '07400 123456', 'GB', 'supports'],
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
