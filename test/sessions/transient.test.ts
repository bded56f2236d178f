import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownerClient } from '../support/database.js';
import { startTestService, type TestService } from '../support/service.js';
import { closeOverRest, connect, OPEN_BODY, openSession, type Message, type SessionClient } from './support.js';
import { eventually } from '../support/wait.js';

/**
 * Rule D35: a transient session's frames are processed and never stored.
 * Every frame below carries a unique marker in its raw content (prose, a
 * testimony summary, a name, a malformed value, an unknown field, a broken
 * frame, the REST close reason). After the session closed, the marker is in
 * no byte of the database (pg_dump), no Redis key or value under the test's
 * prefix, and no log line. A standard session is the control: its testimony
 * is kept, so its own marker must be found by the same search.
 */
let ts: TestService;
const run = promisify(execFile);

beforeAll(async () => {
  ts = await startTestService();
});

afterAll(async () => {
  await ts?.stop();
});

/** Letters only, so no part of it can be read as a phone number, a domain or an IP address. */
function marker(): string {
  return `mrk${[...randomBytes(16)].map((b) => String.fromCharCode(97 + (b % 26))).join('')}`;
}

async function pgDump(): Promise<string> {
  const { stdout } = await run('pg_dump', ['--no-owner', ts.dbUrl], { maxBuffer: 256 * 1024 * 1024 });
  return stdout;
}

/** Every key and every value under the test's Redis prefix, read by type (DUMP would compress long strings). */
async function redisContents(): Promise<string> {
  const redis = new Redis('redis://127.0.0.1:6379');
  try {
    const parts: string[] = [];
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${ts.config.TAS_REDIS_PREFIX}*`, 'COUNT', 1000);
      cursor = next;
      for (const key of keys) parts.push(key, await valueOf(redis, key));
    } while (cursor !== '0');
    return parts.join('\n');
  } finally {
    redis.disconnect();
  }
}

async function valueOf(redis: Redis, key: string): Promise<string> {
  switch (await redis.type(key)) {
    case 'string':
      return (await redis.get(key)) ?? '';
    case 'hash':
      return JSON.stringify(await redis.hgetall(key));
    case 'list':
      return JSON.stringify(await redis.lrange(key, 0, -1));
    case 'set':
      return JSON.stringify(await redis.smembers(key));
    case 'zset':
      return JSON.stringify(await redis.zrange(key, 0, -1, 'WITHSCORES'));
    case 'stream':
      return JSON.stringify(await redis.xrange(key, '-', '+'));
    default:
      return '';
  }
}

function foundIn(haystack: string, needle: string): boolean {
  return haystack.toLowerCase().includes(needle.toLowerCase());
}

async function streamEverything(client: SessionClient, m: string): Promise<Message[]> {
  const frames: (string | Buffer)[] = [
    JSON.stringify({ type: 'text', line: `Note ${m}: reach me at Jane.Doe@Example.com or +44 20 7946 0958` }),
    JSON.stringify({ type: 'observation', summary: `They told us ${m} about the order`, provenance_class: 'tenant_supplied' }),
    JSON.stringify({ type: 'presentation', presentation: { type: 'NAME', value: `Jane ${m} Doe` } }),
    JSON.stringify({ type: 'presentation', presentation: { type: 'EMAIL', value: `not an address ${m}` } }),
    JSON.stringify({ type: 'claim', claim: { name: `Jane ${m}`, country: 'GB', organisation: `${m} Ltd` } }),
    JSON.stringify({ type: 'text', line: 'ok', [m]: true }),
    JSON.stringify({ type: m }),
    `{"type":"text","line":"${m}`,
    Buffer.from(`binary ${m}`),
  ];
  for (const f of frames) client.ws.send(f);
  return Promise.all(frames.map((_, i) => client.reply(i + 1)));
}

/** Resolves once the relay has dispatched every outbox row and the session's close is in the audit trail. */
async function settledWrites(sessionId: string): Promise<void> {
  const owner = await ownerClient(ts.dbUrl);
  try {
    await eventually(
      async () => {
        const { rows } = await owner.query(
          `SELECT
        (SELECT count(*)::int FROM outbox WHERE dispatched_at IS NULL) AS pending,
        (SELECT count(*)::int FROM audit_log WHERE action = 'closeSession' AND target_id = $1) AS closed`,
          [sessionId],
        );
        return rows[0].pending === 0 && rows[0].closed > 0;
      },
      { timeout: 5000, what: 'the relay and the audit writer settling' },
    );
  } finally {
    await owner.end();
  }
}

describe('a transient session (rule D35)', () => {
  it('leaves no trace of its raw content in Postgres, Redis or the logs, while still assessing', async () => {
    const m = marker();
    const opened = await openSession(ts, { ...OPEN_BODY, retention_mode: 'transient' });
    expect(opened.body.retention_mode).toBe('transient');
    const client = await connect(opened.body);
    const replies = await streamEverything(client, m);
    expect(replies.map((r) => r.type)).toEqual(['ack', 'ack', 'ack', 'ack', 'ack', 'refused', 'refused', 'refused', 'refused']);
    expect(replies.slice(5).map((r) => r.rule)).toEqual(['extra_forbidden', 'frame_type', 'frame_json', 'frame_binary']);

    // Derived values still flow: normalised identifiers, the assessment, findings about normalised values.
    const last = await client.assessment(5);
    expect(last.assessment.score).toEqual(expect.any(Number));
    const abouts = client.messages
      .filter((x) => x.type === 'findings.added')
      .flatMap((x) => x.findings.map((f: Message) => f.about as string));
    expect(abouts).toEqual(expect.arrayContaining(['jane.doe@example.com', '+442079460958']));
    expect(abouts.every((a) => !a.includes('Jane.Doe@Example.com'))).toBe(true);

    expect((await closeOverRest(ts, opened.body.session_id, `bye ${m}`)).body).toMatchObject({ state: 'closing', reason: 'other' });
    expect(await client.waitFor((x) => x.type === 'session.closed')).toMatchObject({ reason: 'other', retention_mode: 'transient' });
    await client.closed;

    // What the client heard never carried the marker back either, except where it sent an unknown field name.
    const heard = JSON.stringify(client.messages.filter((x) => !(x.type === 'refused' && x.rule === 'extra_forbidden')));
    expect(foundIn(heard, m)).toBe(false);
    // Wait for the writes that trail the answers, not for a guessed pause: every outbox row carried
    // out by the relay, and the close call's audit row committed by the group-committed audit writer.
    await settledWrites(opened.body.session_id);
    const [dump, redis] = await Promise.all([pgDump(), redisContents()]);
    expect(dump.length).toBeGreaterThan(10_000);
    expect(foundIn(dump, opened.body.session_id)).toBe(true);
    expect(foundIn(dump, m)).toBe(false);
    expect(foundIn(redis, m)).toBe(false);
    expect(foundIn(ts.logs.join(''), m)).toBe(false);
  });

  it('control: a standard session keeps its testimony, and the same search finds its marker', async () => {
    const m = marker();
    const opened = await openSession(ts, { ...OPEN_BODY, subject: { presentations: [{ type: 'EMAIL', value: 'li.wei@example.net' }] } });
    const client = await connect(opened.body);
    client.send({ type: 'observation', summary: `They told us ${m} about the order`, provenance_class: 'tenant_supplied' });
    expect(await client.reply(1)).toMatchObject({ type: 'ack' });
    client.send({ type: 'close' });
    await client.waitFor((x) => x.type === 'session.closed');
    expect(foundIn(await pgDump(), m)).toBe(true);
    expect(foundIn(ts.logs.join(''), m)).toBe(false);
  });
});
