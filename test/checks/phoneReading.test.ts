import { describe, expect, it } from 'vitest';
import { getCountries, getExampleNumber, type CountryCode } from 'libphonenumber-js/max';
import examples from 'libphonenumber-js/mobile/examples';
import { check as claimConsistency } from '../../src/checks/claimConsistencyCheck.js';
import { check as phoneCountry } from '../../src/checks/phoneCountryCheck.js';
import { check as phoneLineType } from '../../src/checks/phoneLineTypeCheck.js';
import { check as phoneValidity } from '../../src/checks/phoneValidityCheck.js';
import { regionsSharingCode } from '../../src/checks/phoneParsing.js';
import { check as valueForm } from '../../src/checks/valueFormCheck.js';
import type { CheckContext, CheckDefinition, CheckResult } from '../../src/checks/types.js';
import { contextFor } from './support.js';

/**
 * Issue 47, item 3: phones read as a person reads them. A number in national
 * format is read in the claimed country, else the tenant's default country,
 * and is invalid only when it is valid nowhere it could be meant; territories
 * that share a calling code agree with a claim of a country that shares it;
 * a valid mobile or fixed line is evidence with or without a claim; and no
 * answer holds two statements that contradict each other.
 */
const PHONE_CHECKS: readonly CheckDefinition[] = [valueForm, phoneValidity, phoneLineType, phoneCountry, claimConsistency];

interface Answer {
  statements: { check: string; kind: string; disposition: string; text: string; strength?: string }[];
  absences: { check: string; reason: string }[];
}

function answerFor(value: string, country?: string, defaultCountry?: string): Answer {
  const base = contextFor('PHONE', value);
  const ctx: CheckContext = {
    ...base,
    ...(country === undefined ? {} : { claim: { country } }),
    ...(defaultCountry === undefined ? {} : { defaultCountry }),
  };
  const answer: Answer = { statements: [], absences: [] };
  for (const check of PHONE_CHECKS) {
    const result = check.run(ctx) as CheckResult;
    for (const s of result.signals) {
      answer.statements.push({
        check: check.id,
        kind: s.kind,
        disposition: s.disposition,
        text: s.statement,
        ...(s.strength ? { strength: s.strength } : {}),
      });
    }
    for (const a of result.absences) answer.absences.push({ check: check.id, reason: a.reason });
  }
  return answer;
}

const BELONGS = /belongs to (?:the numbering plan of )?[^.]*?\(([A-Z]{2})\)/g;

/** Every way two statements (or a statement and an absence) of one answer could contradict each other; empty when none do. */
function contradictions(answer: Answer): string[] {
  const found: string[] = [];
  const texts = answer.statements.map((s) => s.text);
  const all = [...texts, ...answer.absences.map((a) => a.reason)];
  const agrees = texts.some((t) => /\bagree/.test(t));
  const differs = texts.some((t) => /not the claimed|not a number of the claimed|differs/.test(t));
  if (agrees && differs) found.push('agrees and differs');
  const valid = all.some((t) => /\bis valid\b|, valid in/.test(t));
  const invalid = all.some((t) => /not a valid|not valid/.test(t));
  if (valid && invalid) found.push('valid and not valid');
  const belongs = new Set(texts.flatMap((t) => [...t.matchAll(BELONGS)].map((m) => m[1]!)));
  if (belongs.size > 1) found.push(`belongs to ${[...belongs].join(' and ')}`);
  // Agreement with a claimed country the number does not belong to must say why: the shared calling code.
  const agreement = texts.find((t) => /agree/.test(t));
  const claimed = agreement?.match(/claimed country, [^()]*\(([A-Z]{2})\)/)?.[1];
  if (agreement !== undefined && claimed !== undefined) {
    for (const country of belongs) {
      if (country !== claimed && !texts.every((t) => !t.includes(`(${country})`) || /shares? (?:calling )?code|a code it shares/.test(t))) {
        found.push(`agrees with ${claimed} but belongs to ${country} unexplained`);
      }
    }
  }
  const kinds = new Map<string, Set<string>>();
  for (const s of answer.statements) kinds.set(s.kind, (kinds.get(s.kind) ?? new Set()).add(s.disposition));
  for (const [kind, dispositions] of kinds)
    if (dispositions.has('supports') && dispositions.has('weakens')) found.push(`${kind} both ways`);
  // Issue 47, item 6: absences name their check, so two of different checks never read the same.
  const reasons = answer.absences.map((a) => a.reason);
  if (new Set(reasons).size !== reasons.length) found.push('two absences read the same');
  for (const a of answer.absences) if (!a.reason.includes(a.check)) found.push(`an absence of ${a.check} does not name it`);
  return found;
}

describe('issue 47: the three reported numbers', () => {
  it('given +44 7400 123456 and no claim, then the valid mobile line is evidence (weak: validity is not goodness)', () => {
    const answer = answerFor('+44 7400 123456');
    const support = answer.statements.filter((s) => s.disposition === 'supports');
    expect(support).toEqual([
      {
        check: 'phone_line_type',
        kind: 'phone_real_line',
        disposition: 'supports',
        text: 'The phone number is a mobile line, valid in its numbering plan.',
        strength: 'weak',
      },
    ]);
    expect(answer.absences).toEqual([]);
    expect(contradictions(answer)).toEqual([]);
  });

  it('given +44 7911 123456 (a Guernsey range) and a GB claim, then it belongs to Guernsey, which shares +44 with GB: they agree', () => {
    const answer = answerFor('+44 7911 123456', 'GB');
    const texts = answer.statements.map((s) => s.text);
    expect(texts).toContain(
      'The phone number belongs to the numbering plan of Guernsey (GG), calling code +44, a code it shares with United Kingdom (GB), Isle of Man (IM) and Jersey (JE).',
    );
    expect(texts).toContain(
      'The phone number belongs to Guernsey (GG), which shares calling code +44 with the claimed country, United Kingdom (GB): they agree.',
    );
    expect(answer.statements.filter((s) => s.disposition === 'weakens')).toEqual([]);
    expect(contradictions(answer)).toEqual([]);
  });

  it('given 07911 123456 and no claim nor default country, then it is not called invalid: the checks say a country is needed, each naming itself', () => {
    const answer = answerFor('07911 123456');
    expect(answer.statements).toEqual([]);
    expect(answer.absences.map((a) => a.check)).toEqual(['phone_validity', 'phone_line_type', 'phone_country']);
    for (const a of answer.absences) {
      expect(a.reason).toMatch(/without a country code/);
      expect(a.reason).not.toMatch(/not (?:a )?valid/);
    }
    expect(contradictions(answer)).toEqual([]);
  });

  it("given 07911 123456 and the tenant's default country GB, then it is read there: valid, a real line, in Guernsey's plan", () => {
    const answer = answerFor('07911 123456', undefined, 'GB');
    expect(answer.absences).toEqual([]);
    expect(answer.statements.map((s) => s.text)).toContain(
      "The phone number, written without a country code, is valid read in the tenant's default country, United Kingdom (GB).",
    );
    expect(answer.statements.find((s) => s.kind === 'phone_real_line')?.disposition).toBe('supports');
    expect(contradictions(answer)).toEqual([]);
  });
});

describe('national numbers are read where they could be meant', () => {
  it.each([
    // given a number, a claimed country, the default country; then phone_validity's answer and statement
    ['a UK national number, GB claimed', '07400 123456', 'GB', undefined, 'neutral', /valid read in the claimed country, United Kingdom/],
    ['a UK national number, FR claimed, GB default', '07400 123456', 'FR', 'GB', 'neutral', /valid read in the tenant's default country/],
    ['a French national number, FR claimed, GB default', '06 12 34 56 78', 'FR', 'GB', 'neutral', /claimed country, France/],
    [
      'a number valid in neither place',
      '0612 345',
      'GB',
      'FR',
      'weakens',
      /not a valid number read in the claimed country, United Kingdom \(GB\), nor in the tenant's default country, France \(FR\)/,
    ],
    ['a number valid nowhere, one place', '07400 12', 'GB', undefined, 'weakens', /not a valid number read in the claimed country/],
    // With its country code, the claim and the default do not move it.
    [
      'an international number, FR default',
      '+44 7400 123456',
      undefined,
      'FR',
      'neutral',
      /^The phone number is valid in its numbering plan\.$/,
    ],
  ])('given %s, then phone_validity is %s', (_given, value, country, defaultCountry, disposition, statement) => {
    const answer = answerFor(value, country, defaultCountry);
    const validity = answer.statements.find((s) => s.check === 'phone_validity');
    expect(validity?.disposition).toBe(disposition);
    expect(validity?.text).toMatch(statement);
    expect(contradictions(answer)).toEqual([]);
  });

  it('given a national UK mobile read in the default country and a FR claim, then the claim differs from where it was read', () => {
    const answer = answerFor('07400 123456', 'FR', 'GB');
    const consistency = answer.statements.find((s) => s.kind === 'phone_country_consistency');
    expect(consistency?.disposition).toBe('weakens');
    expect(consistency?.text).toBe('The phone number belongs to United Kingdom (GB), not the claimed country France (FR).');
  });
});

describe('territories sharing a calling code agree with a claim of a country that shares it', () => {
  it.each([
    ['a Jersey number, GB claimed', 'JE', 'GB'],
    ['an Isle of Man number, GB claimed', 'IM', 'GB'],
    ['a Guernsey number, JE claimed', 'GG', 'JE'],
    ['a Jamaican number, US claimed', 'JM', 'US'],
    ['a US number, CA claimed', 'US', 'CA'],
    ['a Kazakh number, RU claimed', 'KZ', 'RU'],
    ['a Mayotte number, RE claimed', 'YT', 'RE'],
    ['a Christmas Island number, AU claimed', 'CX', 'AU'],
    ['a Svalbard number, NO claimed', 'SJ', 'NO'],
    ['a Saint Barthélemy number, GP claimed', 'BL', 'GP'],
    ['a Bonaire number, CW claimed', 'BQ', 'CW'],
  ])('given %s, then it agrees, saying the code is shared', (_given, region, claimed) => {
    const example = getExampleNumber(region as CountryCode, examples)!;
    const answer = answerFor(example.number, claimed);
    const consistency = answer.statements.find((s) => s.kind === 'phone_country_consistency')!;
    expect(consistency.disposition).toBe('neutral');
    // Either the plan places it in the claimed country itself, or the statement says the code is shared.
    expect(consistency.text).toMatch(/agrees with the claimed country|shares calling code \+\d+ with the claimed country, .*: they agree/);
    expect(contradictions(answer)).toEqual([]);
  });

  it('given a French mobile and a DE claim, then it differs', () => {
    const answer = answerFor('+33 6 12 34 56 78', 'DE');
    expect(answer.statements.find((s) => s.kind === 'phone_country_consistency')?.disposition).toBe('weakens');
    expect(contradictions(answer)).toEqual([]);
  });
});

describe('no answer holds two statements that contradict each other', () => {
  const regions = getCountries();
  const numbers = regions.flatMap((region) => {
    const example = getExampleNumber(region, examples);
    return example === undefined ? [] : [{ region, value: example.number, national: example.formatNational() }];
  });
  const sharing = regions.filter((region) => regionsSharingCode(region).length > 0);
  // For each number: no claim, its own region, every region sharing its code, and a few others (one unknown).
  const claimsFor = (region: CountryCode): (string | undefined)[] => [
    undefined,
    region,
    ...regionsSharingCode(region),
    ...['GB', 'US', 'FR', 'RU', 'ZZ'].filter((other) => other !== region),
  ];

  it('catches the answers reported in issue 47 (the detector itself is tested)', () => {
    const statement = (check: string, kind: string, disposition: string, text: string) => ({ check, kind, disposition, text });
    const reported: Answer = {
      statements: [
        statement(
          'phone_country',
          'phone_country',
          'neutral',
          'The phone number belongs to the numbering plan of Guernsey (GG), calling code +44.',
        ),
        statement(
          'claim_consistency',
          'phone_country_consistency',
          'neutral',
          "The phone number's country agrees with the claimed country, United Kingdom (GB).",
        ),
      ],
      absences: [],
    };
    expect(contradictions(reported)).toEqual(['agrees with GB but belongs to GG unexplained']);
    const alike: Answer = {
      statements: [],
      absences: [
        { check: 'phone_line_type', reason: 'The value cannot be read.' },
        { check: 'phone_country', reason: 'The value cannot be read.' },
      ],
    };
    expect(contradictions(alike)).toEqual([
      'two absences read the same',
      'an absence of phone_line_type does not name it',
      'an absence of phone_country does not name it',
    ]);
  });

  it('holds the generator: an example mobile number for nearly every region, and the shared codes the issue names', () => {
    expect(numbers.length).toBeGreaterThan(200);
    for (const region of ['GG', 'JE', 'IM', 'CA', 'KZ', 'YT', 'BL', 'CW', 'CX', 'SJ'] as CountryCode[]) expect(sharing).toContain(region);
  });

  it(
    'given every example number, international and national, against a grid of claims and default countries, then none contradicts itself',
    { timeout: 60_000 },
    () => {
      const failures: string[] = [];
      for (const { region, value, national } of numbers) {
        for (const claim of claimsFor(region)) {
          for (const [written, defaultCountry] of [
            [value, undefined],
            [national, undefined],
            [national, region],
            [national, 'GB'],
          ] as const) {
            const found = contradictions(answerFor(written, claim, defaultCountry));
            if (found.length > 0)
              failures.push(`${written} (${region}) claim ${claim ?? '-'} default ${defaultCountry ?? '-'}: ${found.join('; ')}`);
          }
        }
      }
      expect(failures.slice(0, 20)).toEqual([]);
    },
  );
});
