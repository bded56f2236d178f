import { EventSource } from 'eventsource';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MonitorOut } from '../../src/monitors/schemas.js';
import { json, providersFile, startProviderFixture, type ProviderFixture } from '../inquiries/support.js';
import { ownerClient } from '../support/database.js';
import { bearer, startTestService, type TestService } from '../support/service.js';
import { call, ledgerCount, startReceiver, WATCH } from './support.js';

/**
 * Issue 18: a monitor appends and notifies only when the answer changes. A
 * provider that always answers the same: the first rescan is the baseline
 * (an inquiry, a ledger entry, an InquiryConcluded); the second may differ
 * once, because the subject's own history now holds the first; from then on
 * every rescan is unchanged: no inquiry, no ledger entry, no webhook, only the
 * monitor's heartbeat (`last_checked_at`, `unchanged_rescans`) and a
 * `MonitorChecked` signal on its open streams. Then the answer changes, and
 * that rescan appends and notifies again.
 */
let ts: TestService;
let provider: ProviderFixture;
let owner: pg.Client;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let risk: 'low' | 'high' = 'low';
let providerCalls = 0;

beforeAll(async () => {
  provider = await startProviderFixture();
  provider.handler = (_req, res) => {
    providerCalls += 1;
    json(res, 200, { risk });
  };
  receiver = await startReceiver();
  ts = await startTestService({
    TAS_MIN_MONITOR_CADENCE_SECONDS: '1',
    TAS_PROVIDERS_FILE: providersFile(provider.url, 'Steady Intel Ltd', 5000),
  });
  owner = await ownerClient(ts.dbUrl);
});

afterAll(async () => {
  await owner?.end();
  await ts?.stop();
  await provider?.close();
  await receiver?.close();
});

const readMonitor = async (id: string) => MonitorOut.parse((await call(ts, 'GET', `/v1/monitors/${id}`, ts.tenant.keys.test)).body);
const concludedDeliveries = () => receiver.received.filter((d) => JSON.parse(d.body).type === 'InquiryConcluded').length;

describe('a monitor whose subject does not change', () => {
  it('appends and notifies only while the answer changes; unchanged rescans are heartbeats on the monitor and a signal on its stream', async () => {
    const hook = await call(ts, 'POST', '/v1/admin/webhooks', ts.tenant.keys.test_admin, {
      url: receiver.url,
      event_types: ['InquiryConcluded'],
    });
    expect(hook.status).toBe(201);
    const created = await call(ts, 'POST', '/v1/monitors', ts.tenant.keys.test, {
      ...WATCH,
      cadence_seconds: 1,
      triggers: { score_moves_by: 10 },
    });
    expect(created.status).toBe(201);
    const id = created.body.monitor_id as string;

    const signals: string[] = [];
    const es = new EventSource(`${ts.base}/v1/monitors/${id}/events`, {
      fetch: (input, init) =>
        fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), ...bearer(ts.tenant.keys.test) } }),
    });
    es.addEventListener('MonitorChecked', (e) => signals.push(e.data));
    try {
      await vi.waitFor(async () => expect((await readMonitor(id)).unchanged_rescans).toBeGreaterThanOrEqual(1), {
        timeout: 20_000,
        interval: 100,
      });
      const settled = await ledgerCount(owner, id);
      expect(settled).toBeLessThanOrEqual(2);
      const quietFrom = (await readMonitor(id)).unchanged_rescans;
      await vi.waitFor(async () => expect((await readMonitor(id)).unchanged_rescans).toBeGreaterThanOrEqual(quietFrom + 3), {
        timeout: 20_000,
        interval: 100,
      });
      const quiet = await readMonitor(id);
      expect(await ledgerCount(owner, id)).toBe(settled);
      const { rows: asked } = await owner.query('SELECT count(*)::int AS n FROM inquiries WHERE principal = $1', [`monitor:${id}`]);
      expect(asked[0].n).toBe(settled);
      expect(quiet.last_assessment).not.toBeNull();
      expect(Date.parse(quiet.last_checked_at!)).toBeGreaterThan(Date.parse(quiet.last_assessment!.as_of));
      // The provider was asked on every rescan: an unchanged rescan still looks.
      expect(providerCalls).toBeGreaterThanOrEqual(1 + quiet.unchanged_rescans);
      await vi.waitFor(() => expect(concludedDeliveries()).toBe(settled), { timeout: 10_000, interval: 50 });
      await vi.waitFor(() => expect(signals.length).toBeGreaterThanOrEqual(1), { timeout: 10_000, interval: 50 });
      expect(JSON.parse(signals[0]!)).toMatchObject({ stream_id: id, unchanged: true, checked_at: expect.any(String) });

      risk = 'high';
      await vi.waitFor(async () => expect(await ledgerCount(owner, id)).toBeGreaterThan(settled), { timeout: 10_000, interval: 100 });
      // The ledger row is the inquiry's; the monitor records it in its own transaction just after
      // (src/monitors/effects.ts), so its view is read once it has caught up, not in between.
      await vi.waitFor(async () => expect((await readMonitor(id)).last_assessment!.score).toBeLessThan(quiet.last_assessment!.score), {
        timeout: 10_000,
        interval: 100,
      });
      const changed = await readMonitor(id);
      // Unchanged again at the new level: no third entry while the answer holds.
      const countAt = changed.unchanged_rescans;
      await vi.waitFor(async () => expect((await readMonitor(id)).unchanged_rescans).toBeGreaterThanOrEqual(countAt + 1), {
        timeout: 10_000,
        interval: 100,
      });
      const after = await ledgerCount(owner, id);
      await vi.waitFor(async () => expect((await readMonitor(id)).unchanged_rescans).toBeGreaterThanOrEqual(countAt + 3), {
        timeout: 10_000,
        interval: 100,
      });
      expect(await ledgerCount(owner, id)).toBe(after);
      await vi.waitFor(() => expect(concludedDeliveries()).toBe(after), { timeout: 10_000, interval: 50 });
    } finally {
      es.close();
      await call(ts, 'DELETE', `/v1/monitors/${id}`, ts.tenant.keys.test);
    }
  }, 60_000);
});
