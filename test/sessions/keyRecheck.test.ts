import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownerClient } from '../support/database.js';
import { bearer, startTestService, type TestService } from '../support/service.js';
import { connect, OPEN_BODY, openSession, type Message } from './support.js';

/**
 * Issue 40: a session socket ends when its key is revoked even when the
 * revocation's Redis message never arrives: every open socket's key is
 * looked up again on a timer (TAS_STREAM_KEY_RECHECK_MS).
 */
let ts: TestService;
beforeAll(async () => {
  ts = await startTestService({ TAS_STREAM_KEY_RECHECK_MS: '200' });
});
afterAll(async () => ts?.stop());

describe('a session socket whose key is revoked in the database alone', () => {
  it("ends with 1008 within the re-check, and another key's socket stays open", async () => {
    const minted = (await fetch(`${ts.base}/v1/admin/keys`, {
      method: 'POST',
      headers: { ...bearer(ts.tenant.keys.test_admin), 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'intake page', scopes: ['sessions'], mode: 'test' }),
    }).then((r) => r.json())) as Message;
    const opened = await openSession(ts, OPEN_BODY, minted.secret);
    expect(opened.status).toBe(201);
    const client = await connect(opened.body);
    await client.waitFor((m) => m.type === 'ready');
    const otherOpened = await openSession(ts);
    const other = await connect(otherOpened.body);
    await other.waitFor((m) => m.type === 'ready');

    const owner = await ownerClient(ts.dbUrl);
    try {
      await owner.query('UPDATE api_keys SET revoked_at = now() WHERE id = $1', [minted.key_id]);
    } finally {
      await owner.end();
    }
    const started = Date.now();
    expect(await client.closed).toEqual({ code: 1008, reason: 'key revoked' });
    expect(Date.now() - started).toBeLessThan(3000);
    // The other key's session, checked by the same recheck, still takes a frame and answers it after the revoked one closed.
    other.send({ type: 'text', line: "I'm jane.doe@gmail.com" });
    expect(await other.reply(1)).toMatchObject({ type: 'ack', seq: 1 });
    expect(other.ws.readyState).toBe(other.ws.OPEN);
    other.ws.close();
  });
});
