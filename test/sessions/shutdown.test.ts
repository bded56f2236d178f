import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { ownerClient } from '../support/database.js';
import { serviceLoginUrl, startTestService, type TestService } from '../support/service.js';
import { connect, openSession } from './support.js';

/**
 * SIGTERM with a socket attached (issue 40): `tas serve` in a child process,
 * as a deployment stops it. The frames the socket already received are
 * answered, its session is closed as `server_shutdown` (state and reason in
 * PostgreSQL, `session.closed` the last message) before the pools close,
 * and the client gets 1001. The test's own in-process service only lends
 * its cloned database and provisioned tenant.
 */
const TAS = fileURLToPath(new URL('../../bin/tas.js', import.meta.url));
let ts: TestService;
let owner: pg.Client;
let child: ChildProcess | null = null;
// What the child printed (warnings and errors only), shown when the test fails.
let childOutput = '';
const CHILD_WAIT_MS = 25_000;

beforeAll(async () => {
  ts = await startTestService({}, { workers: false });
  owner = await ownerClient(ts.dbUrl);
});

afterAll(async () => {
  if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await owner?.end();
  await ts?.stop();
});

/** `tas serve --no-workers` on the test's database; resolves with its base URL once it listens. */
async function serve(): Promise<string> {
  child = spawn(process.execPath, [TAS, 'serve', '--no-workers'], {
    env: {
      ...process.env,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_OWNER_URL: ts.dbUrl,
      DATABASE_URL: serviceLoginUrl(ts.dbUrl),
      REDIS_URL: ts.config.REDIS_URL,
      TAS_REDIS_PREFIX: ts.config.TAS_REDIS_PREFIX,
      TAS_KEY_PEPPER: ts.config.keyPepper,
      TAS_SPOOL_DIR: `/tmp/tas-spool-${randomBytes(4).toString('hex')}`,
      TAS_DNS_SERVERS: 'off',
      TAS_RDAP_BASE_URL: 'off',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      childOutput += String(chunk);
      const port = /tas listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(childOutput)?.[1];
      if (port) resolve(`http://127.0.0.1:${port}`);
    };
    child!.stdout!.on('data', onData);
    child!.stderr!.on('data', onData);
    child!.once('exit', (code) => reject(new Error(`tas serve exited with ${code} before it listened:\n${childOutput}`)));
  });
}

describe('SIGTERM with a session socket attached', () => {
  it('answers the frames received, closes the session as server_shutdown before the pools close, and ends the socket with 1001', async () => {
    onTestFailed(() => console.error(`tas serve printed:\n${childOutput}`));
    const base = await serve();
    const opened = await openSession({ ...ts, base });
    expect(opened.status).toBe(201);
    const client = await connect(opened.body);
    // A child process that just started, on a machine the whole suite keeps busy, may answer slowly;
    // a socket that closed instead fails at once, naming its close code.
    await client.waitFor((m) => m.type === 'ready', CHILD_WAIT_MS);
    client.send({ type: 'presentation', presentation: { type: 'EMAIL', value: 'ana@example.org' } });
    await client.reply(1, CHILD_WAIT_MS);
    client.send({ type: 'text', line: 'call +44 20 7946 0958' });
    client.send({ type: 'text', line: 'and write to omar@example.org' });
    await client.reply(2, CHILD_WAIT_MS);
    const exited = new Promise<number | null>((resolve) => child!.once('exit', (code) => resolve(code)));
    child!.kill('SIGTERM');

    expect(await client.closed).toEqual({ code: 1001, reason: 'going away' });
    // Every frame sent got its reply before the close; session.closed came last.
    for (const seq of [1, 2, 3])
      expect(client.messages.find((m) => (m.type === 'ack' || m.type === 'refused') && m.seq === seq)).toBeDefined();
    expect(client.messages.at(-1)).toMatchObject({ type: 'session.closed', reason: 'server_shutdown' });
    expect(await exited).toBe(0);

    const row = await owner.query(`SELECT state, close_reason, closed_at FROM sessions WHERE id = $1`, [opened.body.session_id]);
    expect(row.rows[0]).toMatchObject({ state: 'closed', close_reason: 'server_shutdown', closed_at: expect.any(Date) });
    const inquiry = await owner.query(`SELECT i.status FROM inquiries i JOIN sessions s ON s.inquiry_id = i.id WHERE s.id = $1`, [
      opened.body.session_id,
    ]);
    expect(inquiry.rows[0].status).toBe('concluded');
  }, 90_000);
});
