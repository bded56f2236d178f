import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownerClient } from '../support/database.js';
import { startTestService, type TestService } from '../support/service.js';
import { connect, openSession, type SessionClient } from './support.js';

/**
 * A client that stops reading (issue 40). Its bytes pile up in the kernel's
 * buffers long before uWS buffers any, so a byte count alone never closed it
 * (2.67 MB queued over 210 s). The heartbeat does: a ping still unanswered
 * at the next heartbeat closes the socket with 4001 and the session as
 * `slow_consumer`. A client that reads answers every ping and stays. The
 * heartbeat is shortened to 300 ms so a test can wait for it.
 */
let ts: TestService;
let owner: pg.Client;

beforeAll(async () => {
  ts = await startTestService({ TAS_SESSION_HEARTBEAT_MS: '300' });
  owner = await ownerClient(ts.dbUrl);
});

afterAll(async () => {
  await owner?.end();
  await ts?.stop();
});

async function connected(): Promise<{ client: SessionClient; sessionId: string }> {
  const opened = await openSession(ts);
  expect(opened.status).toBe(201);
  const client = await connect(opened.body);
  await client.waitFor((m) => m.type === 'ready');
  return { client, sessionId: opened.body.session_id };
}

const closeReason = async (id: string) =>
  (await owner.query(`SELECT close_reason FROM sessions WHERE id = $1 AND state = 'closed'`, [id])).rows[0]?.close_reason ?? null;

describe('a client that does not read', () => {
  it('is closed with 4001 once a heartbeat goes unanswered, its session as slow_consumer; a reading client stays', async () => {
    const reader = await connected();
    const stalled = await connected();
    // The `ws` client stops reading its socket: pings and events wait in the kernel, unread.
    const socket = (stalled.client.ws as unknown as { _socket: { pause(): void; resume(): void } })._socket;
    socket.pause();
    for (let i = 0; i < 5; i += 1)
      stalled.client.send({ type: 'presentation', presentation: { type: 'EMAIL', value: `user${i}@example.org` } });

    // The reader sees several heartbeats (it answers them by itself) while the stalled one is closed.
    let pings = 0;
    const heardPings = new Promise<void>((resolve) => reader.client.ws.on('ping', () => (pings += 1) >= 4 && resolve()));
    await expect.poll(() => closeReason(stalled.sessionId), { timeout: 10_000 }).toBe('slow_consumer');
    await heardPings;
    expect(reader.client.ws.readyState).toBe(reader.client.ws.OPEN);

    // Reading again, it finds what was sent before the close, and the close code.
    socket.resume();
    expect(await stalled.client.closed).toEqual({ code: 4001, reason: 'slow consumer' });

    reader.client.send({ type: 'close' });
    expect((await reader.client.closed).code).toBe(1000);
  });
});
