import { execFileSync } from 'node:child_process';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyOut, KeySummaryList } from '../../src/tenancy/schemas.js';
import { bearer, startTestService, type TestService } from '../support/service.js';
import { eventually } from '../support/wait.js';

let ts: TestService;
beforeAll(async () => {
  ts = await startTestService({}, { workers: false });
});
afterAll(async () => ts?.stop());

const json = { 'content-type': 'application/json' };

async function mint(adminKey: string, body: Record<string, unknown>) {
  const res = await fetch(`${ts.base}/v1/admin/keys`, {
    method: 'POST',
    headers: { ...bearer(adminKey), ...json },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
}

async function health(key: string): Promise<number> {
  const res = await fetch(`${ts.base}/v1/health`, { headers: bearer(key) });
  await res.arrayBuffer();
  return res.status;
}

describe('keys through the API', () => {
  it('a minted key works at once and its answer matches KeyOut', async () => {
    const r = await mint(ts.tenant.keys.test_admin, { name: 'ci', scopes: ['registry'], mode: 'test' });
    expect(r.status).toBe(201);
    expect(KeyOut.parse(r.body).secret).toMatch(/^tas_test_/);
    expect(await health(r.body.secret)).toBe(200);
  });

  it('a key cannot mint a key of the other mode (rule K01)', async () => {
    const r = await mint(ts.tenant.keys.test_admin, { name: 'x', scopes: ['registry'], mode: 'live' });
    expect(r.status).toBe(422);
    expect(r.body.detail[0]).toMatchObject({ loc: ['body', 'mode'], type: 'K01' });
  });

  it('after DELETE, the next call with the key gets 401; a second DELETE is 404', async () => {
    const { body } = await mint(ts.tenant.keys.test_admin, { name: 'short-lived', scopes: ['inquiries'], mode: 'test' });
    expect(await health(body.secret)).toBe(200);
    const del = await fetch(`${ts.base}/v1/admin/keys/${body.key_id}`, { method: 'DELETE', headers: bearer(ts.tenant.keys.test_admin) });
    expect(del.status).toBe(204);
    expect(await health(body.secret)).toBe(401);
    const again = await fetch(`${ts.base}/v1/admin/keys/${body.key_id}`, { method: 'DELETE', headers: bearer(ts.tenant.keys.test_admin) });
    expect(again.status).toBe(404);
  });

  it("another tenant's key id is not found, and stays valid", async () => {
    const other = await ts.provision('other-tenant');
    const { body } = await mint(other.keys.test_admin, { name: 'theirs', scopes: ['registry'], mode: 'test' });
    const del = await fetch(`${ts.base}/v1/admin/keys/${body.key_id}`, { method: 'DELETE', headers: bearer(ts.tenant.keys.test_admin) });
    expect(del.status).toBe(404);
    expect(await health(body.secret)).toBe(200);
  });

  it('an expired key gets 401', async () => {
    const expiresAt = Date.now() + 1200;
    const { body } = await mint(ts.tenant.keys.test_admin, {
      name: 'expiring',
      scopes: ['registry'],
      mode: 'test',
      expires_at: new Date(expiresAt).toISOString(),
    });
    expect(await health(body.secret)).toBe(200);
    // Refused from its expiry on: waited for, not slept past.
    await eventually(async () => (await health(body.secret)) === 401, { timeout: 5000, interval: 100, what: 'the expired key refused' });
    expect(Date.now()).toBeGreaterThanOrEqual(expiresAt);
  });

  it('a secret appears in no table, log line or Redis key or value', async () => {
    const { body } = await mint(ts.tenant.keys.test_admin, { name: 'needle', scopes: ['registry'], mode: 'test' });
    const secret: string = body.secret;
    expect(await health(secret)).toBe(200);
    const secretPart = secret.slice(9 + 22, -6);
    const dump = execFileSync('pg_dump', ['--data-only', '--no-owner', ts.dbUrl], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
    expect(dump.length).toBeGreaterThan(1000);
    for (const needle of [secret, secretPart, ...Object.values(ts.tenant.keys)]) {
      expect(dump.includes(needle)).toBe(false);
      expect(ts.logs.join('\n').includes(needle)).toBe(false);
    }
    const redis = new Redis('redis://127.0.0.1:6379');
    try {
      const keys = await redis.keys(`${ts.config.TAS_REDIS_PREFIX}*`);
      for (const k of keys) {
        expect(k.includes(secretPart)).toBe(false);
        const type = await redis.type(k);
        if (type === 'string') expect((await redis.get(k))?.includes(secretPart)).toBe(false);
      }
    } finally {
      redis.disconnect();
    }
  });

  it('a test key sees only test audit rows, a live key only live ones', async () => {
    await health(ts.tenant.keys.live);
    const live = await fetch(`${ts.base}/v1/admin/audit?limit=1000`, { headers: bearer(ts.tenant.keys.live_admin) });
    const test = await fetch(`${ts.base}/v1/admin/audit?limit=1000`, { headers: bearer(ts.tenant.keys.test_admin) });
    const liveRows = (await live.json()) as { action: string; principal: string }[];
    const testRows = (await test.json()) as { action: string; principal: string }[];
    expect(liveRows.length).toBeGreaterThan(0);
    expect(testRows.length).toBeGreaterThan(liveRows.length);
    const liveIds = new Set(liveRows.map((r: any) => r.audit_id));
    expect(testRows.filter((r: any) => liveIds.has(r.audit_id))).toEqual([]);
  });
});

describe('GET /v1/admin/keys', () => {
  it("lists the tenant's keys of the caller's mode, revoked ones marked, never a secret", async () => {
    const minted = await mint(ts.tenant.keys.test_admin, { name: 'listed', scopes: ['registry', 'inquiries'], mode: 'test' });
    const gone = await mint(ts.tenant.keys.test_admin, { name: 'to-revoke', scopes: ['registry'], mode: 'test' });
    await fetch(`${ts.base}/v1/admin/keys/${gone.body.key_id}`, { method: 'DELETE', headers: bearer(ts.tenant.keys.test_admin) });
    const other = await ts.provision('someone-else');
    await fetch(`${ts.base}/v1/admin/keys`, {
      method: 'POST',
      headers: { ...bearer(other.keys.test_admin), ...json },
      body: JSON.stringify({ name: 'theirs', scopes: ['registry'], mode: 'test' }),
    });

    const res = await fetch(`${ts.base}/v1/admin/keys`, { headers: bearer(ts.tenant.keys.test_admin) });
    expect(res.status).toBe(200);
    const text = await res.text();
    const keys = KeySummaryList.parse(JSON.parse(text));
    expect(keys.find((k) => k.key_id === minted.body.key_id)).toMatchObject({
      name: 'listed',
      scopes: ['inquiries', 'registry'],
      mode: 'test',
      prefix: minted.body.prefix,
      revoked_at: null,
    });
    expect(keys.find((k) => k.key_id === gone.body.key_id)?.revoked_at).not.toBeNull();
    expect(keys.every((k) => k.mode === 'test')).toBe(true);
    expect(keys.some((k) => k.name === 'theirs')).toBe(false);
    expect(text).not.toContain(minted.body.secret);
    expect(text).not.toContain(minted.body.secret.slice(13));
  });

  it('needs the admin scope', async () => {
    expect((await fetch(`${ts.base}/v1/admin/keys`, { headers: bearer(ts.tenant.keys.test) })).status).toBe(403);
  });
});

describe('key use and rotation (issue 18)', () => {
  const keys = async () =>
    KeySummaryList.parse(await (await fetch(`${ts.base}/v1/admin/keys`, { headers: bearer(ts.tenant.keys.test_admin) })).json());
  const rotate = (keyId: string, body: Record<string, unknown>, admin = ts.tenant.keys.test_admin) =>
    fetch(`${ts.base}/v1/admin/keys/${keyId}/rotate`, {
      method: 'POST',
      headers: { ...bearer(admin), ...json },
      body: JSON.stringify(body),
    });

  it('a key used to call shows when it was last used; one never used shows null', async () => {
    const used = await mint(ts.tenant.keys.test_admin, { name: 'used', scopes: ['registry'], mode: 'test' });
    const idle = await mint(ts.tenant.keys.test_admin, { name: 'idle', scopes: ['registry'], mode: 'test' });
    expect(await health(used.body.secret)).toBe(200);
    // The mark is written beside the call, not before its answer: wait for it rather than for time.
    const listed = await eventually(
      async () => {
        const all = await keys();
        return all.find((k) => k.key_id === used.body.key_id)?.last_used_at !== null && all;
      },
      { timeout: 2000, interval: 20, what: 'the last-used mark' },
    );
    expect(listed.find((k) => k.key_id === used.body.key_id)?.last_used_at).not.toBeNull();
    expect(listed.find((k) => k.key_id === idle.body.key_id)?.last_used_at).toBeNull();
  });

  it('rotating with a grace period gives a new key at once and keeps the old one working until the grace ends', async () => {
    const old = await mint(ts.tenant.keys.test_admin, { name: 'deploy', scopes: ['registry', 'inquiries'], mode: 'test' });
    const res = await rotate(old.body.key_id, { grace_seconds: 3600 });
    expect(res.status).toBe(201);
    const successor = KeyOut.parse(await res.json());
    expect(successor).toMatchObject({ name: 'deploy', scopes: ['inquiries', 'registry'], mode: 'test' });
    expect(successor.key_id).not.toBe(old.body.key_id);
    expect(await health(successor.secret!)).toBe(200);
    expect(await health(old.body.secret)).toBe(200);
    const ends = Date.parse((await keys()).find((k) => k.key_id === old.body.key_id)!.expires_at!);
    expect(ends).toBeGreaterThan(Date.now() + 3500_000);
    expect(ends).toBeLessThan(Date.now() + 3700_000);
  });

  it('rotating with no grace revokes the old key at once; an unknown or revoked key is 404', async () => {
    const old = await mint(ts.tenant.keys.test_admin, { name: 'leaked', scopes: ['registry'], mode: 'test' });
    const res = await rotate(old.body.key_id, {});
    expect(res.status).toBe(201);
    expect(await health(old.body.secret)).toBe(401);
    expect((await rotate(old.body.key_id, {})).status).toBe(404);
    expect((await rotate('0b0e0d2c-95a4-4d7c-9a53-4b7ad0c0ffee', {})).status).toBe(404);
    expect((await rotate(old.body.key_id, { grace_seconds: -1 })).status).toBe(422);
  });
});
