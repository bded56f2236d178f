import { describe, expect, it } from 'vitest';
import { buildFindings } from '../../src/assessment/findings.js';
import { admitEvidence, packFindings, packInputs, toLedgerSignals, unpackFindings, unpackInputs } from '../../src/scoring/index.js';
import type { Absence, Signal } from '../../machines/types.js';

const INQUIRY = '01a21e73-fdca-72f8-a2bc-5e53058581df';
const ASSESSMENT = '01a21e73-fdcb-702f-92e3-3253ff2d30fe';
const AS_OF = '2026-11-27T19:20:47.818Z';
const row = { inquiryId: INQUIRY, assessmentId: ASSESSMENT };

function signal(over: Partial<Signal> = {}): Signal {
  return {
    kind: 'email_syntax',
    about: 'ana.doe@gmx.de',
    about_type: 'EMAIL',
    disposition: 'neutral',
    statement: 'The email address is well formed.',
    provenance_class: 'computed',
    trust_band: 'low',
    data_class: 'C1',
    observed_at: AS_OF,
    ...over,
  };
}

const SIGNALS: Signal[] = [
  signal(),
  signal({ kind: 'name_email_consistency', disposition: 'supports', strength: 'weak', trust_band: 'medium' }),
  signal({ kind: 'phone_shape', about: '+447700900123', about_type: 'PHONE', statement: 'The number is a mobile number.' }),
  // Observed before the assessment (a worker's answer, a tenant's record): its own observed_at is kept.
  signal({
    kind: 'outcome',
    disposition: 'weakens',
    strength: 'strong',
    observed_at: '2026-10-01T00:00:00.000Z',
    provenance_class: 'tenant_supplied',
  }),
  signal({ kind: 'domain_shape', about: 'doe.example', about_type: 'DOMAIN', statement: 'Odd "quotes" and ünïcödé \u0000 survive.' }),
];
const ABSENCES: Absence[] = [
  { about: 'doe.example', about_type: 'DOMAIN', kind: 'timeout', reason: 'The check did not answer before the deadline.' },
];

function findingsOf(signals = SIGNALS, absences = ABSENCES) {
  return buildFindings({
    inquiryId: INQUIRY,
    assessmentId: ASSESSMENT,
    subject: [
      { type: 'EMAIL', value: 'ana.doe@gmx.de' },
      { type: 'PHONE', value: '+447700900123' },
      { type: 'ACCOUNT', value: '@ana99' },
    ],
    signals,
    absences,
    graph: undefined,
    coverage: { tierCeiling: 't1', checksRun: 7, checksAnswered: 6, gaps: [] },
    generatedAt: AS_OF,
  });
}

function inputsOf(signals = SIGNALS) {
  return { methodology_version: 'trust-method/3', as_of: AS_OF, evidence: toLedgerSignals(admitEvidence(signals).signals), absences: 1 };
}

describe('the stored findings: a lossless compact form', () => {
  it('given findings as built, when packed and unpacked, then every key, value and key order comes back', () => {
    const findings = findingsOf();
    const stored = packFindings(findings);
    expect(stored).toHaveProperty('form', 'compact/1');
    const back = unpackFindings(JSON.parse(JSON.stringify(stored)), row);
    expect(JSON.stringify(back)).toBe(JSON.stringify(findings));
  });

  it('given an email inquiry’s findings, then the stored form is well under half the published one', () => {
    const many = Array.from({ length: 30 }, (_, i) => signal({ kind: `check_${i}`, statement: `Statement number ${i} about the value.` }));
    const findings = findingsOf(many, []);
    expect(JSON.stringify(packFindings(findings)).length).toBeLessThan(JSON.stringify(findings).length * 0.45);
  });

  it('given no findings and no absences, then the round trip holds', () => {
    const findings = findingsOf([], []);
    expect(unpackFindings(packFindings(findings), row)).toEqual(findings);
  });

  it('given a finding whose id is not the one its fields give, then the findings are stored as they are', () => {
    const findings = findingsOf();
    findings.findings[1] = { ...findings.findings[1]!, finding_id: 'fnd_000000000000000000000000' };
    expect(packFindings(findings)).toBe(findings);
  });

  it('given a finding with a field the form does not know, then the findings are stored as they are', () => {
    const findings = findingsOf();
    findings.findings[0] = { ...findings.findings[0]!, extra: 'x' } as (typeof findings.findings)[0];
    expect(packFindings(findings)).toBe(findings);
  });

  it('given a finding with a field that is not a string, then the findings are stored as they are', () => {
    const findings = findingsOf();
    findings.findings[0] = { ...findings.findings[0]!, statement: 42 as unknown as string };
    expect(packFindings(findings)).toBe(findings);
  });

  it('given a finding as built, then it is frozen: the fields its id was worked out from cannot change', () => {
    const [first] = findingsOf().findings;
    expect(Object.isFrozen(first)).toBe(true);
    expect(() => Object.assign(first!, { statement: 'Changed.' })).toThrow(TypeError);
  });

  it('given findings built for one inquiry under another inquiry’s envelope, then their ids are checked and they are stored as they are', () => {
    const findings = { ...findingsOf(), inquiry_id: '01a21e73-fdca-72f8-a2bc-000000000000' };
    expect(packFindings(findings)).toBe(findings);
  });

  it('given a copy of a built finding with the same fields, then its id is worked out again and it packs as the original does', () => {
    const findings = findingsOf();
    const copied = { ...findings, findings: findings.findings.map((f) => ({ ...f })) };
    expect(packFindings(copied)).toEqual(packFindings(findings));
  });

  it('given findings written before the compact form, then unpacking passes them through unchanged', () => {
    const old = findingsOf();
    expect(unpackFindings(old, row)).toBe(old);
    expect(unpackFindings(null, row)).toBeNull();
  });

  it('given a stored form naming a value it does not hold, then reading it fails loudly', () => {
    const stored = packFindings(findingsOf()) as { findings: unknown[][] };
    stored.findings[0]![0] = 99;
    expect(() => unpackFindings(stored, row)).toThrow(/value 99/);
  });
});

describe('the stored scoring inputs: a lossless compact form', () => {
  it('given inputs as assess() records them, when packed and unpacked, then they come back key for key', () => {
    const inputs = inputsOf();
    const stored = packInputs(inputs);
    expect(stored).toHaveProperty('form', 'compact/1');
    expect(JSON.stringify(unpackInputs(JSON.parse(JSON.stringify(stored))))).toBe(JSON.stringify(inputs));
    expect(JSON.stringify(stored).length).toBeLessThan(JSON.stringify(inputs).length * 0.6);
  });

  it('given inputs naming the data snapshots their evidence was read from, then the snapshots survive the round trip', () => {
    const inputs = { ...inputsOf(), data_snapshots: ['popularity:list.csv@0123456789ab', 'sanctions:sdn.csv@ba9876543210'] };
    const stored = packInputs(inputs);
    expect(stored).toHaveProperty('form', 'compact/1');
    expect(JSON.stringify(unpackInputs(JSON.parse(JSON.stringify(stored))))).toBe(JSON.stringify(inputs));
  });

  it('given data snapshots that are not a list of names, then the inputs are stored as they are', () => {
    const inputs = { ...inputsOf(), data_snapshots: [7] };
    expect(packInputs(inputs)).toBe(inputs);
  });

  it('given inputs of an older shape (absences as a list), then they are stored and read as they are', () => {
    const old = { ...inputsOf(), absences: [{ kind: 'timeout' }] };
    expect(packInputs(old)).toBe(old);
    expect(unpackInputs(old)).toBe(old);
  });

  it('given an evidence item with descriptive fields, then the inputs are stored as they are', () => {
    const inputs = inputsOf();
    (inputs.evidence[0] as unknown as Record<string, unknown>).statement = 'kept';
    expect(packInputs(inputs)).toBe(inputs);
  });
});
