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
    // 00 is the exit code of most of the world: a person reads 0044 as +44, with or without a claimed country.
    ['an international number dialled out with 00', '0044 7400 123456', undefined, 'neutral'],
    ['an international number dialled out with 00, US claimed', '0044 7400 123456', 'US', 'neutral'],
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
    // given a number, a claimed country and the tenant's default country; then the answer's kind and disposition
    ['a UK mobile, no claim (issue 47)', '+44 7400 123456', undefined, undefined, 'phone_real_line', 'supports', /a mobile line, valid/],
    ['a UK mobile, GB claimed', '+44 7400 123456', 'GB', undefined, 'phone_real_line', 'supports', /a mobile line, valid/],
    ['a London fixed line, no claim', '+44 20 7946 0018', undefined, undefined, 'phone_real_line', 'supports', /a fixed line, valid/],
    ['a London fixed line in national format, GB claimed', '020 7946 0018', 'GB', undefined, 'phone_real_line', 'supports', /fixed line/],
    ['a national UK mobile, read in the default country', '07400 123456', undefined, 'GB', 'phone_real_line', 'supports', /mobile line/],
    ['a Canadian number, CA claimed', '+1 604 555 0123', 'CA', undefined, 'phone_real_line', 'supports', /fixed or mobile line/],
    // Another country than the claimed one is claim_consistency's weakening fact; the line is still a real line.
    ['a UK mobile, FR claimed', '+44 7400 123456', 'FR', undefined, 'phone_real_line', 'supports', /mobile line/],
    ['a toll-free line in the claimed country', '+1 800 555 0199', 'US', undefined, 'phone_line_type', 'neutral', /toll-free/],
    ['a VoIP line in the claimed country', '+44 56 1234 5678', 'GB', undefined, 'phone_line_type', 'weakens', /VoIP/],
  ])('given %s, when checked, then it is %s %s', async (_given, value, country, defaultCountry, kind, disposition, statement) => {
    const claim = country === undefined ? undefined : { country };
    const signal = onlySignal(await runOn(phoneLineType, 'PHONE', value, { claim, ...(defaultCountry ? { defaultCountry } : {}) }));
    expect([signal.kind, signal.disposition]).toEqual([kind, disposition]);
    expect(signal.statement).toMatch(statement);
    // Validity is not goodness, and no labelled corpus of numbers is in reach: weak (src/checks/phoneLineTypeCheck.ts).
    if (disposition === 'supports') expect(signal.strength).toBe('weak');
  });

  it('given an invalid number, then the line type is an absence that names the check', async () => {
    const result = await runOn(phoneLineType, 'PHONE', '+44 123');
    expect(verdict(result)).toBe('absence:no_data');
    expect(result.absences[0]!.reason).toMatch(/phone_line_type/);
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
