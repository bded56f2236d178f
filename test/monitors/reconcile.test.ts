import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reconcileMonitorSchedules } from '../../src/monitors/reconcile.js';
import { startTestService, type TestService } from '../support/service.js';
import { call, WATCH } from './support.js';

/**
 * Losing Redis loses no monitor (issue 12 item 5): PostgreSQL is the source
 * of truth and the schedules are reconciled from it. Here the Redis side of
 * the cadences is wiped as an empty restart would, and reconciliation puts
 * back exactly the open monitors' schedules, and only theirs.
 */
let ts: TestService;
beforeAll(async () => {
  ts = await startTestService({}, { workers: false });
});
afterAll(async () => ts?.stop());

const body = { ...WATCH, cadence_seconds: 3600, triggers: { score_below: 40 } };

describe('monitor schedules after Redis lost them', () => {
  it('are restored from PostgreSQL for open monitors, and not for closed ones', async () => {
    const kept = (await call(ts, 'POST', '/v1/monitors', ts.tenant.keys.test, body)).body.monitor_id;
    const closed = (await call(ts, 'POST', '/v1/monitors', ts.tenant.keys.test, body)).body.monitor_id;
    expect((await call(ts, 'DELETE', `/v1/monitors/${closed}`, ts.tenant.keys.test)).status).toBeLessThan(300);
    const queue = ts.service.core.queues.named('monitors');
    expect(await queue.getJobScheduler(kept)).toBeTruthy();

    for (const s of await queue.getJobSchedulers(0, -1)) await queue.removeJobScheduler(s.key);
    expect(await queue.getJobScheduler(kept)).toBeFalsy();

    expect(await reconcileMonitorSchedules(ts.service.db, queue)).toEqual({ restored: 1, removed: 0 });
    expect(await queue.getJobScheduler(kept)).toBeTruthy();
    expect(await queue.getJobScheduler(closed)).toBeFalsy();
    expect((await call(ts, 'GET', `/v1/monitors/${kept}`, ts.tenant.keys.test)).body.next_run_at).not.toBeNull();
    expect(await reconcileMonitorSchedules(ts.service.db, queue)).toEqual({ restored: 0, removed: 0 });
  });

  it('a schedule left for a monitor PostgreSQL does not know is removed', async () => {
    const queue = ts.service.core.queues.named('monitors');
    await queue.upsertJobScheduler('00000000-0000-4000-8000-000000000001', { every: 3_600_000 }, { name: 'monitor.rescan', data: {} });
    expect((await reconcileMonitorSchedules(ts.service.db, queue)).removed).toBe(1);
  });
});
