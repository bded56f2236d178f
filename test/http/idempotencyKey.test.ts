import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownerClient } from '../support/database.js';
import { bearer, startTestService, type TestService } from '../support/service.js';

/**
 * The Idempotency-Key header on the POSTs that create (issue 16): a retry
 * gets the first answer, not a second resource; another request under the
 * same key is refused (I17); a failed call gives its key back.
 */
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

async function post(path: string, body: unknown, key?: string) {
  const res = await fetch(`${ts.base}${path}`, {
    method: 'POST',
    headers: {
      ...bearer(ts.tenant.keys.test),
      'content-type': 'application/json',
      ...(key === undefined ? {} : { 'Idempotency-Key': key }),
    },
    body: JSON.stringify(body),
  });
  return { status: res.status, replayed: res.headers.get('idempotent-replayed'), body: (await res.json()) as any };
}

const testimony = (summary: string, purpose = 'fraud_prevention') => ({
  subject: { presentations: [{ type: 'EMAIL', value: 'retry.me@example.org' }] },
  provenance_class: 'tenant_supplied',
  summary,
  observed_at: '2026-10-01T00:00:00Z',
  purpose,
});
const count = async (table: string) => Number((await owner.query(`SELECT count(*)::int AS n FROM ${table}`)).rows[0].n);

describe('Idempotency-Key on creating POSTs', () => {
  it('a retry with the same key and body gets the first answer again, marked replayed, and nothing is created twice', async () => {
    const before = await count('observations');
    const first = await post('/v1/observations', testimony('Paid on time.'), 'obs-retry-1');
    expect(first.status).toBe(201);
    expect(first.replayed).toBeNull();
    const again = await post('/v1/observations', testimony('Paid on time.'), 'obs-retry-1');
    expect([again.status, again.replayed]).toEqual([201, 'true']);
    expect(again.body).toEqual(first.body);
    expect(await count('observations')).toBe(before + 1);
    // Without the header every call creates.
    await post('/v1/observations', testimony('Paid on time.'));
    expect(await count('observations')).toBe(before + 2);
  });

  it('the same key with another request is refused by rule I17, naming the header', async () => {
    expect((await post('/v1/observations', testimony('First words.'), 'obs-retry-2')).status).toBe(201);
    const other = await post('/v1/observations', testimony('Other words.'), 'obs-retry-2');
    expect(other.status).toBe(422);
    expect(other.body.detail).toEqual([expect.objectContaining({ loc: ['header', 'Idempotency-Key'], type: 'I17' })]);
  });

  it('a failed call gives its key back, and a malformed key is refused', async () => {
    const refused = await post('/v1/observations', testimony('Marketing.', 'marketing'), 'obs-retry-3');
    expect(refused.status).toBe(422);
    expect((await post('/v1/observations', testimony('Now right.'), 'obs-retry-3')).status).toBe(201);
    const bad = await post('/v1/observations', testimony('x'), 'has space');
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].loc).toEqual(['header', 'Idempotency-Key']);
  });

  it('a case opened twice with one key is one case', async () => {
    const body = {
      title: 'Once',
      purpose: 'investigation',
      authorization: { kind: 'court_order', reference: 'CO-11', issued_by: 'Court' },
    };
    const before = await count("actors WHERE kind = 'case'");
    const a = await post('/v1/cases', body, 'case-once');
    const b = await post('/v1/cases', body, 'case-once');
    expect([a.status, b.status, b.replayed]).toEqual([201, 201, 'true']);
    expect(b.body.case_id).toBe(a.body.case_id);
    expect(await count("actors WHERE kind = 'case'")).toBe(before + 1);
  });
});
