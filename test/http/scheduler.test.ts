import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestService, type TestService } from '../support/service.js';

/**
 * Issue 48: every keyed call's handling is a unit of its tenant in the
 * process's one scheduler. With one unit in flight and one waiting per
 * tenant, a burst of one tenant's calls overflows its queue: the overflow is
 * answered 429 with a problem document and Retry-After, the rest are served,
 * and calls without a key (no tenant) are not scheduled at all.
 */
let ts: TestService;
beforeAll(async () => {
  ts = await startTestService(
    { TAS_SCHEDULER_IN_FLIGHT: '1', TAS_SCHEDULER_QUEUE: '1', TAS_RATE_LIMIT_PER_SEC: '100000' },
    { workers: false },
  );
});
afterAll(async () => ts?.stop());

const audit = () => fetch(`${ts.base}/v1/admin/audit?limit=50`, { headers: bearer(ts.tenant.keys.live_admin) });

describe('the scheduler at the edge', () => {
  it("given a tenant's burst past its queue, then 429 with Retry-After for the overflow, 200 for the rest, and open calls untouched", async () => {
    const answers = await Promise.all(
      Array.from({ length: 40 }, async () => {
        const res = await audit();
        return { status: res.status, retryAfter: res.headers.get('retry-after'), body: (await res.json()) as Record<string, unknown> };
      }),
    );
    const refused = answers.filter((a) => a.status === 429);

    expect(answers.every((a) => a.status === 200 || a.status === 429)).toBe(true);
    expect(refused.length).toBeGreaterThan(0);
    expect(answers.length - refused.length).toBeGreaterThan(1);
    for (const r of refused) {
      expect(Number(r.retryAfter)).toBeGreaterThanOrEqual(1);
      expect(r.body).toMatchObject({ type: 'urn:tas:problem:rate-limited', status: 429, retry_after: Number(r.retryAfter) });
    }
    // Open calls have no tenant: never scheduled, never refused by it.
    const health = await Promise.all(
      Array.from({ length: 10 }, () => fetch(`${ts.base}/.well-known/tas-export-keys.json`).then((r) => r.status)),
    );
    expect(health).toEqual(Array.from({ length: 10 }, () => 200));
  });

  it('given the burst over, then the same key is served at once', async () => {
    const res = await audit();
    expect(res.status).toBe(200);
    await res.arrayBuffer();
  });
});
