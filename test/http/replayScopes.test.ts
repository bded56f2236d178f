import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMAIL_AND_PHONE, inquire } from '../inquiries/support.js';
import { call } from '../monitors/support.js';
import { bearer, startTestService, type TestService } from '../support/service.js';

/**
 * Issue 40: a stored answer replays only to a key with the same scopes. Two
 * keys of one tenant share its idempotency keys; the one without `findings`
 * used to be served the other's answer, findings included.
 */
let ts: TestService;
let narrow: string;
beforeAll(async () => {
  ts = await startTestService({}, { workers: false });
  const minted = await call(ts, 'POST', '/v1/admin/keys', ts.tenant.keys.test_admin, {
    name: 'no findings',
    scopes: ['inquiries', 'observations'],
    mode: 'test',
  });
  narrow = minted.body.secret as string;
});
afterAll(async () => ts?.stop());

describe('an idempotent replay', () => {
  it('given an inquiry answered with findings, then the same idempotency key from a key without findings is refused (I17), never served the answer', async () => {
    const body = { ...EMAIL_AND_PHONE, idempotency_key: 'replay-scopes-1' };
    const first = await inquire(ts, body);
    expect(first.status).toBe(200);
    expect(first.body.findings).toBeDefined();
    const other = await inquire(ts, body, narrow);
    expect(other.status).toBe(422);
    expect(JSON.stringify(other.body)).not.toContain('"findings"');
    expect(other.body.detail[0].type).toBe('I17');
    // The key that asked first still gets its answer again.
    const again = await inquire(ts, body);
    expect(again.status).toBe(200);
    expect(again.body.inquiry_id).toBe(first.body.inquiry_id);
  });

  it('given an Idempotency-Key on a replayable POST, then another key with other scopes is refused, the same key is replayed', async () => {
    const observation = {
      subject: { presentations: [{ type: 'EMAIL', value: 'someone@example.org' }] },
      provenance_class: 'tenant_supplied',
      summary: 'Paid on time',
      observed_at: '2026-11-01T00:00:00Z',
      purpose: 'fraud_prevention',
    };
    const post = (key: string) =>
      fetch(`${ts.base}/v1/observations`, {
        method: 'POST',
        headers: { ...bearer(key), 'content-type': 'application/json', 'idempotency-key': 'replay-scopes-2' },
        body: JSON.stringify(observation),
      });
    const first = await post(ts.tenant.keys.test);
    expect(first.status).toBe(201);
    const other = await post(narrow);
    expect(other.status).toBe(422);
    expect(other.headers.get('idempotent-replayed')).toBeNull();
    const again = await post(ts.tenant.keys.test);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
  });
});
