import { QueueEvents } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MONITOR_QUEUE } from '../../machines/monitorMachine.js';
import { startTestService, type TestService } from '../support/service.js';
import { call, POLICY, WATCH } from './support.js';

/**
 * A monitor's next_run_at is when its scheduler runs the next rescan (issue
 * 38: it said 07:15:47 and the rescans ran at 07:15:01 and 07:16:00). Checked
 * against the scheduler's own record: its pending job (id
 * `repeat:<monitor>:<slot millis>`, due at timestamp + delay), and the slot the
 * next tick actually runs.
 */
let ts: TestService;
let events: QueueEvents;
const started: { jobId: string; at: number }[] = [];
const waiters: (() => void)[] = [];

beforeAll(async () => {
  ts = await startTestService({ TAS_MIN_MONITOR_CADENCE_SECONDS: '1' });
  events = new QueueEvents(MONITOR_QUEUE, { connection: { host: '127.0.0.1', port: 6379 }, prefix: ts.config.TAS_REDIS_PREFIX });
  events.on('active', ({ jobId }) => {
    started.push({ jobId, at: Date.now() });
    for (const w of waiters.splice(0)) w();
  });
  await events.waitUntilReady();
});

afterAll(async () => {
  await events?.close();
  await ts?.stop();
});

/** Resolves with the first tick of `monitorId` for `slot` (or any slot after `after`) once it has started. */
async function tickStarted(monitorId: string, match: (slot: number) => boolean): Promise<{ slot: number; at: number }> {
  for (;;) {
    const hit = started
      .map((s) => ({ ...s, slot: Number(s.jobId.split(':')[2]) }))
      .find((s) => s.jobId.startsWith(`repeat:${monitorId}:`) && match(s.slot));
    if (hit) return hit;
    await new Promise<void>((resolve) => waiters.push(resolve));
  }
}

describe("a monitor's next_run_at", () => {
  it("is the due time of the scheduler's pending job, and the next tick runs that very slot, not before it", async () => {
    expect((await call(ts, 'POST', '/v1/admin/policies', ts.tenant.keys.test_admin, POLICY)).status).toBe(201);
    const created = await call(ts, 'POST', '/v1/monitors', ts.tenant.keys.test, {
      ...WATCH,
      cadence_seconds: 2,
      triggers: { score_moves_by: 10 },
    });
    expect(created.status).toBe(201);
    const id: string = created.body.monitor_id;
    const queue = ts.service.core.queues.queue('monitors');
    // The first slot runs at once; from then on one slot waits, two seconds after the last.
    const first = await tickStarted(id, () => true);
    const view = await call(ts, 'GET', `/v1/monitors/${id}`, ts.tenant.keys.test);
    const nextRunAt = Date.parse(view.body.next_run_at);
    expect(nextRunAt).toBe(first.slot + 2000);

    // The scheduler's own record: its pending job is that slot, due then.
    const scheduler = await queue.getJobScheduler(id);
    expect(scheduler?.next).toBe(nextRunAt);
    const pending = await queue.getJob(`repeat:${id}:${nextRunAt}`);
    expect(pending).toBeTruthy();
    expect(pending!.timestamp + pending!.opts.delay!).toBe(nextRunAt);
    expect(await pending!.getState()).toBe('delayed');

    // And the next tick is that slot, started at or after it (within a worker's pick-up time).
    const second = await tickStarted(id, (slot) => slot > first.slot);
    expect(second.slot).toBe(nextRunAt);
    expect(second.at).toBeGreaterThanOrEqual(nextRunAt);
    expect(second.at - nextRunAt).toBeLessThan(1500);
    expect(Date.parse((await call(ts, 'GET', `/v1/monitors/${id}`, ts.tenant.keys.test)).body.next_run_at)).toBe(second.slot + 2000);
    expect((await call(ts, 'DELETE', `/v1/monitors/${id}`, ts.tenant.keys.test)).status).toBe(204);
  });
});
