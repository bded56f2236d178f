import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { Redis } from 'ioredis';
import type { SseDone, SseJob, SseReport } from '../sse-client.js';
import { bodyFactory } from './bodies.js';
import { forkTs, stopChild, waitMessage } from './children.js';
import { providersFile, startProvider } from './provider.js';
import { adminQuery, REDIS_URL, startService } from './service.js';
import { percentiles } from './stats.js';
import type { ScenarioResult } from './scenarios.js';

/**
 * sse-fanout: `subscribers` real SSE connections spread over `streams`
 * inquiries, then the inquiries' worker checks are let go one at a time, so
 * the events (AssessmentRevised per report, then InquiryConcluded) are
 * committed by the service's own worker path at a pace the bench controls.
 *
 * Set-up: the provider holds every request; each inquiry (pre_transaction,
 * deadline_ms 50, `emails` EMAIL presentations = that many worker checks)
 * answers preliminary and stays open. Subscribers connect with `after` = the
 * stream's tail, so they only receive what is committed after they joined.
 */
export interface SseSettings {
  subscribers: number;
  streams: number;
  emails: number;
  releaseIntervalMs: number;
}

/** The soft open-file limit children inherit (both the service and the client hold one socket per subscriber). */
function openFileLimit(): number {
  try {
    const m = /Max open files\s+(\d+|unlimited)/.exec(readFileSync('/proc/self/limits', 'utf8'));
    return !m || m[1] === 'unlimited' ? Infinity : Number(m[1]);
  } catch {
    return Infinity;
  }
}

export async function sseScenario(s: SseSettings): Promise<ScenarioResult> {
  const limit = openFileLimit();
  if (limit < s.subscribers + 1024) {
    return {
      scenario: 'sse-fanout',
      skipped: `the open-file limit (${limit}) is too low for ${s.subscribers} subscribers: run \`ulimit -n ${s.subscribers + 2048}\` first, or pass --subscribers`,
    };
  }
  const provider = await startProvider();
  provider.hold();
  // The longest a provider call may be held: subscriptions must be open well within it.
  const file = providersFile(provider.url, 60_000);
  const service = await startService({ env: { TAS_PROVIDERS_FILE: file.path } });
  let client: ReturnType<typeof forkTs> | null = null;
  const tap = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
  try {
    const ids = await openInquiries(service.port, service.keys.live, s);
    const tails = await adminQuery(
      'SELECT stream_id::text AS id, max(seq)::int AS seq FROM actor_events WHERE stream_id::text = ANY($1) GROUP BY 1',
      [ids],
      service.dbName,
    );
    const tailOf = new Map(tails.rows.map((r: { id: string; seq: number }) => [r.id, r.seq]));
    const streams = ids.map((id) => ({ id, after: tailOf.get(id) ?? 0 }));
    const perStream = Math.ceil(s.subscribers / streams.length);

    client = forkTs('sse-client.ts');
    const timeoutMs = 55_000 + s.streams * s.emails * s.releaseIntervalMs;
    client.send({ port: service.port, key: service.keys.live, streams, perStream, connectConcurrency: 256, timeoutMs } satisfies SseJob);
    const ready = await waitMessage<SseReport>(client, 'ready', 50_000);
    const rssAtOpen = service.peakRssMb();

    const published = await tapPublishes(tap, service.prefix);
    const released = Date.now();
    provider.releaseEvery(s.releaseIntervalMs);
    const done = await waitMessage<SseDone>(client, 'done', timeoutMs + 10_000);

    const committed = await adminQuery(
      'SELECT stream_id::text AS id, count(*)::int AS n FROM actor_events WHERE stream_id::text = ANY($1) AND seq > $2 GROUP BY 1',
      [ids, 0],
      service.dbName,
    );
    const eventsOf = new Map(committed.rows.map((r: { id: string; n: number }) => [r.id, r.n]));
    let events = 0;
    let expected = 0;
    streams.forEach((st, i) => {
      const n = (eventsOf.get(st.id) ?? 0) - st.after;
      events += n;
      expected += n * (ready.openedPerStream[i] ?? 0);
    });
    const spanS = Math.max(0.001, (done.last_receive_ms - released) / 1000);
    const missing = Math.max(0, expected - done.deliveries);
    // Where the time goes: commit (occurred_at) -> Redis PUBLISH seen by a bystander -> first subscriber.
    const toPublish: number[] = [];
    const publishToClient: number[] = [];
    for (const [key, [occurred, first]] of Object.entries(done.events)) {
      const at = published.get(key);
      if (at === undefined) continue;
      toPublish.push(at - occurred);
      publishToClient.push(first - at);
    }
    return {
      scenario: 'sse-fanout',
      rps: Math.round(done.deliveries / spanS),
      p50_ms: done.latency_ms.p50,
      p95_ms: done.latency_ms.p95,
      p99_ms: done.latency_ms.p99,
      max_ms: done.latency_ms.max,
      errors: ready.failed + missing + done.dropped,
      peak_rss_mb: service.peakRssMb(),
      subscribers: s.subscribers,
      opened: ready.opened,
      open_failures: ready.failed,
      ...(ready.first_failure ? { first_failure: ready.first_failure } : {}),
      connect_s: ready.connect_s,
      streams: streams.length,
      events,
      deliveries: done.deliveries,
      expected_deliveries: expected,
      missing_deliveries: missing,
      dropped_streams: done.dropped,
      ended_streams: done.ended,
      replayed: done.replayed,
      first_delivery_ms: done.first_delivery_ms,
      occurred_to_redis_publish_ms: percentiles(toPublish),
      redis_publish_to_first_client_ms: percentiles(publishToClient),
      fanout_spread_ms: done.fanout_spread_ms,
      by_type: done.by_type,
      release_interval_ms: s.releaseIntervalMs,
      delivery_span_s: Math.round(spanS * 100) / 100,
      rss_mb_with_subscribers_open: rssAtOpen,
      rps_means: 'deliveries per second',
    };
  } finally {
    if (client) await stopChild(client, 'SIGTERM', 3000);
    tap.disconnect();
    await service.stop();
    await provider.close();
    file.remove();
  }
}

/** Records when each stream event's PUBLISH reaches a bystander subscriber (epoch ms), keyed `stream:seq`. */
async function tapPublishes(tap: Redis, prefix: string): Promise<Map<string, number>> {
  const seen = new Map<string, number>();
  tap.on('pmessage', (_pattern: string, _channel: string, raw: string) => {
    const t = performance.timeOrigin + performance.now();
    const m = JSON.parse(raw) as { kind?: string; event?: { stream_id: string; seq: number } };
    if (m.kind === 'event' && m.event) seen.set(`${m.event.stream_id}:${m.event.seq}`, t);
  });
  await tap.psubscribe(`${prefix}:stream:*`);
  return seen;
}

/** Opens the inquiries the subscribers will watch; each must answer preliminary (still open). */
async function openInquiries(port: number, key: string, s: SseSettings): Promise<string[]> {
  const make = bodyFactory(randomBytes(3).toString('hex'), { worker: true, emails: s.emails, deadlineMs: 50 });
  const ids: string[] = [];
  let n = 0;
  const worker = async () => {
    while (n < s.streams) {
      const body = make(n++);
      const res = await fetch(`http://127.0.0.1:${port}/v1/inquiries`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const json = (await res.json()) as { inquiry_id?: string; status?: string };
      if (res.status !== 200 || !json.inquiry_id)
        throw new Error(`opening an inquiry for the SSE scenario failed: HTTP ${res.status} ${JSON.stringify(json)}`);
      if (json.status === 'preliminary' || json.status === 'reasoning') ids.push(json.inquiry_id);
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  if (ids.length === 0) throw new Error('no inquiry stayed open for the SSE scenario (all concluded at once)');
  return ids;
}
