import { describe, expect, it } from 'vitest';
import { check as disposableEmail } from '../../src/checks/disposableEmailCheck.js';
import { check as emailSyntax, emailSyntaxProblem } from '../../src/checks/emailSyntaxCheck.js';
import { check as freeMail } from '../../src/checks/freeMailCheck.js';
import { check as roleAccount } from '../../src/checks/roleAccountCheck.js';
import { DISPOSABLE_EMAIL_DOMAINS, isDisposableDomain } from '../../src/checks/emailDomains.js';
import { NOW, onlySignal, runOn, verdict } from './support.js';

describe('email_syntax', () => {
  // A malformed address is the form check's one fact (valueForm.test.ts); this check says nothing of it.
  it.each([
    ['a plain address', 'jane.doe@example.com', 'neutral'],
    ['sub-addressing and upper case', ' Jane+news@Example.CO.UK ', 'neutral'],
    ['an internationalised domain', 'jan@bücher.de', 'neutral'],
    ['no @ sign', 'jane.example.com', 'nothing'],
    ['an empty mailbox', '@example.com', 'nothing'],
    ['a domain without a dot', 'jane@localhost', 'nothing'],
    ['two consecutive dots', 'jane..doe@example.com', 'nothing'],
    ['a quoted local part', '"jane doe"@example.com', 'nothing'],
    ['an address literal', 'jane@[192.0.2.1]', 'nothing'],
    ['a label starting with a hyphen', 'jane@-example.com', 'nothing'],
    ['a numeric top-level label', 'jane@example.123', 'nothing'],
    ['a 65-character mailbox', `${'a'.repeat(65)}@example.com`, 'nothing'],
  ])('given %s, when checked, then it %s', async (_given, value, expected) => {
    expect(verdict(await runOn(emailSyntax, 'EMAIL', value))).toBe(expected);
  });

  it('states why an address is malformed, in its own words', () => {
    expect(emailSyntaxProblem('jane.example.com')).toBe('it has no @ sign');
    expect(emailSyntaxProblem('jane@example.com')).toBeNull();
  });

  it('stamps the definition fields and the evaluation time on the signal', async () => {
    const signal = onlySignal(await runOn(emailSyntax, 'EMAIL', 'jane@example.com'));
    expect(signal).toEqual({
      kind: 'email_syntax',
      about: 'jane@example.com',
      about_type: 'EMAIL',
      // Measured neutral (good and bad addresses are alike well formed): reported, never scored, so no strength.
      disposition: 'neutral',
      statement: 'The email address is well formed.',
      provenance_class: 'computed',
      trust_band: 'low',
      data_class: 'C1',
      observed_at: NOW.toISOString(),
    });
  });
});

describe('disposable_email', () => {
  it.each([
    ['a throw-away inbox domain', 'x@mailinator.com', 'weakens'],
    ['a sub-domain of one', 'x@eu.mailinator.com', 'weakens'],
    ['upper case', 'X@YOPMAIL.COM', 'weakens'],
    ['an ordinary company domain', 'x@example.com', 'neutral'],
    ['a free-mail provider', 'x@gmail.com', 'neutral'],
    ['no domain at all', 'not-an-email', 'absence:no_data'],
  ])('given %s, when checked, then it %s', async (_given, value, expected) => {
    expect(verdict(await runOn(disposableEmail, 'EMAIL', value))).toBe(expected);
  });
});

describe('free_mail', () => {
  it.each([
    ['gmail', 'jane@gmail.com', /is at a free consumer mailbox/],
    ['a company domain', 'jane@acme-industries.com', /not at a known free/],
  ])('given %s, when checked, then it is reported, never counted', async (_given, value, statement) => {
    const signal = onlySignal(await runOn(freeMail, 'EMAIL', value));
    expect(signal.disposition).toBe('neutral');
    expect(signal.statement).toMatch(statement);
  });

  it('given no domain, then it is an absence', async () => {
    expect(verdict(await runOn(freeMail, 'EMAIL', 'jane'))).toBe('absence:no_data');
  });
});

describe('role_account', () => {
  it.each([
    ['info@ with no claim', 'info@acme.com', undefined, 'neutral'],
    ['info@ for an organisation', 'info@acme.com', { name: 'Jane', organisation: 'Acme' }, 'neutral'],
    ['admin@ for a claimed person', 'admin@acme.com', { name: 'Jane Doe' }, 'weakens'],
    ['sales+eu@ for a claimed person', 'Sales+EU@acme.com', { name: 'Jane Doe' }, 'weakens'],
    ['a personal mailbox', 'jane.doe@acme.com', { name: 'Jane Doe' }, 'neutral'],
    ['no mailbox part', '@acme.com', undefined, 'absence:no_data'],
  ])('given %s, when checked, then it %s', async (_given, value, claim, expected) => {
    expect(verdict(await runOn(roleAccount, 'EMAIL', value, { claim }))).toBe(expected);
  });
});

describe('disposable_email on maintained data', () => {
  // 21cn.com, a real provider, is on the aggregated list but not the curated one: the common providers win over aggregation.
  it.each([
    'gmail.com',
    'outlook.com',
    'yahoo.com',
    'hotmail.com',
    'icloud.com',
    'protonmail.com',
    'gmx.de',
    'siemens.com',
    'bbc.co.uk',
    '21cn.com',
  ])('the provider or company %s is never disposable', async (domain) => {
    expect(verdict(await runOn(disposableEmail, 'EMAIL', `jane.doe@${domain}`))).toBe('neutral');
  });

  it('knows tens of thousands of throw-away domains, and their sub-domains', async () => {
    expect(DISPOSABLE_EMAIL_DOMAINS.size).toBeGreaterThan(20_000);
    expect(verdict(await runOn(disposableEmail, 'EMAIL', 'x@deep.sub.guerrillamail.com'))).toBe('weakens');
    expect(isDisposableDomain('co.uk', null)).toBe(false);
  });

  it('reads the aggregated list as well as the curated one', async () => {
    // aaaagency.net is listed by disposable-domains only, not by mailchecker.
    expect(DISPOSABLE_EMAIL_DOMAINS.size).toBeGreaterThan(100_000);
    expect(verdict(await runOn(disposableEmail, 'EMAIL', 'x@aaaagency.net'))).toBe('weakens');
  });
});
