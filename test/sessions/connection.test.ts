import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { StreamEvent } from '../../actors/types.js';
import type { HubListener } from '../../src/events/hub.js';
import type { SessionBinding } from '../../src/sessions/commands.js';
import { createConnection, type ConnectionDeps } from '../../src/sessions/connection.js';
import { CLOSE_CODES, FLOOD_REFUSALS_TO_CLOSE, FRAME_BURST, MAX_BUFFERED_BYTES } from '../../src/sessions/limits.js';
import { eventually } from '../support/wait.js';

/**
 * The socket side of a session without a socket: a fake uWS WebSocket and
 * fake commands, to pin down ordering and the ways a connection ends that a
 * real client cannot easily provoke (a client that stops reading).
 */
const binding: SessionBinding = {
  sessionId: '00000000-0000-4000-8000-0000000000c1',
  inquiryId: '00000000-0000-4000-8000-0000000000c2',
  tenantId: '00000000-0000-4000-8000-0000000000c3',
  mode: 'test',
  keyId: 'k',
  principal: 'key:k',
  purpose: 'fraud_prevention',
  retention: 'standard',
};

const event = (seq: number, type: string, payload: Record<string, unknown> = {}): StreamEvent => ({
  stream_id: binding.sessionId,
  seq,
  type,
  payload,
  occurred_at: '2025-01-01T00:00:00.000Z',
});

function harness(over: Partial<ConnectionDeps['commands']> = {}, now = () => 0) {
  let listener: HubListener | null = null;
  const calls: string[] = [];
  const ws = {
    sent: [] as Record<string, any>[],
    buffered: 0,
    ended: null as { code: number; message: string } | null,
    cork(cb: () => void) {
      cb();
    },
    send(text: string) {
      this.sent.push(JSON.parse(text));
      return 1;
    },
    getBufferedAmount() {
      return this.buffered;
    },
    end(code: number, message: string) {
      this.ended = { code, message };
      conn.onClose(code);
    },
  };
  const commands: ConnectionDeps['commands'] = {
    applyFrame: (_b, meta) => {
      calls.push(`frame ${meta.seq}`);
      return Promise.resolve({ ok: true, ack: { type: 'ack', seq: meta.seq }, events: [] });
    },
    conclude: (_b, reason) => {
      calls.push(`conclude ${reason}`);
      return Promise.resolve([]);
    },
    markConnected: () => Promise.resolve([]),
    readEvents: () => Promise.resolve([]),
    recordRefusal: () => Promise.resolve(),
    ...over,
  };
  const hub = {
    subscribe: (_id: string, l: HubListener) => {
      listener = l;
      return Object.assign(() => undefined, { ready: Promise.resolve() });
    },
  } as unknown as ConnectionDeps['hub'];
  const conn = createConnection(binding, { commands, hub, log: pino({ level: 'silent' }), now });
  conn.attach(ws as never);
  const frame = (obj: unknown) => conn.onMessage(new TextEncoder().encode(JSON.stringify(obj)), false);
  return { ws, conn, calls, frame, hub: (e: StreamEvent) => listener!({ type: 'event', event: e }) };
}

describe('a session connection', () => {
  it("writes a frame's ack before the events it caused, even when the fan-out delivers them first", async () => {
    const h = harness({
      applyFrame: (_b, meta) => {
        h.hub(event(1, 'assessment.issued', { frame_seq: meta.seq }));
        return Promise.resolve({
          ok: true,
          ack: { type: 'ack', seq: meta.seq },
          events: [event(1, 'assessment.issued', { frame_seq: meta.seq })],
        });
      },
    });
    h.frame({ type: 'text', line: 'a@example.com' });
    await eventually(() => h.ws.sent.some((m) => m.type === 'assessment.issued'));
    expect(h.ws.sent.map((m) => m.type)).toEqual(['ready', 'ack', 'assessment.issued']);
  });

  it('delivers events in sequence, once each, filling a gap from Postgres', async () => {
    const h = harness({
      readEvents: (_b, after) =>
        Promise.resolve([event(1, 'assessment.issued'), event(2, 'assessment.revised')].filter((e) => e.seq > after)),
    });
    h.hub(event(3, 'findings.added'));
    h.hub(event(2, 'assessment.revised'));
    // The gap read from Postgres is filled and the held event 3 follows it.
    await eventually(() => h.ws.sent.some((m) => m.event_seq === 3));
    h.hub(event(3, 'findings.added'));
    expect(h.ws.sent.filter((m) => m.event_seq).map((m) => m.event_seq)).toEqual([1, 2, 3]);
  });

  it('closes with 4001 when the client stops reading, and the session then closes as slow_consumer', async () => {
    const h = harness();
    h.ws.buffered = MAX_BUFFERED_BYTES + 1;
    h.frame({ type: 'text', line: 'hello' });
    // Settled: the socket ended and its session concluded.
    await h.conn.settled;
    expect(h.ws.ended).toEqual({ code: CLOSE_CODES.slowConsumer, message: 'slow consumer' });
    expect(h.calls).toEqual(['frame 1', 'conclude slow_consumer']);
  });

  it('refuses past the burst and closes 1008 on a sustained flood; frames already queued still apply', async () => {
    const h = harness();
    for (let i = 0; i < FRAME_BURST + FLOOD_REFUSALS_TO_CLOSE + 10; i += 1) h.frame({ type: 'text', line: `f${i}` });
    const limited = h.ws.sent.filter((m) => m.rule === 'rate_limited');
    expect(limited).toHaveLength(FLOOD_REFUSALS_TO_CLOSE);
    expect(limited[0]!.seq).toBe(FRAME_BURST + 1);
    await h.conn.settled;
    // The queued frames were applied and acked before the socket ended (issue 40).
    expect(h.ws.sent.filter((m) => m.type === 'ack')).toHaveLength(FRAME_BURST);
    expect(h.ws.ended).toEqual({ code: CLOSE_CODES.policyViolation, message: 'rate limit exceeded' });
    expect(h.calls.at(-1)).toBe('conclude rate_limited');
  });

  it('on a REST close it drains the frames it holds, then concludes; later frames are refused', async () => {
    const h = harness();
    h.frame({ type: 'text', line: 'one' });
    h.frame({ type: 'text', line: 'two' });
    h.hub(event(1, 'session.closing', { reason: 'done' }));
    h.frame({ type: 'text', line: 'three' });
    await eventually(() => h.calls.includes('conclude done'));
    expect(h.calls).toEqual(['frame 1', 'frame 2', 'conclude done']);
    expect(h.ws.sent.find((m) => m.seq === 3)).toMatchObject({ type: 'refused', rule: 'session_closing' });
  });

  it('ends with 1000 right after session.closed, and does not conclude again', async () => {
    const h = harness();
    h.hub(event(1, 'session.closed', { reason: 'idle' }));
    // Settled once the socket closed: a conclusion it would make is made by then.
    await h.conn.settled;
    expect(h.ws.sent.at(-1)).toMatchObject({ type: 'session.closed', event_seq: 1 });
    expect(h.ws.ended).toEqual({ code: CLOSE_CODES.sessionClosed, message: 'session closed' });
    expect(h.calls).toEqual([]);
  });
});
