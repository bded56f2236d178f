import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createActorRuntime } from '../../actors/runtime.js';
import { MONITOR_MACHINE_VERSION, monitorMachine } from '../../machines/monitorMachine.js';
import { createEventHub, type EventHub } from '../../src/events/hub.js';
import { monitorEffects } from '../../src/monitors/effects.js';
import { createMonitorRuns, type MonitorRuns } from '../../src/monitors/runs.js';
import { countingDb, type CountingDb } from '../support/countingDb.js';
import { startTestService, type TestService } from '../support/service.js';
import { call, WATCH } from './support.js';

/**
 * A run behind an earlier one of its watch is asked again every 250 ms until
 * that one ends (src/monitors/jobs.ts). Each of those looks reads the watch's
 * actor and nothing else: one transaction, not the monitor's row besides.
 * No worker runs here, so the runs stay outstanding while the test asks.
 */
let ts: TestService;
let hub: EventHub;
let counted: CountingDb;
let runs: MonitorRuns;

beforeAll(async () => {
  ts = await startTestService({}, { workers: false });
  hub = await createEventHub({ redisUrl: ts.config.redis, prefix: ts.config.TAS_REDIS_PREFIX, log: ts.service.log });
  counted = countingDb(ts.service.db, 'transaction');
  const runtime = createActorRuntime({
    db: counted.db,
    relay: ts.service.core.relay,
    machines: { monitor: { machine: monitorMachine, version: MONITOR_MACHINE_VERSION } },
    effects: monitorEffects,
  });
  runs = createMonitorRuns({
    db: counted.db,
    runtime,
    inquiries: ts.service.core.inquiries,
    queue: () => ts.service.core.queues.queue('monitors'),
    hub,
    log: ts.service.log,
  });
});

afterAll(async () => {
  await hub?.close();
  await ts?.stop();
});

describe('a run behind an earlier run of its watch', () => {
  it('waits after one read of the actor, and once the watch is closed it is done after one read too', async () => {
    const created = await call(ts, 'POST', '/v1/monitors', ts.tenant.keys.test, {
      ...WATCH,
      cadence_seconds: 3600,
      triggers: { score_moves_by: 10 },
    });
    expect(created.status).toBe(201);
    const monitorId = created.body.monitor_id as string;
    const scope = { tenantId: ts.tenant.tenant_id, mode: 'test' as const };
    for (const runId of ['waiting-run-first', 'waiting-run-second'])
      await ts.service.core.runtime.send(scope, { kind: 'monitor', id: monitorId }, { type: 'monitor.rescanDue', runId });
    const actor = await ts.service.core.runtime.read(scope, { kind: 'monitor', id: monitorId });
    const inFlight = actor!.context.inFlight;
    expect(inFlight.indexOf('waiting-run-second')).toBeGreaterThan(inFlight.indexOf('waiting-run-first'));
    const job = { ...scope, monitorId, runId: 'waiting-run-second' };

    const before = counted.calls();
    expect(await runs.run(job, false)).toBe('waits');
    expect(counted.calls() - before).toBe(1);

    expect((await call(ts, 'DELETE', `/v1/monitors/${monitorId}`, ts.tenant.keys.test)).status).toBeLessThan(300);
    const afterClose = counted.calls();
    expect(await runs.run(job, false)).toBe('ran');
    expect(counted.calls() - afterClose).toBe(1);
  });
});
