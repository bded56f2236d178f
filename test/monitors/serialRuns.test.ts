import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MonitorOut } from '../../src/monitors/schemas.js';
import { json, providersFile, startProviderFixture, type ProviderFixture } from '../inquiries/support.js';
import { ownerClient } from '../support/database.js';
import { startTestService, type TestService } from '../support/service.js';
import { call, ledgerCount, WATCH } from './support.js';

/**
 * A watch's runs go one at a time. Its provider here answers in 1.5 s while
 * the cadence is 1 s, so runs come due while the one before is still asking.
 * Run side by side, each compared its answer with the assessment held when it
 * began, and under load every one of them appended a ledger entry for an
 * answer that had not changed. Now a run behind an earlier one waits for it.
 */
const PROVIDER_MS = 1500;

let ts: TestService;
let provider: ProviderFixture;
let owner: pg.Client;
let asking = 0;
let mostAtOnce = 0;
let calls = 0;

beforeAll(async () => {
  provider = await startProviderFixture();
  provider.handler = (_req, res) => {
    asking += 1;
    calls += 1;
    mostAtOnce = Math.max(mostAtOnce, asking);
    // The provider's slowness is the subject of this test, not a wait for something to happen.
    setTimeout(() => {
      asking -= 1;
      json(res, 200, { risk: 'low' });
    }, PROVIDER_MS);
  };
  ts = await startTestService({
    TAS_MIN_MONITOR_CADENCE_SECONDS: '1',
    TAS_PROVIDERS_FILE: providersFile(provider.url, 'Slow Steady Intel Ltd', 5000),
  });
  owner = await ownerClient(ts.dbUrl);
});

afterAll(async () => {
  await owner?.end();
  await ts?.stop();
  await provider?.close();
});

const readMonitor = async (id: string) => MonitorOut.parse((await call(ts, 'GET', `/v1/monitors/${id}`, ts.tenant.keys.test)).body);

describe('a watch whose runs come due faster than they finish', () => {
  it('asks one run at a time, and appends only for the baseline and the one change its own history makes', async () => {
    const created = await call(ts, 'POST', '/v1/monitors', ts.tenant.keys.test, {
      ...WATCH,
      cadence_seconds: 1,
      triggers: { score_moves_by: 10 },
    });
    expect(created.status).toBe(201);
    const id = created.body.monitor_id as string;
    await vi.waitFor(async () => expect((await readMonitor(id)).unchanged_rescans).toBeGreaterThanOrEqual(2), {
      timeout: 45_000,
      interval: 200,
    });
    await call(ts, 'DELETE', `/v1/monitors/${id}`, ts.tenant.keys.test);
    // At least three runs asked (a baseline and two unchanged), and never two at once.
    expect(calls).toBeGreaterThanOrEqual(3);
    expect(mostAtOnce).toBe(1);
    expect(await ledgerCount(owner, id)).toBeLessThanOrEqual(2);
  });
});
