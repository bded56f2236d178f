import { randomBytes, randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { StreamEvent } from '../../actors/types.js';
import { createEventHub, envelopeOf, eventIdOf, type EventHub, type HubMessage } from '../../src/events/hub.js';
import { EventEnvelope } from '../../src/events/schemas.js';

const REDIS_URL = 'redis://127.0.0.1:6379';
const prefix = `tastest:${randomBytes(4).toString('hex')}`;
const log = pino({ level: 'silent' });

function event(streamId: string, seq: number): StreamEvent {
  return { stream_id: streamId, seq, type: 'MonitorTriggered', payload: { n: seq }, occurred_at: new Date().toISOString() };
}

function collector() {
  const got: HubMessage[] = [];
  return { got, listener: (m: HubMessage) => void got.push(m) };
}

async function numsub(redis: Redis, streamId: string): Promise<number> {
  const reply = (await redis.pubsub('NUMSUB', `${prefix}:stream:${streamId}`)) as [string, number];
  return Number(reply[1]);
}

describe('event hub', () => {
  let hub: EventHub;
  let other: EventHub;
  let redis: Redis;

  beforeAll(async () => {
    hub = await createEventHub({ redisUrl: REDIS_URL, prefix, log });
    // A second hub stands for another process publishing the same streams.
    other = await createEventHub({ redisUrl: REDIS_URL, prefix, log });
    redis = new Redis(REDIS_URL);
  });

  afterAll(async () => {
    await hub.close();
    await other.close();
    redis.disconnect();
  });

  it('given two local subscribers on one stream, then one SUBSCRIBE serves both and each gets the event', async () => {
    const streamId = randomUUID();
    const a = collector();
    const b = collector();
    const offA = hub.subscribe(streamId, a.listener);
    const offB = hub.subscribe(streamId, b.listener);
    await Promise.all([offA.ready, offB.ready]);
    expect(hub.listenerCount(streamId)).toBe(2);
    expect(await numsub(redis, streamId)).toBe(1);

    await other.publish(streamId, event(streamId, 1));
    await vi.waitFor(() => expect(a.got).toHaveLength(1));
    await vi.waitFor(() => expect(b.got).toHaveLength(1));
    expect(a.got[0]).toEqual({ type: 'event', event: expect.objectContaining({ stream_id: streamId, seq: 1 }) });
    offA();
    offB();
  });

  it('given one subscriber leaves, then the other still receives; after the last leaves the channel is unsubscribed', async () => {
    const streamId = randomUUID();
    const a = collector();
    const b = collector();
    const offA = hub.subscribe(streamId, a.listener);
    const offB = hub.subscribe(streamId, b.listener);
    await offB.ready;
    offA();
    offA(); // idempotent
    await other.publish(streamId, event(streamId, 1));
    await vi.waitFor(() => expect(b.got).toHaveLength(1));
    expect(a.got).toHaveLength(0);

    offB();
    expect(hub.listenerCount(streamId)).toBe(0);
    await vi.waitFor(async () => expect(await numsub(redis, streamId)).toBe(0));
  });

  it('given a control close, then every listener of that stream hears close with the reason', async () => {
    const streamId = randomUUID();
    const a = collector();
    const off = hub.subscribe(streamId, a.listener);
    await off.ready;
    await other.publishControl(streamId, { type: 'close', reason: 'monitor_deleted' });
    await vi.waitFor(() => expect(a.got).toEqual([{ type: 'close', reason: 'monitor_deleted' }]));
    off();
  });

  it('given a listener that throws, then its neighbours still receive', async () => {
    const streamId = randomUUID();
    const a = collector();
    const offBad = hub.subscribe(streamId, () => {
      throw new Error('boom');
    });
    const off = hub.subscribe(streamId, a.listener);
    await off.ready;
    await other.publish(streamId, event(streamId, 1));
    await vi.waitFor(() => expect(a.got).toHaveLength(1));
    offBad();
    off();
  });

  it('given the subscriber connection is killed, then it resubscribes and tells listeners to resync', async () => {
    const streamId = randomUUID();
    const a = collector();
    const off = hub.subscribe(streamId, a.listener);
    await off.ready;
    const clients = String(await redis.client('LIST')).split('\n');
    const mine = clients.find((line) => line.includes(`name=${prefix}:hub-sub`) && line.includes('sub=1'));
    expect(mine).toBeDefined();
    const id = /(?:^|\s)id=(\d+)/.exec(mine!)![1]!;
    await redis.client('KILL', 'ID', id);

    await vi.waitFor(() => expect(a.got).toContainEqual({ type: 'resync' }), { timeout: 5000 });
    await other.publish(streamId, event(streamId, 2));
    await vi.waitFor(() => expect(a.got).toContainEqual({ type: 'event', event: expect.objectContaining({ seq: 2 }) }));
    off();
  });

  it('given close, then local listeners hear close: shutdown', async () => {
    const own = await createEventHub({ redisUrl: REDIS_URL, prefix, log });
    const a = collector();
    await own.subscribe(randomUUID(), a.listener).ready;
    await own.close();
    expect(a.got).toEqual([{ type: 'close', reason: 'shutdown' }]);
  });
});

describe('event envelope', () => {
  it('given a stream event, then the envelope matches EventEnvelope and its id is stable per (stream, seq)', () => {
    const streamId = randomUUID();
    const e: StreamEvent = {
      stream_id: streamId,
      seq: 3,
      type: 'CaseChanged',
      occurred_at: new Date().toISOString(),
      payload: { case_id: streamId, change: 'opened', state: 'open', legal_hold: false, principal: 'key:x', summary: 'Opened.' },
    };
    const env = envelopeOf(e, 'case');
    expect(EventEnvelope.parse(env)).toEqual(env);
    expect(env.event_id).toBe(eventIdOf(streamId, 3));
    expect(eventIdOf(streamId, 3)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(eventIdOf(streamId, 4)).not.toBe(env.event_id);
  });
});
