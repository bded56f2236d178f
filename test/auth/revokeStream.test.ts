import pino from 'pino';
import { createEventHub } from '../../src/events/hub.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, WATCH } from '../monitors/support.js';
import { bearer, startTestService, type TestService } from '../support/service.js';

/**
 * Revoking a key ends the event streams it opened, at once and on every
 * process (the revocation bus), not only its next request.
 */
let ts: TestService;
beforeAll(async () => {
  ts = await startTestService({}, { workers: false });
});
afterAll(async () => ts?.stop());

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

/** Reads until the server ends the response; resolves with how long that took from `since`. */
async function endedAfter(reader: ReadableStreamDefaultReader<Uint8Array>, since: () => number): Promise<number> {
  for (;;) {
    const { done } = await reader.read();
    if (done) return Date.now() - since();
  }
}

describe('revoking a key closes its streams', () => {
  it('a minted key opens an SSE stream; DELETE the key: the stream ends within a second and the next call is 401', async () => {
    const minted = await call(ts, 'POST', '/v1/admin/keys', ts.tenant.keys.test_admin, {
      name: 'watcher',
      scopes: ['monitors'],
      mode: 'test',
    });
    expect(minted.status).toBe(201);
    const key = minted.body.secret as string;
    const monitor = await call(ts, 'POST', '/v1/monitors', key, { ...WATCH, cadence_seconds: 3600, triggers: { label_change: true } });
    expect(monitor.status).toBe(201);

    const res = await fetch(monitor.body.events_url, { headers: bearer(key) });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    await readUntil(reader, ': stream open');
    // Another stream, opened by another key, is left alone.
    const other = await fetch(monitor.body.events_url, { headers: bearer(ts.tenant.keys.test) });
    const otherReader = other.body!.getReader();
    await readUntil(otherReader, ': stream open');

    let revokedAt = 0;
    const ended = endedAfter(reader, () => revokedAt);
    revokedAt = Date.now();
    const revoked = await call(ts, 'DELETE', `/v1/admin/keys/${minted.body.key_id}`, ts.tenant.keys.test_admin);
    expect(revoked.status).toBe(204);
    expect(await ended).toBeLessThan(1000);

    const next = await call(ts, 'GET', `/v1/monitors/${monitor.body.monitor_id}`, key);
    expect(next.status).toBe(401);
    const retry = await fetch(monitor.body.events_url, { headers: bearer(key) });
    expect(retry.status).toBe(401);
    await retry.arrayBuffer();

    // Still open: a signal sent to the monitor's streams now reaches it (a closed stream would end the read instead).
    const hub = await createEventHub({ redisUrl: ts.config.REDIS_URL, prefix: ts.config.TAS_REDIS_PREFIX, log: pino({ level: 'silent' }) });
    try {
      await hub.publishControl(monitor.body.monitor_id as string, { type: 'checked', at: new Date().toISOString() });
    } finally {
      await hub.close();
    }
    expect(await readUntil(otherReader, 'MonitorChecked')).toContain('MonitorChecked');
    await otherReader.cancel();
  });
});
