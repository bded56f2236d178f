import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { EMAIL_AND_PHONE, json } from '../inquiries/support.js';
import { bearer } from '../support/service.js';
import { startRedisSentinel, type SentinelServers } from '../../scripts/lib/redisServers.js';
import {
  healthzNamesTopology,
  inquiriesAndTheirWebhooks,
  inquiryThroughAWorker,
  monitorRescans,
  revisionOnSecondEdge,
  revocationReachesSecondEdge,
  sessionOnSecondEdge,
  startFlows,
  webhookReceiver,
  type Flows,
} from './flows.js';
import { eventually } from '../support/wait.js';

/**
 * The main flows on a primary with one replica guarded by Sentinel, then a
 * failover forced (SENTINEL FAILOVER) while two edges take inquiries:
 * every inquiry answered 200 is in PostgreSQL and readable afterwards, its
 * webhook is delivered, and calls, streams, queues and schedules work again
 * on the new primary without restarting anything.
 */
let sentinel: SentinelServers;
let flows: Flows;

beforeAll(async () => {
  sentinel = await startRedisSentinel();
  flows = await startFlows('sentinel', 'Sentinel Intel Ltd', { REDIS_SENTINELS: sentinel.sentinels, REDIS_SENTINEL_NAME: sentinel.name });
}, 60_000);

afterAll(async () => {
  await flows?.stop();
  await sentinel?.stop();
});

interface Call {
  startedAt: number;
  status: number;
  inquiryId: string | null;
}

/** Inquiries from `workers` loops, alternating between the edges, until `stop()` resolves. */
function load(bases: string[], key: string, workers: number) {
  const calls: Call[] = [];
  let running = true;
  const loops = Array.from({ length: workers }, async (_, w) => {
    for (let i = 0; running; i += 1) {
      const base = bases[(w + i) % bases.length]!;
      const startedAt = Date.now();
      try {
        const res = await fetch(`${base}/v1/inquiries`, {
          method: 'POST',
          headers: { ...bearer(key), 'content-type': 'application/json' },
          body: JSON.stringify({ ...EMAIL_AND_PHONE, intent: 'onboarding', stake: { ...EMAIL_AND_PHONE.stake, deadline_ms: 1000 } }),
        });
        const body = (await res.json()) as { inquiry_id?: string };
        calls.push({ startedAt, status: res.status, inquiryId: res.status === 200 ? (body.inquiry_id ?? null) : null });
      } catch {
        calls.push({ startedAt, status: 0, inquiryId: null });
      }
    }
  });
  return {
    calls,
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}

describe('on a Sentinel-guarded primary with one replica', () => {
  it('/healthz on both edges names Sentinel', () => healthzNamesTopology(flows.c));

  it("an inquiry, a revision on the second edge's SSE and their webhook deliveries", () => inquiriesAndTheirWebhooks(flows.c), 60_000);

  it('a WebSocket session on the second edge', () => sessionOnSecondEdge(flows.c), 30_000);

  it('a key revoked on one edge is refused on the other', () => revocationReachesSecondEdge(flows.c), 30_000);

  it('a failover forced under load: nothing acknowledged is lost, and calls resume without a restart', async () => {
    flows.provider.handler = (_req, res) => json(res, 200, { risk: 'low' });
    const hooks = await webhookReceiver(flows.c);
    try {
      const traffic = load([flows.ts.base, flows.edge.base], flows.ts.tenant.keys.test, 4);
      // Load answered on the old primary before the failover.
      await eventually(() => traffic.calls.filter((x) => x.status === 200).length > 5, {
        timeout: 30_000,
        what: 'load before the failover',
      });
      const { from, to } = await sentinel.failover();
      expect(to).not.toBe(from);
      const failedOverAt = Date.now();
      // Load goes on on the new primary: calls started two seconds after the failover are answered.
      await eventually(() => traffic.calls.filter((x) => x.startedAt >= failedOverAt + 2000).length > 5, {
        timeout: 60_000,
        what: 'load two seconds after the failover',
      });
      await traffic.stop();

      const before = traffic.calls.filter((x) => x.startedAt < failedOverAt);
      const after = traffic.calls.filter((x) => x.startedAt >= failedOverAt + 2000);
      expect(before.length).toBeGreaterThan(5);
      expect(after.length).toBeGreaterThan(5);
      // Resumed: every call started two seconds after the failover was answered.
      expect(after.filter((x) => x.status !== 200)).toEqual([]);

      // Nothing acknowledged lost: every 200 is in PostgreSQL, concluded, and its webhook arrives.
      const acknowledged = traffic.calls.flatMap((x) => (x.inquiryId ? [x.inquiryId] : []));
      const { rows } = await flows.owner.query(`SELECT id::text, status FROM inquiries WHERE id = ANY($1::uuid[])`, [acknowledged]);
      expect(rows).toHaveLength(acknowledged.length);
      expect(rows.filter((r) => r.status !== 'concluded')).toEqual([]);
      const refused = traffic.calls.filter((x) => x.status !== 200);
      console.info(
        `failover under load: ${traffic.calls.length} calls, ${acknowledged.length} answered 200, refused ${JSON.stringify(refused.map((x) => x.status))}`,
      );
      await hooks.allDelivered(acknowledged);
    } finally {
      await hooks.close();
    }
  }, 120_000);

  it("after the failover: /healthz, an inquiry through a worker, a revision on SSE, a monitor's rescans", async () => {
    await vi.waitFor(() => healthzNamesTopology(flows.c), { timeout: 10_000, interval: 200 });
    await inquiryThroughAWorker(flows.c);
    await revisionOnSecondEdge(flows.c);
    await monitorRescans(flows.c);
  }, 90_000);
});
