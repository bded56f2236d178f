import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestService, type TestService } from '../support/service.js';
import { publishPolicy } from '../support/policies.js';

/**
 * The edge reads no policy (issue 49: it imports no capability but the auth
 * and audit doors): whether a page's origin may call with a tenant's key
 * (rule O01) is the policies' command `originAllowed`, which the root hands
 * to the edge. Over real HTTP, with an Origin header: the listed origin's
 * call runs and is told it may read the answer, another's is refused before
 * it runs. (test/browser/cors.test.ts walks the same from Chromium.)
 */
let ts: TestService;
const LISTED = 'https://app.example.test';
const OTHER = 'https://elsewhere.example.test';

beforeAll(async () => {
  ts = await startTestService({}, { workers: false });
  const policy = await publishPolicy(ts.base, ts.tenant.keys.test_admin, { allowed_origins: [LISTED] });
  expect(policy.status).toBe(201);
});

afterAll(async () => {
  await ts?.stop();
});

const listPolicies = (origin: string) =>
  fetch(`${ts.base}/v1/admin/policies`, { headers: { ...bearer(ts.tenant.keys.test_admin), origin } });

describe("a page's origin, as the tenant's policy lists it", () => {
  it('given the listed origin, then the call runs and the page may read it', async () => {
    const res = await listPolicies(LISTED);
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe(LISTED);
  });

  it('given another origin, then the call is refused before it runs (403, rule O01)', async () => {
    const res = await listPolicies(OTHER);
    expect(res.status).toBe(403);
    expect(((await res.json()) as { rule?: string }).rule).toBe('O01');
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });
});
