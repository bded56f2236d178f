import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ObservationOut } from '../../src/observations/schemas.js';
import { EMAIL_AND_PHONE, inquire } from '../inquiries/support.js';
import { ownerClient } from '../support/database.js';
import { bearer, startTestService, type TestService } from '../support/service.js';

let ts: TestService;
let owner: pg.Client;
beforeAll(async () => {
  ts = await startTestService({}, { workers: false });
  owner = await ownerClient(ts.dbUrl);
});
afterAll(async () => {
  await owner?.end();
  await ts?.stop();
});

async function post(path: string, body: unknown, key = ts.tenant.keys.test) {
  const res = await fetch(`${ts.base}${path}`, {
    method: 'POST',
    headers: { ...bearer(key), 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
}

const testimony = (email: string) => ({
  subject: { presentations: [{ type: 'EMAIL', value: email }] },
  provenance_class: 'tenant_supplied',
  summary: 'Paid on time for three years.',
  observed_at: '2026-10-01T00:00:00Z',
  purpose: 'fraud_prevention',
});

describe('observations and outcomes', () => {
  it('an observation is recorded about the resolved entity and never sets a score', async () => {
    const first = await inquire(ts, { ...EMAIL_AND_PHONE, subject: { presentations: [{ type: 'EMAIL', value: 'obs.one@example.org' }] } });
    const r = await post('/v1/observations', testimony('obs.one@example.org'));
    expect(r.status).toBe(201);
    const out = ObservationOut.parse(r.body);
    expect(out).toMatchObject({ kind: 'observation', provenance_class: 'tenant_supplied', entity_id: first.body.assessment.entity_id });
    const ledger = await owner.query('SELECT count(*)::int AS n FROM assessments WHERE entity_id = $1', [out.entity_id]);
    expect(ledger.rows[0].n).toBe(1);
  });

  it('a batch is all or nothing: one refused item (named by its index) writes nothing', async () => {
    const before = (await owner.query('SELECT count(*)::int AS n FROM observations')).rows[0].n;
    const r = await post('/v1/observations/batch', [testimony('a@example.org'), { ...testimony('b@example.org'), purpose: 'marketing' }]);
    expect(r.status).toBe(422);
    expect(r.body.detail[0]).toMatchObject({ loc: ['body', 1, 'purpose'], type: 'I13' });
    expect((await owner.query('SELECT count(*)::int AS n FROM observations')).rows[0].n).toBe(before);
    const ok = await post('/v1/observations/batch', [testimony('a@example.org'), testimony('b@example.org')]);
    expect(ok.status).toBe(201);
    expect(ok.body).toHaveLength(2);
  });

  it('self-attested testimony needs a consent_ref (D36); an analyst assertion needs a case_id (D37)', async () => {
    const selfAttested = await post('/v1/observations', { ...testimony('c@example.org'), provenance_class: 'self_attested' });
    expect(selfAttested.body.detail[0]).toMatchObject({ type: 'D36', loc: ['body', 'consent_ref'] });
    const analyst = await post('/v1/observations', { ...testimony('c@example.org'), provenance_class: 'analyst_asserted' });
    expect(analyst.body.detail[0]).toMatchObject({ type: 'D37', loc: ['body', 'case_id'] });
  });

  it('an outcome must reference an assessment of the same tenant and mode (A01)', async () => {
    const inquiry = await inquire(ts, EMAIL_AND_PHONE);
    const outcome = {
      assessment_id: inquiry.body.assessment.assessment_id,
      decision_ref: 'order-9',
      kind: 'defaulted',
      observed_at: '2026-11-01T00:00:00Z',
    };
    const live = await post('/v1/outcomes', outcome, ts.tenant.keys.live);
    expect(live.status).toBe(422);
    expect(live.body.detail[0]).toMatchObject({ type: 'A01', loc: ['body', 'assessment_id'] });
    const ok = await post('/v1/outcomes', outcome);
    expect(ok.status).toBe(201);
    expect(ObservationOut.parse(ok.body)).toMatchObject({
      kind: 'outcome',
      assessment_id: outcome.assessment_id,
      entity_id: inquiry.body.assessment.entity_id,
    });
  });

  it("a defaulted outcome becomes weakening evidence in the entity's next assessment", async () => {
    const subject = { ...EMAIL_AND_PHONE, subject: { presentations: [{ type: 'EMAIL', value: 'history.case@example.org' }] } };
    const first = await inquire(ts, subject);
    await post('/v1/outcomes', {
      assessment_id: first.body.assessment.assessment_id,
      decision_ref: 'd-1',
      kind: 'defaulted',
      observed_at: new Date().toISOString(),
    });
    const second = await inquire(ts, subject);
    expect(second.body.assessment.score).toBeLessThan(first.body.assessment.score);
    expect(second.body.findings.findings).toContainEqual(
      expect.objectContaining({ provenance_class: 'tenant_supplied', disposition: 'weakens' }),
    );
  });
});
