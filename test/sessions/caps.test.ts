import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProvisionedTenant } from '../../src/tenancy/provision.js';
import { bearer, startTestService, type TestService } from '../support/service.js';
import { closeOverRest, connect, openSession, OPEN_BODY, type SessionClient } from './support.js';

/**
 * One tenant's share of live sessions (issue 40): a key, and a tenant with
 * all its keys together, hold at most so many open sessions (429 with
 * Retry-After past either, a place freed by a close), and the tenant's
 * sessions together keep to one frame budget, while another tenant's
 * sessions go on untouched. Settings small enough to reach in a test.
 */
let ts: TestService;
let other: ProvisionedTenant;
let secondKey = '';

beforeAll(async () => {
  ts = await startTestService({ TAS_SESSIONS_PER_KEY: '2', TAS_SESSIONS_PER_TENANT: '3', TAS_SESSION_TENANT_FRAMES_PER_SEC: '5' });
  other = await ts.provision('other');
  const minted = await fetch(`${ts.base}/v1/admin/keys`, {
    method: 'POST',
    headers: { ...bearer(ts.tenant.keys.test_admin), 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'second', scopes: ['sessions'], mode: 'test' }),
  });
  expect(minted.status).toBe(201);
  secondKey = ((await minted.json()) as { secret: string }).secret;
});

afterAll(async () => {
  await ts?.stop();
});

async function connected(key: string): Promise<SessionClient> {
  const opened = await openSession(ts, OPEN_BODY, key);
  expect(opened.status).toBe(201);
  const client = await connect(opened.body);
  await client.waitFor((m) => m.type === 'ready');
  return client;
}

describe('caps on open sessions', () => {
  it('refuses a key past its cap and a tenant past its own with 429 and Retry-After; a close frees a place; another tenant is untouched', async () => {
    const first = await openSession(ts);
    const second = await openSession(ts);
    expect([first.status, second.status]).toEqual([201, 201]);
    const overKey = await openSession(ts);
    expect(overKey.status).toBe(429);
    expect(overKey.headers.get('retry-after')).toBe('5');
    expect(overKey.body).toMatchObject({ status: 429, retry_after: 5 });
    expect(String(overKey.body.detail)).toContain('key');
    // Refused or not, every call has its audit row (SPEC 13).
    expect(overKey.headers.get('x-service-audit-id')).toEqual(expect.any(String));

    expect((await openSession(ts, OPEN_BODY, secondKey)).status).toBe(201);
    const overTenant = await openSession(ts, OPEN_BODY, secondKey);
    expect(overTenant.status).toBe(429);
    expect(String(overTenant.body.detail)).toContain('tenant');

    expect((await openSession(ts, OPEN_BODY, other.keys.test)).status).toBe(201);

    expect((await closeOverRest(ts, first.body.session_id)).status).toBe(202);
    expect((await openSession(ts, OPEN_BODY, secondKey)).status).toBe(201);
    expect((await openSession(ts, OPEN_BODY, secondKey)).status).toBe(429);
    for (const s of [second.body.session_id]) await closeOverRest(ts, s);
  });
});

describe('the tenant frame budget', () => {
  it("refuses `tenant_rate_limited` past the budget of all its sessions together; another tenant's frames go on", async () => {
    const busy = await ts.provision('busy');
    const [a, b, control] = [await connected(busy.keys.test), await connected(busy.keys.test), await connected(other.keys.test)];
    // 16 frames at once from two sessions, each well inside its own burst (40): the tenant's burst is 10.
    for (let i = 1; i <= 8; i += 1) for (const c of [a, b, control]) c.send({ type: 'text', line: `hello ${i}` });
    const replies = (c: SessionClient) => Promise.all(Array.from({ length: 8 }, (_, i) => c.reply(i + 1)));
    const busyReplies = [...(await replies(a)), ...(await replies(b))];
    const refusedRules = busyReplies.filter((r) => r.type === 'refused').map((r) => r.rule);
    expect(refusedRules.length).toBeGreaterThanOrEqual(4);
    expect(new Set(refusedRules)).toEqual(new Set(['tenant_rate_limited']));
    expect((await replies(control)).map((r) => r.type)).toEqual(Array(8).fill('ack'));
    for (const c of [a, b, control]) {
      c.send({ type: 'close' });
      expect((await c.closed).code).toBe(1000);
    }
  });
});
