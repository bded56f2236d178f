import { randomBytes, randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import pino from 'pino';
import { UnrecoverableError, type Job } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { createQueues, jobOptionsOf, type QueueProcessor } from '../../actors/queues.js';
import { startWorker } from '../../src/root/workerFactory.js';
import { createScheduler } from '../../src/platform/scheduler.js';
import { currentUnit } from '../../src/platform/unitContext.js';
import { eventually } from '../support/wait.js';

/**
 * One worker shell (issue 49 item 7): every BullMQ worker of the service is
 * made by src/root/workerFactory.ts from a capability's processor, and the
 * options a job is added with are the job catalogue's (actors/queues.ts).
 */
const ROOT = join(import.meta.dirname, '..', '..');
const REDIS = { host: '127.0.0.1', port: 6379 };

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

describe('the one worker shell', () => {
  it('is the only file under src/ and actors/ that makes a BullMQ Worker', () => {
    const makers = ['src', 'actors']
      .flatMap((dir) => sourceFiles(join(ROOT, dir)))
      .filter((file) => {
        const text = readFileSync(file, 'utf8');
        // A value import of bullmq's Worker (worker_threads' Worker is another thing).
        const fromBull = /import\s*\{[^}]*\bWorker\b[^}]*\}\s*from\s*'bullmq'/.exec(text);
        return fromBull !== null && !/import\s*\{[^}]*\btype Worker\b/.test(fromBull[0]) && /new Worker\(/.test(text);
      })
      .map((file) => relative(ROOT, file));
    expect(makers).toEqual(['src/root/workerFactory.ts']);
  });

  it("runs a processor on real Redis with the processor's concurrency, and on close stops the worker and then closes the processor", async () => {
    const prefix = `tastest:${randomBytes(4).toString('hex')}`;
    const queues = createQueues({ connection: REDIS, prefix });
    const seen: string[] = [];
    const order: string[] = [];
    const processor: QueueProcessor<'checks'> = {
      queue: 'checks',
      concurrency: 3,
      process(job: Job) {
        if (job.name !== 'check.run') return Promise.reject(new UnrecoverableError('unknown'));
        seen.push((job.data as { key: string }).key);
        return Promise.resolve();
      },
      close: () => Promise.resolve(void order.push('processor closed')),
    };
    const running = startWorker(processor, { connection: REDIS, prefix, log: pino({ level: 'silent' }) });
    try {
      expect(running.worker.concurrency).toBe(3);
      const key = randomUUID();
      await queues.named('checks').add('check.run', { key }, { jobId: key });
      await eventually(() => seen.includes(key));
    } finally {
      running.worker.on('closed', () => order.push('worker closed'));
      await running.close();
      await queues.close();
    }
    expect(order).toEqual(['worker closed', 'processor closed']);
  });
});

describe("the shell's tenant scheduling", () => {
  it("given the process's scheduler, a tenant's job runs as a unit of its tenant, and a job without a tenant at once", async () => {
    const prefix = `tastest:${randomBytes(4).toString('hex')}`;
    const queues = createQueues({ connection: REDIS, prefix });
    const scheduler = createScheduler({ inFlight: 2, queuePerTenant: 4, weights: new Map() });
    const asUnit = new Map<string, boolean>();
    const processor: QueueProcessor<'exports'> = {
      queue: 'exports',
      concurrency: 2,
      process(job: Job) {
        asUnit.set(job.id!, currentUnit() !== undefined);
        return Promise.resolve();
      },
    };
    const running = startWorker(processor, { connection: REDIS, prefix, log: pino({ level: 'silent' }), scheduler });
    try {
      const data = { exportId: randomUUID(), attempt: 1, tenantId: randomUUID(), mode: 'test' as const };
      await queues.add('exports', 'case.export', data, { jobId: 'of-a-tenant' });
      // Added by name, past the catalogue's types, as the service's own sweep-like work would be: no tenant.
      await queues.named('exports').add('case.export', { exportId: randomUUID() }, { jobId: 'of-none' });
      await eventually(() => asUnit.size === 2);
      expect(Object.fromEntries(asUnit)).toEqual({ 'of-a-tenant': true, 'of-none': false });
    } finally {
      await running.close();
      await queues.close();
    }
  });
});

describe('job options in the catalogue', () => {
  it("a fan-out carries its own retries and retention; an export and an extraction their retention; an outbox job none of the catalogue's", () => {
    expect(jobOptionsOf('webhooks', 'webhook.fanout')).toEqual({
      attempts: 5,
      backoff: { type: 'exponential', delay: 500 },
      removeOnComplete: { age: 3600 },
      removeOnFail: { age: 86_400 },
    });
    expect(jobOptionsOf('exports', 'case.export')).toEqual({ removeOnComplete: { age: 86_400 }, removeOnFail: { age: 7 * 86_400 } });
    expect(jobOptionsOf('material', 'material.extract')).toEqual({ removeOnComplete: { age: 3600 }, removeOnFail: { age: 7 * 86_400 } });
    expect(jobOptionsOf('checks', 'check.run')).toEqual({});
  });

  it('a job added through the queues gets them, with the call’s own beside them', async () => {
    const prefix = `tastest:${randomBytes(4).toString('hex')}`;
    const queues = createQueues({ connection: REDIS, prefix });
    try {
      const data = { exportId: randomUUID(), attempt: 1, tenantId: randomUUID(), mode: 'test' as const };
      await queues.add('exports', 'case.export', data, { jobId: `${data.exportId}.1` });
      const job = await queues.queue('exports').getJob(`${data.exportId}.1`);
      expect(job?.opts).toMatchObject({
        attempts: 4,
        removeOnComplete: { age: 86_400 },
        removeOnFail: { age: 7 * 86_400 },
      });
    } finally {
      await queues.close();
    }
  });
});
