import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/service.js';
import { callAs } from '../material/support.js';
import { inquire } from './support.js';

/**
 * Issue 47 item 3, through the HTTP API as a tenant sends it: phones read as
 * a person reads them. A valid line is evidence with or without a claim; a
 * Guernsey number agrees with a claim of the United Kingdom, and says why;
 * a national number with no country to read it in is not called invalid,
 * and with the tenant's default country (its policy's `default_region`) it
 * is read there.
 */
const about = (value: string, claim?: Record<string, string>) => ({
  subject: { presentations: [{ type: 'PHONE', value }], ...(claim ? { claim } : {}) },
  intent: 'pre_transaction',
  purpose: 'fraud_prevention',
  stake: { kind: 'payment', amount: 50, currency: 'GBP' },
});

const statements = (body: any): string[] => body.findings.findings.map((f: any) => f.statement);
const byDisposition = (body: any, disposition: string): string[] =>
  body.findings.findings.filter((f: any) => f.disposition === disposition).map((f: any) => f.kind);

let ts: TestService;
beforeAll(async () => {
  ts = await startTestService({}, { workers: false });
});
afterAll(async () => {
  await ts?.stop();
});

describe('phones through the API (issue 47)', () => {
  it('given +44 7400 123456 and no claim, then the valid mobile line supports: not 50 [5-95]', async () => {
    const r = await inquire(ts, about('+44 7400 123456'));
    expect(r.status).toBe(200);
    expect(byDisposition(r.body, 'supports')).toEqual(['phone_real_line']);
    expect(byDisposition(r.body, 'weakens')).toEqual([]);
    expect(r.body.assessment.score).toBeGreaterThan(50);
  });

  it('given +44 7911 123456 and a GB claim, then Guernsey and the United Kingdom agree through their shared code', async () => {
    const r = await inquire(ts, about('+44 7911 123456', { country: 'GB' }));
    expect(r.status).toBe(200);
    expect(statements(r.body)).toEqual(
      expect.arrayContaining([
        'The phone number belongs to the numbering plan of Guernsey (GG), calling code +44, a code it shares with United Kingdom (GB), Isle of Man (IM) and Jersey (JE).',
        'The phone number belongs to Guernsey (GG), which shares calling code +44 with the claimed country, United Kingdom (GB): they agree.',
      ]),
    );
    expect(byDisposition(r.body, 'weakens')).toEqual([]);
  });

  it('given 07911 123456, no claim and no default country, then nothing calls it invalid: each phone check says a country is needed', async () => {
    const r = await inquire(ts, about('07911 123456'));
    expect(r.status).toBe(200);
    const everything = [...statements(r.body), ...r.body.findings.absences.map((a: any) => a.reason)];
    for (const text of everything) expect(text).not.toMatch(/not (?:a )?valid/);
    const phoneAbsences = r.body.findings.absences.filter((a: any) => /without a country code/.test(a.reason)).map((a: any) => a.reason);
    expect(phoneAbsences).toHaveLength(3);
    expect(new Set(phoneAbsences).size).toBe(3);
    for (const id of ['phone_validity', 'phone_line_type', 'phone_country'])
      expect(phoneAbsences.some((a: string) => a.includes(id))).toBe(true);
  });

  it("given 07911 123456 and the tenant's default country GB, then it is read there: valid, and a real line", async () => {
    const tenant = await ts.provision(`phones-${Date.now()}`);
    const publish = await callAs(ts, tenant.keys.live_admin, 'POST', '/v1/admin/policies', {
      allowed_purposes: ['fraud_prevention'],
      allowed_intents: ['pre_transaction'],
      render_ceiling: 'template',
      show_findings: true,
      default_region: 'GB',
      rules: [],
    });
    expect(publish.status).toBe(201);
    const r = await inquire(ts, about('07911 123456'), tenant.keys.live);
    expect(r.status).toBe(200);
    expect(statements(r.body)).toContain(
      "The phone number, written without a country code, is valid read in the tenant's default country, United Kingdom (GB).",
    );
    expect(byDisposition(r.body, 'supports')).toEqual(['phone_real_line']);
    expect(r.body.findings.absences.filter((a: any) => /phone_/.test(a.reason))).toEqual([]);
  });
});
