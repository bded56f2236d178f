import { randomBytes, randomUUID } from 'node:crypto';
import { Queue, Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MaterialJob } from '../../src/material/extraction.js';
import { createFairExtractionQueue } from '../../src/material/fairShare.js';
import { dropRedisKeys } from '../support/service.js';

/**
 * Issue 40, "the extraction slots are shared first come, first served": one
 * tenant's 50 extractions asked first do not make another tenant's one wait
 * for all 50. Real Redis and BullMQ, the fair queue the root wires in front of
 * the material queue, one worker slot.
 */
const REDIS_URL = 'redis://127.0.0.1:6379';
const prefix = `tastest:${randomBytes(4).toString('hex')}`;
let redis: Redis;
let queue: Queue;

beforeAll(() => {
  redis = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
  queue = new Queue('material', { connection: { url: REDIS_URL }, prefix });
});
afterAll(async () => {
  await queue?.close();
  await dropRedisKeys(REDIS_URL, prefix);
  redis?.disconnect();
});

describe('extraction shared fairly across tenants', () => {
  it("a tenant's one extraction, asked after another tenant's 50, is among the first two taken; each tenant's own keep their order", async () => {
    const fair = createFairExtractionQueue({
      redis,
      prefix,
      add: async (job, { priority }) => {
        await queue.add('material.extract', job, { jobId: job.materialId, priority });
      },
    });
    const busy = randomUUID();
    const quiet = randomUUID();
    const busyJobs: MaterialJob[] = Array.from({ length: 50 }, () => ({ materialId: randomUUID(), tenantId: busy, mode: 'live' }));
    for (const job of busyJobs) await fair.enqueue(job);
    const quietJob: MaterialJob = { materialId: randomUUID(), tenantId: quiet, mode: 'live' };
    await fair.enqueue(quietJob);
    // Asked again (a read that finds it still received): it keeps its place and adds nothing.
    await fair.enqueue(busyJobs[49]!);

    const order: string[] = [];
    let finish: () => void;
    const allDone = new Promise<void>((resolve) => (finish = resolve));
    const worker = new Worker(
      'material',
      async (job: Job<MaterialJob>) => {
        order.push(job.data.materialId);
        await fair.settled(job.data);
        if (order.length === 51) finish();
      },
      { connection: { url: REDIS_URL, maxRetriesPerRequest: null }, prefix, concurrency: 1 },
    );
    try {
      await allDone;
    } finally {
      await worker.close();
    }
    expect(order.indexOf(quietJob.materialId)).toBeLessThan(2);
    expect(order.filter((id) => id !== quietJob.materialId)).toEqual(busyJobs.map((j) => j.materialId));
    // Every place was given back.
    expect(await redis.keys(`${prefix}:material-pending:*`)).toEqual([]);
  });
});
