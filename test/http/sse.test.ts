import { randomBytes, randomUUID } from 'node:crypto';
import { connect } from 'node:net';
import { EventSource } from 'eventsource';
import type pg from 'pg';
import pino from 'pino';
import * as uWS from '../../src/edge/uws.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { StreamEvent } from '../../actors/types.js';
import { createAuditSpool } from '../../src/audit/spool.js';
import { createAuditWriter } from '../../src/audit/auditWriter.js';
import { createAuthenticator } from '../../src/auth/authenticate.js';
import { createEventHub, type EventHub } from '../../src/events/hub.js';
import { captureExchange } from '../../src/edge/exchange.js';
import type { BoundRoute } from '../../src/edge/handler.js';
import { createPipeline } from '../../src/edge/pipeline.js';
import { createRateLimiter } from '../../src/edge/rateLimit.js';
import { createRouter } from '../../src/edge/router.js';
import { createEventStreamHandler } from '../../src/events/routes.js';
import { AssessmentIssued, EVENT_TYPES, EventEnvelope, InquiryConcluded } from '../../src/events/schemas.js';
import { OPERATIONS } from '../../src/schemas/operations.js';
import { ownerClient } from '../support/database.js';
import { startTestService, type TestService } from '../support/service.js';
import { without } from '../support/objects.js';

const silent = pino({ level: 'silent' });
let ts: TestService;
let owner: pg.Client;
let hub: EventHub; // another process's hub: the engine publishing after commit
const open: EventSource[] = [];

beforeAll(async () => {
  ts = await startTestService({}, { workers: false });
  owner = await ownerClient(ts.dbUrl);
  hub = await createEventHub({ redisUrl: ts.config.REDIS_URL, prefix: ts.config.TAS_REDIS_PREFIX, log: silent });
});

afterAll(async () => {
  for (const es of open) es.close();
  await hub.close();
  await owner.end();
  await ts.stop();
});

const auth = (key = ts.tenant.keys.live) => ({ Authorization: `Bearer ${key}` });

async function actor(kind: string, tenantId = ts.tenant.tenant_id, mode = 'live'): Promise<string> {
  const id = randomUUID();
  await owner.query(
    `INSERT INTO actors (id, tenant_id, mode, kind, machine_version, snapshot, version) VALUES ($1, $2, $3, $4, 1, '{}', 1)`,
    [id, tenantId, mode, kind],
  );
  return id;
}

/** Inserts the row as the engine would (as the DB owner), returning the event it would publish. */
/** An assessment in the documented shape: the service checks every event it sends against its document. */
function documentedAssessment(inquiryId: string) {
  const at = new Date().toISOString();
  return {
    assessment_id: randomUUID(),
    inquiry_id: inquiryId,
    score: 50,
    low: 5,
    high: 95,
    preliminary: false,
    as_of: at,
    methodology_version: 'trust-method/2',
    label: null,
    entity_id: null,
    evidence: {
      signals: 0,
      failed_signals: 0,
      contradictions: 0,
      by_provenance_class: {},
      by_trust_band: { high: 0, medium: 0, low: 0 },
      oldest_observed_at: at,
      newest_observed_at: at,
    },
  };
}

async function append(streamId: string, seq: number, type = 'CaseChanged', payload?: Record<string, unknown>): Promise<StreamEvent> {
  const body = payload ?? {
    case_id: streamId,
    change: 'assertion',
    state: 'open',
    legal_hold: false,
    principal: 'key:test',
    summary: `step ${seq}`,
  };
  const { rows } = await owner.query(
    `INSERT INTO actor_events (stream_id, seq, tenant_id, mode, type, payload) VALUES ($1, $2, $3, 'live', $4, $5) RETURNING occurred_at`,
    [streamId, seq, ts.tenant.tenant_id, type, body],
  );
  return { stream_id: streamId, seq, type, payload: body, occurred_at: (rows[0].occurred_at as Date).toISOString() };
}

function listen(path: string, headers: Record<string, string> = {}) {
  const events: MessageEvent[] = [];
  const es = new EventSource(`${ts.base}${path}`, {
    fetch: (input, init) => fetch(input, { ...init, headers: { ...init.headers, ...auth(), ...headers } }),
  });
  open.push(es);
  for (const type of EVENT_TYPES) es.addEventListener(type, (e) => events.push(e));
  const ids = () => events.map((e) => e.lastEventId);
  return { es, events, ids };
}

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

describe('GET /v1/cases/{case_id}/events', () => {
  it('given stored events, then they replay in order as EventEnvelopes, and a published event follows live', async () => {
    const id = await actor('case');
    for (const seq of [1, 2, 3]) await append(id, seq);
    const s = listen(`/v1/cases/${id}/events`);
    await vi.waitFor(() => expect(s.ids()).toEqual(['1', '2', '3']));
    const envelope = EventEnvelope.parse(JSON.parse(s.events[2]!.data as string));
    expect(envelope).toMatchObject({ type: 'CaseChanged', stream: 'case', stream_id: id, sequence: 3 });

    await hub.publish(id, await append(id, 4));
    await vi.waitFor(() => expect(s.ids()).toEqual(['1', '2', '3', '4']));
    s.es.close();
  });

  it('given a reconnect with Last-Event-ID, then exactly the missed events arrive: no gap, no duplicate', async () => {
    const id = await actor('case');
    await append(id, 1);
    await append(id, 2);
    const first = listen(`/v1/cases/${id}/events`);
    await vi.waitFor(() => expect(first.ids()).toEqual(['1', '2']));
    first.es.close();
    const e3 = await append(id, 3);
    const e4 = await append(id, 4);

    const again = listen(`/v1/cases/${id}/events`, { 'Last-Event-ID': first.events.at(-1)!.lastEventId });
    await vi.waitFor(() => expect(again.ids()).toEqual(['3', '4']));
    // Late and repeated publishes of what was replayed are dropped by seq.
    await hub.publish(id, e4);
    await hub.publish(id, e3);
    await hub.publish(id, await append(id, 5));
    await vi.waitFor(() => expect(again.ids()).toEqual(['3', '4', '5']));
    // 6 committed but its publish lost: publishing 7 makes the stream read 6 from Postgres first.
    await append(id, 6);
    await hub.publish(id, await append(id, 7));
    await vi.waitFor(() => expect(again.ids()).toEqual(['3', '4', '5', '6', '7']));
    // Nothing else came in between: a stream delivers in order, so a stray duplicate would precede the next event.
    await hub.publish(id, await append(id, 8));
    await vi.waitFor(() => expect(again.ids()).toEqual(['3', '4', '5', '6', '7', '8']));
    again.es.close();
  });

  it('given ?after=, then replay starts after it; given Last-Event-ID as well, then the header wins', async () => {
    const id = await actor('case');
    for (const seq of [1, 2, 3, 4]) await append(id, seq);
    const byQuery = listen(`/v1/cases/${id}/events?after=2`);
    const byHeader = listen(`/v1/cases/${id}/events?after=1`, { 'Last-Event-ID': '3' });
    await vi.waitFor(() => expect(byQuery.ids()).toEqual(['3', '4']));
    await vi.waitFor(() => expect(byHeader.ids()).toEqual(['4']));
    // The query's cursor never started a second replay: the next live event follows 4 directly.
    await hub.publish(id, await append(id, 5));
    await vi.waitFor(() => expect(byHeader.ids()).toEqual(['4', '5']));
    byQuery.es.close();
    byHeader.es.close();
  });

  it("given another tenant's, another mode's, another kind's or an unknown id, then the same 404", async () => {
    const other = await ts.provision(`other-${randomBytes(3).toString('hex')}`, true);
    const ids = [
      await actor('case', other.tenant_id),
      await actor('case', ts.tenant.tenant_id, 'test'),
      await actor('inquiry'),
      randomUUID(),
    ];
    const bodies = [];
    for (const id of ids) {
      const res = await fetch(`${ts.base}/v1/cases/${id}/events`, { headers: auth() });
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toBe('application/problem+json');
      bodies.push(without((await res.json()) as Record<string, unknown>, 'audit_id'));
    }
    expect(new Set(bodies.map((b) => JSON.stringify(b))).size).toBe(1);
  });

  it('given a cursor that is not a non-negative integer or is beyond the stream, then 422 naming where it came from', async () => {
    const id = await actor('case');
    await append(id, 1);
    const cases: [string, Record<string, string>, unknown[], string][] = [
      ['?after=abc', {}, ['query', 'after'], 'int_parsing'],
      ['', { 'Last-Event-ID': '-1' }, ['header', 'Last-Event-ID'], 'int_parsing'],
      ['?after=2', {}, ['query', 'after'], 'cursor_unknown'],
      ['?after=0', { 'Last-Event-ID': '99999999999' }, ['header', 'Last-Event-ID'], 'cursor_unknown'],
    ];
    for (const [query, headers, loc, type] of cases) {
      const res = await fetch(`${ts.base}/v1/cases/${id}/events${query}`, { headers: { ...auth(), ...headers } });
      expect(res.status).toBe(422);
      expect(await res.json()).toEqual({ detail: [{ loc, msg: expect.any(String), type }] });
    }
  });

  it('given no key, then 401', async () => {
    const res = await fetch(`${ts.base}/v1/cases/${randomUUID()}/events`);
    expect(res.status).toBe(401);
    expect(res.headers.get('x-service-audit-id')).toBeTruthy();
  });

  it('given a stream, then its head carries the SSE headers and an audit id already durable; an abort unsubscribes', async () => {
    const id = await actor('case');
    const control = new AbortController();
    const res = await fetch(`${ts.base}/v1/cases/${id}/events`, { headers: auth(), signal: control.signal });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('x-accel-buffering')).toBe('no');
    const auditId = res.headers.get('x-service-audit-id');
    const { rows } = await owner.query('SELECT status, target_kind, target_id FROM audit_log WHERE audit_id = $1', [auditId]);
    expect(rows).toEqual([{ status: 200, target_kind: 'case', target_id: id }]);

    const channel = `${ts.config.TAS_REDIS_PREFIX}:stream:${id}`;
    const subscribers = async () => Number(((await ts.service.redis.pubsub('NUMSUB', channel)) as [string, number])[1]);
    expect(await subscribers()).toBe(1);
    control.abort();
    await vi.waitFor(async () => expect(await subscribers()).toBe(0));
  });
});

describe('stream endings', () => {
  it('given InquiryConcluded, then the stream ends after it and a client holding it is told 204 (stop reconnecting)', async () => {
    const id = await actor('inquiry');
    const assessment = documentedAssessment(id);
    await append(id, 1, 'AssessmentIssued', AssessmentIssued.parse({ inquiry_id: id, status: 'concluded', assessment }));
    await append(id, 2, 'InquiryConcluded', InquiryConcluded.parse({ inquiry_id: id, assessment, concluded_at: assessment.as_of }));
    const res = await fetch(`${ts.base}/v1/inquiries/${id}/events`, { headers: auth() });
    const body = await res.text(); // resolves only because the server ended the response
    expect(body).toContain('id: 2\nevent: InquiryConcluded\n');

    const s = listen(`/v1/inquiries/${id}/events`);
    const errors: { code?: number }[] = [];
    s.es.addEventListener('error', (e) => errors.push(e as { code?: number }));
    // The client reconnects on its own after the end (3 s default) and gets 204.
    await vi.waitFor(() => expect(s.es.readyState).toBe(EventSource.CLOSED), { timeout: 8000 });
    expect(s.ids()).toEqual(['1', '2']);
    expect(errors.at(-1)?.code).toBe(204);
  });

  it('given a control close for a monitor stream, then the response ends', async () => {
    const id = await actor('monitor');
    const res = await fetch(`${ts.base}/v1/monitors/${id}/events`, { headers: auth() });
    const reader = res.body!.getReader();
    await readUntil(reader, ': stream open');
    await hub.publishControl(id, { type: 'close', reason: 'monitor_deleted' });
    await vi.waitFor(async () => expect((await reader.read()).done).toBe(true));
  });
});

describe('stream transport (handler with injected heartbeat and buffer bound)', () => {
  let base: string;
  let port: number;
  let socket: uWS.us_listen_socket | null = null;
  const handlerLogs: string[] = [];

  beforeAll(async () => {
    const db = ts.service.db;
    const op = OPERATIONS.find((o) => o.operationId === 'streamCaseEvents')!;
    const router = createRouter<BoundRoute>();
    const log = pino({ level: 'info' }, { write: (line: string) => void handlerLogs.push(line) });
    const handler = createEventStreamHandler({
      db,
      hub,
      log,
      kind: 'case',
      paramName: 'case_id',
      heartbeatMs: 50,
      maxBufferedBytes: 64 * 1024,
    });
    router.add(op.method, op.path, { op, handler });
    const pipeline = createPipeline({
      router,
      authenticator: createAuthenticator({ db, pepper: ts.config.keyPepper }),
      rateLimiter: createRateLimiter({ redis: ts.service.redis, prefix: ts.config.TAS_REDIS_PREFIX, perSecond: 1000 }),
      auditWriter: createAuditWriter({ db, spool: createAuditSpool(`/tmp/tas-spool-${randomBytes(4).toString('hex')}`) }),
      log: silent,
      maxBodyBytes: 1024,
      isDraining: () => false,
    });
    const app = uWS.App().any('/*', (res, req) => pipeline(captureExchange(res, req)));
    port = await new Promise<number>((resolve, reject) =>
      app.listen('127.0.0.1', 0, (s) => {
        if (!s) return reject(new Error('listen failed'));
        socket = s;
        resolve(uWS.us_socket_local_port(s));
      }),
    );
    base = `http://127.0.0.1:${port}`;
  });

  afterAll(() => {
    if (socket) uWS.us_listen_socket_close(socket);
  });

  it('given a quiet stream, then heartbeat comments arrive at the injected interval', async () => {
    const id = await actor('case');
    const control = new AbortController();
    const res = await fetch(`${base}/v1/cases/${id}/events`, { headers: auth(), signal: control.signal });
    const text = await readUntil(res.body!.getReader(), ': heartbeat\n\n');
    expect(text).toContain(': heartbeat\n\n');
    control.abort();
  });

  it('given a client that stops reading, then past the buffer bound it is dropped and unsubscribed', async () => {
    const id = await actor('case');
    const client = connect(port, '127.0.0.1');
    client.write(`GET /v1/cases/${id}/events HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer ${ts.tenant.keys.live}\r\n\r\n`);
    client.pause();
    await vi.waitFor(() => expect(hub.listenerCount(id)).toBe(1));
    const big = 'x'.repeat(100_000);
    for (let seq = 1; seq <= 200 && hub.listenerCount(id) > 0; seq += 1) {
      const payload = { case_id: id, change: 'assertion', state: 'open', legal_hold: false, principal: 'key:test', summary: big };
      await hub.publish(id, { stream_id: id, seq, type: 'CaseChanged', payload, occurred_at: new Date().toISOString() });
    }
    await vi.waitFor(() => expect(hub.listenerCount(id)).toBe(0), { timeout: 5000 });

    // The end is clean: once the client reads again, the chunked body terminates.
    let received = '';
    client.on('data', (chunk: Buffer) => {
      received = (received + chunk.toString('latin1')).slice(-64);
    });
    client.resume();
    await vi.waitFor(() => expect(received.endsWith('\r\n0\r\n\r\n')).toBe(true), { timeout: 10_000 });
    client.destroy();
    expect(handlerLogs).toEqual([]); // dropped for being slow, not ended by an error
  });
});
