import { describe, expect, it } from 'vitest';
import { discoverChecks } from '../../src/checks/registry.js';
import { normalisePresented } from '../../src/checks/normalise.js';
import { formProblem } from '../../src/checks/valueForm.js';
import { check as valueForm } from '../../src/checks/valueFormCheck.js';
import { runInline } from '../../src/assessment/evaluate.js';
import { planChecks } from '../../src/assessment/plan.js';
import { admitEvidence } from '../../src/scoring/summary.js';
import { onlySignal, runOn, verdict } from './support.js';

describe('formProblem: is the value a value of its type?', () => {
  it.each([
    // given type, value, claimed country; then the problem (null: a value of its type)
    ['EMAIL', 'jane.doe@example.com', undefined, null],
    ['EMAIL', 'not an email', undefined, 'it has no @ sign'],
    ['EMAIL', '@example.com', undefined, 'it lacks a mailbox or a domain'],
    ['EMAIL', 'jane@localhost', undefined, 'its domain has no dot'],
    ['EMAIL', 'x@exa_mple.com', undefined, 'its domain is not a valid host name'],
    ['PHONE', '+44 20 7946 0958', undefined, null],
    ['PHONE', 'call me maybe', undefined, 'it cannot be read as a phone number'],
    ['PHONE', '12', undefined, 'it cannot be read as a phone number'],
    // Invalid in its plan, or national with no country to read it in: values of the type, judged by phone_validity.
    ['PHONE', '+44 123', undefined, null],
    ['PHONE', '020 7946 0958', undefined, null],
    ['DOMAIN', 'example.co.uk', undefined, null],
    ['DOMAIN', 'https://www.example.com/path', undefined, null],
    ['DOMAIN', 'bücher.de', undefined, null],
    ['DOMAIN', 'not a domain', undefined, 'it cannot be read as a host name'],
    ['DOMAIN', '-bad-.com', undefined, 'its domain name is not a valid host name'],
    ['DOMAIN', 'exa_mple.com', undefined, 'its domain name is not a valid host name'],
    // A host name all the same, judged by public_suffix and ip_literal_host.
    ['DOMAIN', 'localhost', undefined, null],
    ['DOMAIN', '192.0.2.1', undefined, null],
    ['URL', 'https://shop.example.com/basket', undefined, null],
    ['URL', 'example.com/x', undefined, null],
    ['URL', 'https://_dmarc.example.com/', undefined, null],
    ['URL', 'not a url', undefined, 'it cannot be read as a web address'],
    ['URL', 'https://exa mple.com/x', undefined, 'it cannot be read as a web address'],
    ['URL', 'ftp://example.com/', undefined, 'it cannot be read as a web address'],
    // Types a subject does not type in have no form here.
    ['IP', 'not an ip', undefined, null],
    ['NAME', '!!!', undefined, null],
  ])('given %s %j (country %s), then the problem is %j', (type, value, country, expected) => {
    expect(formProblem(type, value, country)).toBe(expected);
  });
});

describe('value_form', () => {
  it.each([
    ['EMAIL', 'not an email', 'weakens'],
    ['PHONE', 'call me maybe', 'weakens'],
    ['DOMAIN', 'not a domain', 'weakens'],
    ['URL', 'not a url', 'weakens'],
    ['EMAIL', 'jane@example.com', 'nothing'],
    ['PHONE', '+44 20 7946 0958', 'nothing'],
    ['DOMAIN', 'example.com', 'nothing'],
  ])('given %s %j, when checked, then it answers %s', async (type, value, expected) => {
    expect(verdict(await runOn(valueForm, type, value))).toBe(expected);
  });

  it('says what the value was presented as and why it is not one, as a fact about the value', async () => {
    const signal = onlySignal(await runOn(valueForm, 'EMAIL', 'not an email'));
    expect(signal).toMatchObject({
      kind: 'malformed_value',
      disposition: 'weakens',
      strength: 'moderate',
      statement: 'The value presented as an email address is not one: it has no @ sign.',
    });
    expect(signal.fact).toBeUndefined();
  });
});

describe('a malformed presentation through the plan', () => {
  const stake = { kind: 'payment', amount: 50, currency: 'GBP' } as const;

  it.each([
    ['EMAIL', 'not an email'],
    ['PHONE', 'hello'],
    ['DOMAIN', 'not a domain'],
    ['URL', 'https://exa mple.com/'],
  ])('given %s %j, then it is one weakening fact and no absences: the checks that read content are not run', async (type, value) => {
    const checks = await discoverChecks({ dnsServers: ['127.0.0.1:53'], rdapBaseUrl: 'http://127.0.0.1:1' });
    const presentations = normalisePresented([{ type, value }], 'GB');
    expect(presentations[0]!.malformed).toEqual(expect.any(String));
    const plan = planChecks({ inquiryId: 'inq', checks, presentations, tierCeiling: 't2', stake });
    expect(plan.worker).toEqual([]);
    expect(plan.inline.every((p) => p.check.runsOnMalformed === true)).toBe(true);
    const { signals, absences } = await runInline(plan, { presentations, claim: { country: 'GB' } }, {}, new Date());
    expect(absences).toEqual([]);
    expect(admitEvidence(signals).evidence).toEqual([expect.objectContaining({ disposition: 'weakens', strength: 'moderate' })]);
  });

  it('given a well-formed value, then every applicable check is planned as before', async () => {
    const checks = await discoverChecks({});
    const presentations = normalisePresented([{ type: 'EMAIL', value: 'jane@example.com' }], undefined);
    expect(presentations[0]!.malformed).toBeUndefined();
    const plan = planChecks({ inquiryId: 'inq', checks, presentations, tierCeiling: 't0', stake });
    expect(plan.inline.map((p) => p.check.id)).toEqual(checks.filter((c) => c.artifactTypes.includes('EMAIL')).map((c) => c.id));
  });
});
