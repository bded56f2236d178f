import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRateLimiter } from '../../src/http/rateLimit.js';
import { createRedis } from '../../src/redis/client.js';

/**
 * The limiter with a real Redis, and with a Redis that does not answer
 * (a closed port): it never throws, and a key is still limited, per process.
 */
const live = createRedis('redis://127.0.0.1:6379');
const dead = createRedis('redis://127.0.0.1:1');
beforeAll(async () => {
  await live.connect();
});
afterAll(() => {
  live.disconnect();
  dead.disconnect();
});

async function takes(limiter: ReturnType<typeof createRateLimiter>, key: string, n: number): Promise<(number | null)[]> {
  const out = [];
  for (let i = 0; i < n; i++) out.push(await limiter.take(key));
  return out;
}

describe('the rate limiter', () => {
  const now = () => 1_800_000_000_250;

  it('counts in Redis: the fourth call of a window over a limit of three waits', async () => {
    const limiter = createRateLimiter({ redis: live, prefix: `tastest:rl:${process.pid}:${Date.now()}`, perSecond: 3, now });
    expect(await takes(limiter, 'k', 4)).toEqual([null, null, null, 1]);
    expect(limiter.degraded()).toBe(false);
  });

  it('without Redis, counts locally, still limits, and says it is degraded', async () => {
    const limiter = createRateLimiter({ redis: dead, prefix: 'tastest:rl:dead', perSecond: 3, now });
    expect(await takes(limiter, 'k', 4)).toEqual([null, null, null, 1]);
    expect(await limiter.take('other')).toBeNull();
    expect(limiter.degraded()).toBe(true);
  });
});
