import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, WATCH } from '../monitors/support.js';
import { ownerClient } from '../support/database.js';
import { bearer, startTestService, type TestService } from '../support/service.js';
import { eventually } from '../support/wait.js';

/**
 * Issue 40: no API key in a stream's URL. A browser opens an event stream
 * with a one-time ticket minted by an authenticated call; `?access_token=` is
 * refused unless the operator allows it, and then carries a Deprecation
 * header. A stream ends when its key is revoked, even when the revocation's
 * Redis message never comes (the database is re-checked on a timer), and
 * when its key expires.
 */
let ts: TestService;
let allowing: TestService;
beforeAll(async () => {
  [ts, allowing] = await Promise.all([
    startTestService({ TAS_STREAM_KEY_RECHECK_MS: '200', TAS_STREAM_TICKET_TTL_SECONDS: '1' }, { workers: false }),
    startTestService({ TAS_STREAM_ACCESS_TOKEN: 'allow' }, { workers: false }),
  ]);
});
afterAll(async () => {
  await ts?.stop();
  await allowing?.stop();
});

async function readUntil(reader: ReadableStreamDefaultReader<Uint8Array>, needle: string): Promise<string> {
  let text = '';
  const decoder = new TextDecoder();
  while (!text.includes(needle)) {
    const { done, value } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  return text;
}

/** Everything until the server ends the response. */
async function rest(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<string> {
  let text = '';
  const decoder = new TextDecoder();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text;
    text += decoder.decode(value, { stream: true });
  }
}

async function watcher(service: TestService, expiresAt?: string) {
  const minted = await call(service, 'POST', '/v1/admin/keys', service.tenant.keys.test_admin, {
    name: 'page',
    scopes: ['monitors'],
    mode: 'test',
    ...(expiresAt ? { expires_at: expiresAt } : {}),
  });
  expect(minted.status).toBe(201);
  const key = minted.body.secret as string;
  const monitor = await call(service, 'POST', '/v1/monitors', key, { ...WATCH, cadence_seconds: 3600, triggers: { label_change: true } });
  expect(monitor.status).toBe(201);
  return {
    key,
    keyId: minted.body.key_id as string,
    monitorId: monitor.body.monitor_id as string,
    eventsUrl: monitor.body.events_url as string,
  };
}

async function ticketFor(service: TestService, key: string, monitorId: string) {
  return call(service, 'POST', `/v1/monitors/${monitorId}/events/tickets`, key);
}

describe('stream tickets', () => {
  it('a ticket minted with the key opens its stream once; the URL carries no key', async () => {
    const w = await watcher(ts);
    const minted = await ticketFor(ts, w.key, w.monitorId);
    expect(minted.status).toBe(201);
    expect(minted.body.ticket).toMatch(/^tst_[A-Za-z0-9_-]{43}$/);
    expect(minted.body.events_url).toBe(`${ts.base}/v1/monitors/${w.monitorId}/events?ticket=${minted.body.ticket}`);
    expect(minted.body.events_url).not.toContain(w.key);

    const res = await fetch(minted.body.events_url);
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    await readUntil(reader, ': stream open');
    await reader.cancel();

    const again = await fetch(minted.body.events_url);
    expect(again.status).toBe(401);
    await again.arrayBuffer();
  });

  it('a ticket opens only the stream it names, and not after it expires', async () => {
    const w = await watcher(ts);
    const other = await watcher(ts);
    const minted = await ticketFor(ts, w.key, w.monitorId);
    const elsewhere = await fetch(`${ts.base}/v1/monitors/${other.monitorId}/events?ticket=${minted.body.ticket}`);
    expect(elsewhere.status).toBe(401);
    await elsewhere.arrayBuffer();

    const late = await ticketFor(ts, w.key, w.monitorId);
    // Refused from its expiry on: each try that still opened the stream is closed again.
    const expired = await eventually(
      async () => {
        const res = await fetch(late.body.events_url);
        if (res.status === 401) return res;
        await res.body?.cancel();
        return null;
      },
      { timeout: 5000, interval: 100, what: 'the expired ticket refused' },
    );
    expect(expired.status).toBe(401);
    await expired.arrayBuffer();
  });

  it("a ticket for a stream of another tenant is not minted (404), and a key without the stream's scope gets 403", async () => {
    const w = await watcher(ts);
    const stranger = await ts.provision('stranger');
    expect((await ticketFor(ts, stranger.keys.test, w.monitorId)).status).toBe(404);
    const narrow = await call(ts, 'POST', '/v1/admin/keys', ts.tenant.keys.test_admin, {
      name: 'narrow',
      scopes: ['inquiries'],
      mode: 'test',
    });
    expect((await ticketFor(ts, narrow.body.secret, w.monitorId)).status).toBe(403);
  });

  it('a ticket whose key was revoked before it was used opens nothing', async () => {
    const w = await watcher(ts);
    const minted = await ticketFor(ts, w.key, w.monitorId);
    expect((await call(ts, 'DELETE', `/v1/admin/keys/${w.keyId}`, ts.tenant.keys.test_admin)).status).toBe(204);
    const res = await fetch(minted.body.events_url);
    expect(res.status).toBe(401);
    await res.arrayBuffer();
  });
});

describe('an API key in the URL', () => {
  it('is refused by default, with no stream opened', async () => {
    const w = await watcher(ts);
    const res = await fetch(`${w.eventsUrl}?access_token=${encodeURIComponent(w.key)}`);
    expect(res.status).toBe(401);
    expect(((await res.json()) as { detail: string }).detail).toMatch(/ticket/);
  });

  it('where the operator allows it, opens the stream with a Deprecation header', async () => {
    const w = await watcher(allowing);
    const res = await fetch(`${w.eventsUrl}?access_token=${encodeURIComponent(w.key)}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('deprecation')).toMatch(/^@\d+$/);
    await res.body!.cancel();
    // The header stays the way for servers: no Deprecation there.
    const header = await fetch(w.eventsUrl, { headers: bearer(w.key) });
    expect(header.headers.get('deprecation')).toBeNull();
    await header.body!.cancel();
  });
});

describe("a stream outlives neither its key's revocation nor its expiry", () => {
  it('given a revocation written to the database with no message on the bus, then the stream ends within the re-check, saying why', async () => {
    const w = await watcher(ts);
    const res = await fetch((await ticketFor(ts, w.key, w.monitorId)).body.events_url);
    const reader = res.body!.getReader();
    await readUntil(reader, ': stream open');
    const owner = await ownerClient(ts.dbUrl);
    try {
      await owner.query('UPDATE api_keys SET revoked_at = now() WHERE id = $1', [w.keyId]);
    } finally {
      await owner.end();
    }
    const started = Date.now();
    const tail = await rest(reader);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(tail).toContain('"reason":"key_revoked"');
  });

  it('given a key that expires while its stream is open, then the stream ends at the expiry', async () => {
    const w = await watcher(ts, new Date(Date.now() + 1500).toISOString());
    const res = await fetch(w.eventsUrl, { headers: bearer(w.key) });
    const reader = res.body!.getReader();
    await readUntil(reader, ': stream open');
    const tail = await rest(reader);
    expect(tail).toContain('"reason":"key_expired"');
  });
});
