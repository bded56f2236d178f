import { describe, expect, it } from 'vitest';
import { check as claimConsistency } from '../../src/checks/claimConsistencyCheck.js';
import type { SubjectClaim } from '../../src/checks/types.js';
import { presentation, runOn } from './support.js';

type Row = [given: string, type: string, value: string, claim: SubjectClaim | undefined, expected: string[]];

/** Each expected entry is `kind:disposition`. */
const ROWS: Row[] = [
  [
    'a UK phone and a claimed GB (agreement is reported; the real line supports: phoneChecks)',
    'PHONE',
    '+44 7400 123456',
    { country: 'GB' },
    ['phone_country_consistency:neutral'],
  ],
  [
    'a Guernsey mobile and a claimed GB (shared calling code)',
    'PHONE',
    '+44 7911 123456',
    { country: 'gb' },
    ['phone_country_consistency:neutral'],
  ],
  ['a French phone and a claimed DE', 'PHONE', '+33 6 12 34 56 78', { country: 'DE' }, ['phone_country_consistency:weakens']],
  ['a phone and no claim', 'PHONE', '+33 6 12 34 56 78', undefined, []],
  ['an invalid phone and a claimed country', 'PHONE', '+44 123', { country: 'GB' }, []],
  ['a mailbox containing the claimed surname', 'EMAIL', 'j.dupont@gmail.com', { name: 'Jean Dupont' }, ['name_email_consistency:supports']],
  [
    'a mailbox with accents folded',
    'EMAIL',
    'zoe.lefevre@example.org',
    { name: 'Zoë Lefèvre' },
    ['name_email_consistency:supports', 'copresented_domain_consistency:neutral'],
  ],
  ['a mailbox unlike the claimed name', 'EMAIL', 'sunshine77@gmail.com', { name: 'Jean Dupont' }, ['name_email_consistency:neutral']],
  [
    'a company email matching the claimed website',
    'EMAIL',
    'jean@acme.com',
    { website: 'https://www.acme.com' },
    ['website_consistency:supports', 'copresented_domain_consistency:neutral'],
  ],
  [
    'a company email unlike the claimed website',
    'EMAIL',
    'jean@other-corp.com',
    { website: 'acme.com' },
    ['website_consistency:weakens', 'copresented_domain_consistency:neutral'],
  ],
  ['a free-mail email and a claimed website', 'EMAIL', 'jean@gmail.com', { website: 'acme.com' }, []],
  ['a domain matching the claimed website', 'DOMAIN', 'shop.acme.co.uk', { website: 'acme.co.uk' }, ['website_consistency:supports']],
  ['a domain matching the claimed email domain', 'DOMAIN', 'acme.com', { email: 'jean@acme.com' }, ['email_domain_consistency:supports']],
  [
    'a domain unlike the claimed email domain',
    'URL',
    'https://acme.com',
    { email: 'jean@acme-mail.com' },
    ['email_domain_consistency:neutral'],
  ],
  ['a domain and a free-mail claimed email', 'DOMAIN', 'acme.com', { email: 'jean@gmail.com' }, []],
];

describe('claim_consistency', () => {
  it.each(ROWS)('given %s, when checked, then %j', async (_given, type, value, claim, expected) => {
    const subject = [presentation(type, value), presentation('URL', 'https://elsewhere.example')];
    const result = await runOn(claimConsistency, type, value, { claim, subject });
    expect(result.absences).toEqual([]);
    expect(result.signals.map((signal) => `${signal.kind}:${signal.disposition}`)).toEqual(expected);
  });

  it('given a company email and a site presented with it, then the match supports', async () => {
    const subject = [presentation('EMAIL', 'jean@acme.com'), presentation('URL', 'https://www.acme.com/')];
    const result = await runOn(claimConsistency, 'EMAIL', 'jean@acme.com', { subject });
    expect(result.signals.map((signal) => `${signal.kind}:${signal.disposition}`)).toEqual(['copresented_domain_consistency:supports']);
  });

  it('names countries in its statements, never a source', async () => {
    const result = await runOn(claimConsistency, 'PHONE', '+33 6 12 34 56 78', { claim: { country: 'DE' } });
    expect(result.signals[0]!.statement).toBe('The phone number belongs to France (FR), not the claimed country Germany (DE).');
  });
});
