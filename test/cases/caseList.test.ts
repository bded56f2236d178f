import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CaseSummaryList } from '../../src/cases/listSchemas.js';
import { bearer, startTestService, type TestService } from '../support/service.js';

/**
 * GET /v1/cases (issue 38), the listing extension: the key's own tenant and
 * mode only, newest first, in pages, filtered by state, with no admin key.
 */
let ts: TestService;

beforeAll(async () => {
  ts = await startTestService({}, { workers: false });
});

afterAll(async () => {
  await ts?.stop();
});

async function call(method: 'GET' | 'POST', path: string, key: string, body?: unknown) {
  const res = await fetch(`${ts.base}${path}`, {
    method,
    headers: { ...bearer(key), 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

async function openCase(title: string, key = ts.tenant.keys.live): Promise<string> {
  const res = await call('POST', '/v1/cases', key, {
    title,
    purpose: 'investigation',
    authorization: { kind: 'court_order', reference: 'CO-2026-38', issued_by: 'District Court' },
  });
  expect(res.status).toBe(201);
  return res.body.case_id;
}

describe('GET /v1/cases', () => {
  it("lists the key's tenant and mode only, newest first, in pages, and by state", async () => {
    const first = await openCase('First ring');
    const second = await openCase('Second ring');
    const third = await openCase('Third ring');
    const testMode = await openCase('A test-mode case', ts.tenant.keys.test);
    const other = await ts.provision('other-investigator', true);
    await openCase("Another tenant's case", other.keys.live);

    const all = await call('GET', '/v1/cases', ts.tenant.keys.live);
    expect(all.status).toBe(200);
    const listed = CaseSummaryList.parse(all.body);
    expect(listed.map((c) => c.case_id)).toEqual([third, second, first]);
    expect(listed[0]).toMatchObject({ title: 'Third ring', purpose: 'investigation', state: 'open', legal_hold: false });

    const page1 = CaseSummaryList.parse((await call('GET', '/v1/cases?limit=2', ts.tenant.keys.live)).body);
    expect(page1.map((c) => c.case_id)).toEqual([third, second]);
    const page2 = CaseSummaryList.parse((await call('GET', `/v1/cases?limit=2&after=${second}`, ts.tenant.keys.live)).body);
    expect(page2.map((c) => c.case_id)).toEqual([first]);

    expect((await call('POST', `/v1/cases/${second}/close?finding=done`, ts.tenant.keys.live)).status).toBe(200);
    const closed = CaseSummaryList.parse((await call('GET', '/v1/cases?state=closed', ts.tenant.keys.live)).body);
    expect(closed.map((c) => c.case_id)).toEqual([second]);

    const test = CaseSummaryList.parse((await call('GET', '/v1/cases', ts.tenant.keys.test)).body);
    expect(test.map((c) => c.case_id)).toEqual([testMode]);
  });

  it('refuses a key without the cases scope, and a misspelt parameter', async () => {
    const key = await call('POST', '/v1/admin/keys', ts.tenant.keys.live_admin, { name: 'no cases', scopes: ['inquiries'], mode: 'live' });
    expect(key.status).toBe(201);
    expect((await call('GET', '/v1/cases', key.body.secret)).status).toBe(403);
    expect((await call('GET', '/v1/cases?limt=2', ts.tenant.keys.live)).status).toBe(422);
  });
});
