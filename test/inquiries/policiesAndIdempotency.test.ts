import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownerClient } from '../support/database.js';
import { bearer, startTestService, type TestService } from '../support/service.js';
import { EMAIL_AND_PHONE, inquire, json, providersFile, startProviderFixture, type ProviderFixture } from './support.js';

let ts: TestService;
let owner: pg.Client;
let provider: ProviderFixture;
beforeAll(async () => {
  provider = await startProviderFixture();
  ts = await startTestService({ TAS_PROVIDERS_FILE: providersFile(provider.url, 'Idem Provider Co', 5000) });
  owner = await ownerClient(ts.dbUrl);
});
afterAll(async () => {
  await owner?.end();
  await ts?.stop();
  await provider?.close();
});

async function publish(adminKey: string, rules: unknown[]) {
  const res = await fetch(`${ts.base}/v1/admin/policies`, {
    method: 'POST',
    headers: { ...bearer(adminKey), 'content-type': 'application/json' },
    body: JSON.stringify({
      allowed_purposes: ['fraud_prevention'],
      allowed_intents: ['pre_transaction'],
      render_ceiling: 'template',
      show_findings: true,
      rules,
    }),
  });
  expect(res.status).toBe(201);
  return (await res.json()) as { policy_version: number };
}

describe('policies change labels, never scores', () => {
  it('publishing a policy labels new assessments and leaves scores and published assessments alone', async () => {
    const t = await ts.provision('labels');
    const subject = { ...EMAIL_AND_PHONE, stake: { ...EMAIL_AND_PHONE.stake, deadline_ms: 3000 } };
    provider.handler = (_req, res) => json(res, 200, { risk: 'low' });
    const before = await inquire(ts, subject, t.keys.test);
    expect(before.body.assessment.label).toBeNull();

    const v1 = await publish(t.keys.test_admin, [{ label: 'review', when: { score_lte: 100 } }]);
    const during = await inquire(ts, subject, t.keys.test);
    expect(during.body.assessment.label).toEqual({ value: 'review', policy_version: v1.policy_version });
    expect(during.body.assessment.score).toBe(before.body.assessment.score);
    expect([during.body.assessment.low, during.body.assessment.high]).toEqual([before.body.assessment.low, before.body.assessment.high]);

    const v2 = await publish(t.keys.test_admin, [{ label: 'proceed', when: { low_gte: 0 } }]);
    const after = await inquire(ts, subject, t.keys.test);
    expect(after.body.assessment.label).toEqual({ value: 'proceed', policy_version: v2.policy_version });
    expect(after.body.assessment.score).toBe(before.body.assessment.score);

    // The published assessments read back exactly as they were issued.
    for (const r of [before, during]) {
      const again = await fetch(`${ts.base}/v1/inquiries/${r.body.inquiry_id}`, { headers: bearer(t.keys.test) });
      expect(((await again.json()) as any).assessment).toEqual(r.body.assessment);
    }
  });
});

describe('idempotency_key', () => {
  it('the same key and body replay the stored answer; another body is refused with I17', async () => {
    provider.handler = (_req, res) => json(res, 200, { risk: 'low' });
    const body = { ...EMAIL_AND_PHONE, idempotency_key: 'order-1001' };
    const first = await inquire(ts, body);
    const second = await inquire(ts, body);
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    const count = await owner.query('SELECT count(*)::int AS n FROM inquiries WHERE id = $1', [first.body.inquiry_id]);
    expect(count.rows[0].n).toBe(1);
    const other = await inquire(ts, { ...body, stake: { ...body.stake, amount: 51 } });
    expect(other.status).toBe(422);
    expect(other.body.detail[0]).toMatchObject({ type: 'I17', loc: ['body', 'idempotency_key'] });
  });

  it('the Idempotency-Key header is the same key as the body field; both and different is a 422 naming the header', async () => {
    provider.handler = (_req, res) => json(res, 200, { risk: 'low' });
    const first = await inquire(ts, EMAIL_AND_PHONE, ts.tenant.keys.test, { 'idempotency-key': 'order-3003' });
    const byField = await inquire(ts, { ...EMAIL_AND_PHONE, idempotency_key: 'order-3003' });
    expect(byField.headers.get('idempotent-replayed')).toBe('true');
    expect(byField.body.inquiry_id).toBe(first.body.inquiry_id);
    const both = await inquire(ts, { ...EMAIL_AND_PHONE, idempotency_key: 'order-3004' }, ts.tenant.keys.test, {
      'idempotency-key': 'order-3005',
    });
    expect(both.status).toBe(422);
    expect(both.body.detail[0]).toMatchObject({ type: 'idempotency_key_conflict', loc: ['header', 'Idempotency-Key'] });
  });

  it('keys are scoped by tenant and mode', async () => {
    const body = { ...EMAIL_AND_PHONE, idempotency_key: 'shared-key' };
    const test = await inquire(ts, body, ts.tenant.keys.test);
    const live = await inquire(ts, body, ts.tenant.keys.live);
    expect(live.status).toBe(200);
    expect(live.body.inquiry_id).not.toBe(test.body.inquiry_id);
  });

  it('a concurrent duplicate gets 409 while the first is still being answered', async () => {
    // The provider's call is the proof that the first inquiry is under way (its key claimed, its
    // worker check out), so the duplicate is sent exactly then, not after a guessed pause.
    let underway!: () => void;
    const calledProvider = new Promise<void>((resolve) => (underway = resolve));
    provider.handler = (_req, res) => {
      underway();
      setTimeout(() => json(res, 200, { risk: 'low' }), 800);
    };
    const body = { ...EMAIL_AND_PHONE, idempotency_key: 'order-2002', stake: { ...EMAIL_AND_PHONE.stake, deadline_ms: 2000 } };
    const first = inquire(ts, body);
    await calledProvider;
    const dup = await inquire(ts, body);
    expect(dup.status).toBe(409);
    expect(dup.headers.get('content-type')).toBe('application/problem+json');
    expect((await first).status).toBe(200);
    const replay = await inquire(ts, body);
    expect(replay.body).toEqual((await first).body);
  });
});
