import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRateLimiter, decisionOf, rateLimitHeaders } from '../../src/edge/rateLimit.js';
import { createRedis } from '../../src/platform/redis/client.js';
import { bearer, startTestService, type TestService } from '../support/service.js';

/**
 * The limiter as a token bucket, with a real Redis and with a Redis that does
 * not answer (a closed port): it never throws, a key is always limited, and
 * every keyed answer carries the IETF RateLimit fields.
 */
const live = createRedis('redis://127.0.0.1:6379');
const dead = createRedis('redis://127.0.0.1:1');
let ts: TestService;
beforeAll(async () => {
  await live.connect();
  ts = await startTestService({ TAS_RATE_LIMIT_PER_SEC: '5' }, { workers: false });
});
afterAll(async () => {
  live.disconnect();
  dead.disconnect();
  await ts?.stop();
});

async function waits(limiter: ReturnType<typeof createRateLimiter>, key: string, n: number): Promise<(number | null)[]> {
  const out = [];
  for (let i = 0; i < n; i++) out.push((await limiter.take(key)).wait);
  return out;
}

describe('the rate limiter', () => {
  it('a bucket of three: three pass at once, the fourth waits', async () => {
    const limiter = createRateLimiter({ redis: live, prefix: `tastest:rl:${process.pid}:${Date.now()}`, perSecond: 3 });
    expect(await waits(limiter, 'k', 4)).toEqual([null, null, null, 1]);
    expect(limiter.degraded()).toBe(false);
  });

  it('refills continuously: no burst of twice the limit at a window edge', async () => {
    const prefix = `tastest:rl:${process.pid}:${Date.now()}:edge`;
    const limiter = createRateLimiter({ redis: live, prefix, perSecond: 10 });
    const first = await waits(limiter, 'k', 10);
    expect(first.every((w) => w === null)).toBe(true);
    // The bucket runs on Redis's own clock: instead of sleeping 150 ms, move its last refill 150 ms into Redis's past.
    const [seconds, micros] = await live.time();
    const redisNow = Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
    await live.hset(`${prefix}:rb:k`, 'tokens', '0', 'at', String(redisNow - 150));
    const after = await waits(limiter, 'k', 10);
    // 150 ms refills one and a half tokens, not ten: one call passes (two if the calls themselves took 50 ms).
    expect(after.filter((w) => w === null).length).toBeGreaterThanOrEqual(1);
    expect(after.filter((w) => w === null).length).toBeLessThanOrEqual(2);
  });

  it('refills continuously on its own clock too: 150 ms give one call, a second gives the whole quota and no more', async () => {
    let t = 1_800_000_000_000;
    const limiter = createRateLimiter({ redis: dead, prefix: 'tastest:rl:dead:refill', perSecond: 10, now: () => t });
    expect((await waits(limiter, 'k', 10)).every((w) => w === null)).toBe(true);
    t += 150;
    expect((await waits(limiter, 'k', 10)).filter((w) => w === null)).toHaveLength(1);
    t += 10_000;
    expect((await waits(limiter, 'k', 11)).filter((w) => w === null)).toHaveLength(10);
  });

  it('without Redis, keeps a local bucket, still limits, and says it is degraded', async () => {
    const now = () => 1_800_000_000_250;
    const limiter = createRateLimiter({ redis: dead, prefix: 'tastest:rl:dead', perSecond: 3, now });
    expect(await waits(limiter, 'k', 4)).toEqual([null, null, null, 1]);
    expect((await limiter.take('other')).wait).toBeNull();
    expect(limiter.degraded()).toBe(true);
  });

  it('publishes policy, remaining and reset as the IETF fields', () => {
    expect(rateLimitHeaders(decisionOf(true, 2.4, 5))).toEqual({ 'RateLimit-Policy': '"per-key";q=5;w=1', RateLimit: '"per-key";r=2;t=1' });
  });
});

describe('through the server', () => {
  it('every keyed answer carries RateLimit fields, and a 429 carries Retry-After', async () => {
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => fetch(`${ts.base}/v1/health`, { headers: bearer(ts.tenant.keys.test) })),
    );
    for (const a of answers) expect(a.headers.get('ratelimit-policy')).toBe('"per-key";q=5;w=1');
    const refused = answers.filter((a) => a.status === 429);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused[0]!.headers.get('retry-after')).toBe('1');
  });
});
