import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMAIL_AND_PHONE, inquire } from '../inquiries/support.js';
import { ownerClient } from '../support/database.js';
import { bearer, startTestService, type TestService } from '../support/service.js';

/** HTTP conventions clients rely on (issue 16): the caller's request id, and SSE's reconnect delay. */
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

describe('X-Request-Id', () => {
  it("a caller's id is echoed, logged and kept on the audit row", async () => {
    const res = await fetch(`${ts.base}/v1/health`, { headers: { ...bearer(ts.tenant.keys.test), 'x-request-id': 'checkout-7f3a:42' } });
    expect(res.headers.get('x-request-id')).toBe('checkout-7f3a:42');
    const auditId = res.headers.get('x-service-audit-id');
    await expect
      .poll(async () => (await owner.query('SELECT request_id FROM audit_log WHERE audit_id = $1', [auditId])).rows[0]?.request_id)
      .toBe('checkout-7f3a:42');
    expect(ts.logs.some((line) => line.includes('checkout-7f3a:42'))).toBe(true);
  });

  it('an unusable one (too long, or with spaces) is replaced by a fresh id', async () => {
    for (const given of ['x'.repeat(200), 'has spaces in it']) {
      const res = await fetch(`${ts.base}/v1/health`, { headers: { ...bearer(ts.tenant.keys.test), 'x-request-id': given } });
      expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    }
  });
});

describe('HEAD', () => {
  it('answers every GET route with its head and no body', async () => {
    const identity = { 'accept-encoding': 'identity' };
    const get = await fetch(`${ts.base}/openapi.json`, { headers: identity });
    const head = await fetch(`${ts.base}/openapi.json`, { method: 'HEAD', headers: identity });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe(get.headers.get('content-type'));
    expect(head.headers.get('content-length')).toBe(String((await get.arrayBuffer()).byteLength));
    expect((await head.arrayBuffer()).byteLength).toBe(0);
    const keyed = await fetch(`${ts.base}/v1/health`, { method: 'HEAD', headers: bearer(ts.tenant.keys.test) });
    expect(keyed.status).toBe(200);
  });

  it('on an event stream, gives the head without opening the stream', async () => {
    const inquiry = await inquire(ts, EMAIL_AND_PHONE);
    const head = await fetch(`${ts.base}/v1/inquiries/${inquiry.body.inquiry_id}/events`, {
      method: 'HEAD',
      headers: bearer(ts.tenant.keys.test),
    });
    expect([head.status, head.headers.get('content-type')]).toEqual([200, 'text/event-stream']);
  });

  it('is listed in Allow beside GET', async () => {
    const res = await fetch(`${ts.base}/openapi.json`, { method: 'DELETE' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toContain('HEAD');
  });
});

describe('conditional GET and compression', () => {
  it('a GET carries an ETag; If-None-Match with it gets 304 and no body', async () => {
    const first = await fetch(`${ts.base}/openapi.json`);
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await fetch(`${ts.base}/openapi.json`, { headers: { 'if-none-match': etag! } });
    expect(again.status).toBe(304);
    expect((await again.arrayBuffer()).byteLength).toBe(0);
    const other = await fetch(`${ts.base}/openapi.json`, { headers: { 'if-none-match': '"something-else"' } });
    expect(other.status).toBe(200);
  });

  it('a large body is sent with brotli or gzip when asked, and decodes to the same document', async () => {
    const plain = await (await fetch(`${ts.base}/openapi.json`, { headers: { 'accept-encoding': 'identity' } })).text();
    for (const coding of ['br', 'gzip']) {
      const res = await fetch(`${ts.base}/openapi.json`, { headers: { 'accept-encoding': coding } });
      expect(res.headers.get('content-encoding')).toBe(coding);
      expect(res.headers.get('vary')).toBe('Accept-Encoding');
      // fetch decodes the body itself.
      expect(await res.text()).toBe(plain);
    }
    const small = await fetch(`${ts.base}/v1/health`, { headers: { ...bearer(ts.tenant.keys.test), 'accept-encoding': 'br' } });
    expect(small.headers.get('content-encoding')).toBeNull();
  });
});

describe('403', () => {
  it('names the missing scope in an RFC 6750 challenge', async () => {
    const keyWithoutAdmin = ts.tenant.keys.test;
    const res = await fetch(`${ts.base}/v1/admin/keys`, {
      method: 'POST',
      headers: { ...bearer(keyWithoutAdmin), 'content-type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(403);
    expect(res.headers.get('www-authenticate')).toBe('Bearer error="insufficient_scope", scope="admin"');
  });
});

describe('event streams', () => {
  it('tell the client how long to wait before reconnecting', async () => {
    const inquiry = await inquire(ts, EMAIL_AND_PHONE);
    const res = await fetch(`${ts.base}/v1/inquiries/${inquiry.body.inquiry_id}/events`, { headers: bearer(ts.tenant.keys.test) });
    const reader = res.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    await reader.cancel();
    expect(first).toMatch(/^retry: 2000$/m);
  });
});
