import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import { z } from 'zod';
import { StreamEventSchema, type StreamEvent } from '../../actors/types.js';
import { isCluster, openRedis, type RedisClient, type RedisTarget } from '../platform/redis/client.js';

/**
 * Live fan-out of stream events across processes (DESIGN 2.2). Postgres is the
 * source of truth (replay reads it); Redis pub/sub only carries "this was just
 * committed" so that open streams can push it at once. Each process holds ONE
 * subscriber connection and fans every message out to its local listeners,
 * so ten thousand open streams cost one Redis connection, not ten thousand.
 *
 * On a Redis Cluster the channels are sharded (SSUBSCRIBE / SPUBLISH, Redis
 * 7): a stream's channel lives on the master that owns its slot, so a publish
 * goes to one node instead of being copied to every node of the cluster, and
 * the fan-out grows with the cluster. The subscriber then holds one
 * connection per master; when the cluster's map changes (a failover, a
 * resharding) ioredis moves the channels and every listener gets `resync`.
 *
 * A listener receives:
 * - `event`:  a committed event of its stream (may be duplicated or arrive out
 *             of order across publishers: consumers dedupe by `seq`);
 * - `close`:  the stream was ended server-side (monitor deleted, key revoked,
 *             process shutting down); the consumer ends its response;
 * - `resync`: the subscriber connection dropped and came back, so messages may
 *             have been lost in between; the consumer re-reads Postgres.
 * - `checked`: a monitor's rescan ended unchanged at `at`: a signal for the
 *             streams open now, never stored (a reconnect does not replay it).
 */
export type HubMessage =
  { type: 'event'; event: StreamEvent } | { type: 'close'; reason: string } | { type: 'checked'; at: string } | { type: 'resync' };

export type HubControl = { type: 'close'; reason: string } | { type: 'checked'; at: string };

export type HubListener = (message: HubMessage) => void;

/** Calling it removes the listener; `ready` settles when Redis confirmed the channel's SUBSCRIBE. */
export type Unsubscribe = (() => void) & { ready: Promise<void> };

export interface EventHub {
  subscribe(streamId: string, listener: HubListener): Unsubscribe;
  publish(streamId: string, event: StreamEvent): Promise<void>;
  publishControl(streamId: string, control: HubControl): Promise<void>;
  /** Local listener count of one stream (for tests and metrics). */
  listenerCount(streamId: string): number;
  /** Whether both connections to Redis are up now: a caller that would wait on a stream asks first. */
  connected(): boolean;
  /** Tells every local listener `close: shutdown`, then drops both connections. */
  close(): Promise<void>;
}

export interface EventHubOptions {
  /** A URL (one node) or a topology (src/platform/redis/topology.ts). */
  redisUrl: RedisTarget;
  prefix: string;
  log: Logger;
}

const WireMessage = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('event'),
    event: StreamEventSchema,
  }),
  z.object({ kind: z.literal('close'), reason: z.string() }),
  z.object({ kind: z.literal('checked'), at: z.string() }),
]);

interface Channel {
  listeners: Set<HubListener>;
  ready: Promise<void>;
}

export async function createEventHub(opts: EventHubOptions): Promise<EventHub> {
  const pub = connection(opts.redisUrl, `${opts.prefix}:hub-pub`);
  const sub = connection(opts.redisUrl, `${opts.prefix}:hub-sub`, true);
  await Promise.all([pub.connect(), sub.connect()]);
  const wire = wireOf(sub, pub);
  const channels = new Map<string, Channel>();
  const channelOf = (streamId: string) => `${opts.prefix}:stream:${streamId}`;
  let closing = false;
  let lostConnection = false;

  sub.on(wire.messageEvent, (channel: string, raw: string) => dispatch(channels.get(channel), raw, opts.log));
  sub.on('error', (err) => opts.log.warn({ err }, 'event hub subscriber error'));
  pub.on('error', (err) => opts.log.warn({ err }, 'event hub publisher error'));
  sub.on('close', () => {
    if (!closing) lostConnection = true;
  });
  sub.on('ready', () => {
    if (!lostConnection || closing) return;
    lostConnection = false;
    resubscribe(wire, channels, opts.log);
  });
  // A cluster's sharded subscribers were moved (failover, resharding): messages may have been lost meanwhile.
  if (wire.sharded) sub.on('subscribersReady', () => resync(channels, opts.log));

  function unsubscriber(channel: string, entry: Channel, listener: HubListener): Unsubscribe {
    let done = false;
    const off = () => {
      if (done) return;
      done = true;
      entry.listeners.delete(listener);
      if (entry.listeners.size > 0 || channels.get(channel) !== entry) return;
      channels.delete(channel);
      // Commands on one connection run in order, so a later SUBSCRIBE of this channel still wins.
      if (!closing) wire.unsubscribe(channel).catch((err) => opts.log.warn({ err, channel }, 'event hub unsubscribe failed'));
    };
    return Object.assign(off, { ready: entry.ready });
  }

  return {
    subscribe(streamId, listener) {
      const channel = channelOf(streamId);
      let entry = channels.get(channel);
      if (!entry) {
        const ready = closing ? Promise.reject(new Error('event hub is closed')) : wire.subscribe(channel);
        entry = { listeners: new Set(), ready };
        // The channel is dropped again if Redis refused it, so the next subscriber retries.
        const failed = entry;
        ready.catch(() => {
          if (channels.get(channel) === failed) channels.delete(channel);
        });
        channels.set(channel, entry);
      }
      entry.listeners.add(listener);
      return unsubscriber(channel, entry, listener);
    },
    async publish(streamId, event) {
      await wire.publish(channelOf(streamId), JSON.stringify({ kind: 'event', event }));
    },
    async publishControl(streamId, control) {
      const { type, ...rest } = control;
      await wire.publish(channelOf(streamId), JSON.stringify({ kind: type, ...rest }));
    },
    listenerCount(streamId) {
      return channels.get(channelOf(streamId))?.listeners.size ?? 0;
    },
    connected: () => !closing && pub.status === 'ready' && sub.status === 'ready',
    close() {
      closing = true;
      const entries = [...channels.values()];
      channels.clear();
      for (const entry of entries) for (const l of entry.listeners) safeCall(l, { type: 'close', reason: 'shutdown' }, opts.log);
      sub.disconnect();
      pub.disconnect();
      return Promise.resolve();
    },
  };
}

/**
 * Both connections fail fast like every other Redis use (no offline queue), so
 * a stream opened while Redis is down is refused at once instead of hanging;
 * they reconnect on their own, and the subscriber then resubscribes itself.
 */
function connection(target: RedisTarget, name: string, subscriber = false): RedisClient {
  return openRedis(
    target,
    {
      // Named, so CLIENT LIST shows which connections are the hub's.
      connectionName: name.replace(/[^\w:.-]/g, '_'),
      lazyConnect: true,
      enableOfflineQueue: false,
      autoResubscribe: false,
      maxRetriesPerRequest: 1,
      commandTimeout: 2000,
      connectTimeout: 2000,
      retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
      // Publishes issued in one turn of the event loop (an inquiry's two events) go out in one write.
      enableAutoPipelining: true,
    },
    subscriber ? { shardedSubscribers: true } : {},
  );
}

/** Plain pub/sub on one node and on Sentinel; sharded pub/sub on a cluster. */
interface Wire {
  sharded: boolean;
  messageEvent: 'message' | 'smessage';
  subscribe(channel: string): Promise<void>;
  unsubscribe(channel: string): Promise<unknown>;
  publish(channel: string, message: string): Promise<unknown>;
}

function wireOf(sub: RedisClient, pub: RedisClient): Wire {
  if (isCluster(sub)) {
    return {
      sharded: true,
      messageEvent: 'smessage',
      subscribe: async (channel) => void (await sub.ssubscribe(channel)),
      unsubscribe: (channel) => sub.sunsubscribe(channel),
      publish: (channel, message) => pub.spublish(channel, message),
    };
  }
  return {
    sharded: false,
    messageEvent: 'message',
    subscribe: async (channel) => void (await sub.subscribe(channel)),
    unsubscribe: (channel) => sub.unsubscribe(channel),
    publish: (channel, message) => pub.publish(channel, message),
  };
}

function resync(channels: Map<string, Channel>, log: Logger): void {
  for (const entry of channels.values()) for (const l of entry.listeners) safeCall(l, { type: 'resync' }, log);
}

/** After a reconnect: SUBSCRIBE every channel with local listeners again, then tell them to re-read Postgres. */
function resubscribe(wire: Wire, channels: Map<string, Channel>, log: Logger): void {
  const names = [...channels.keys()];
  if (names.length === 0) return;
  // One command per channel: sharded channels of one SSUBSCRIBE must share a slot.
  Promise.all(names.map((name) => wire.subscribe(name))).then(
    () => {
      for (const name of names) {
        for (const l of channels.get(name)?.listeners ?? []) safeCall(l, { type: 'resync' }, log);
      }
    },
    (err) => {
      // Streams cannot be kept whole without their channel: end them so clients reconnect and replay.
      log.error({ err }, 'event hub could not resubscribe; closing local streams');
      for (const name of names) {
        for (const l of channels.get(name)?.listeners ?? []) safeCall(l, { type: 'close', reason: 'resubscribe_failed' }, log);
      }
    },
  );
}

function dispatch(entry: Channel | undefined, raw: string, log: Logger): void {
  if (!entry) return;
  let parsed: z.infer<typeof WireMessage>;
  try {
    parsed = WireMessage.parse(JSON.parse(raw));
  } catch (err) {
    log.warn({ err }, 'event hub dropped a malformed message');
    return;
  }
  const message: HubMessage =
    parsed.kind === 'event'
      ? { type: 'event', event: parsed.event }
      : parsed.kind === 'checked'
        ? { type: 'checked', at: parsed.at }
        : { type: 'close', reason: parsed.reason };
  // A copy: a listener that unsubscribes while being called must not skip its neighbour.
  for (const l of [...entry.listeners]) safeCall(l, message, log);
}

/** One listener's failure must not stop the others, nor unwind into ioredis. */
function safeCall(listener: HubListener, message: HubMessage, log: Logger): void {
  try {
    listener(message);
  } catch (err) {
    log.error({ err }, 'event hub listener failed');
  }
}

export type StreamKind = 'inquiry' | 'monitor' | 'case' | 'session';

/**
 * The one envelope every channel uses (EventEnvelope in src/events/schemas.ts).
 * `event_id` is derived from (stream, seq) as a name-based UUID, so the same
 * event carries the same id on every replay, stream, webhook and socket.
 */
export function envelopeOf(event: StreamEvent, stream: StreamKind): Record<string, unknown> {
  return {
    event_id: eventIdOf(event.stream_id, event.seq),
    type: event.type,
    stream,
    stream_id: event.stream_id,
    sequence: event.seq,
    occurred_at: event.occurred_at,
    data: event.payload,
  };
}

/** RFC 9562 version-5 layout (SHA-1 of a fixed namespace and the name). */
export function eventIdOf(streamId: string, seq: number): string {
  const hash = createHash('sha1').update(EVENT_ID_NAMESPACE).update(`${streamId}:${seq}`).digest();
  hash[6] = (hash[6]! & 0x0f) | 0x50;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

// Fixed forever: changing it would change every event id already handed out.
const EVENT_ID_NAMESPACE = Buffer.from('6f1d3c1e9b0a4d4f8c2e7a5b3d9e0f12', 'hex');
