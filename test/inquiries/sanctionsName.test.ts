import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/service.js';
import { inquire } from './support.js';

/**
 * Issue 47 item 4, through the HTTP API as a tenant sends it: a NAME is
 * screened against the shipped sanctions list. A listed name typed as a
 * person would type it weakens, with a finding that says only that it
 * matches and how closely; an ordinary name gets the neutral answer.
 */
const about = (value: string) => ({
  subject: { presentations: [{ type: 'NAME', value }] },
  intent: 'pre_transaction',
  purpose: 'fraud_prevention',
  stake: { kind: 'payment', amount: 50, currency: 'USD' },
});

const findingsOf = (body: any): { kind: string; disposition: string; statement: string }[] => body.findings.findings;

let ts: TestService;
beforeAll(async () => {
  ts = await startTestService({}, { workers: false });
});
afterAll(async () => {
  await ts?.stop();
});

describe('names against a sanctions list, through the API (issue 47 item 4)', () => {
  it('given a listed name in lower case and another order, then a weakening exact match below 50 that names neither list nor entry', async () => {
    const r = await inquire(ts, about('senin vladimir borisovich'));
    expect(r.status).toBe(200);
    const match = findingsOf(r.body).filter((f) => f.kind.startsWith('sanctions_match_'));
    expect(match).toEqual([
      expect.objectContaining({
        kind: 'sanctions_match_exact',
        disposition: 'weakens',
        statement: 'The name closely matches a party on a sanctions list (grade: exact).',
      }),
    ]);
    // `about` echoes the caller's own value; no statement or reason carries the list's name, its entry or the listed name.
    const written = [...findingsOf(r.body).map((f) => f.statement), ...r.body.findings.absences.map((a: any) => a.reason)].join(' ');
    expect(written).not.toMatch(/OFAC|SDN|Treasury|senin|borisovich|UKRAINE/i);
    expect(r.body.assessment.score).toBeLessThan(50);
  });

  it('given an ordinary name, then the neutral answer and no weakening finding', async () => {
    const r = await inquire(ts, about('Sarah Thompson'));
    expect(r.status).toBe(200);
    const findings = findingsOf(r.body);
    expect(findings.filter((f) => f.disposition === 'weakens')).toEqual([]);
    expect(findings.map((f) => f.statement)).toContain(
      'The name does not closely match any party of the sanctions list it was screened against.',
    );
  });
});
