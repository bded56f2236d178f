import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ownerClient } from '../support/database.js';
import { startTestService, type TestService } from '../support/service.js';
import { call, WATCH } from './support.js';

/**
 * Issue 40: a monitor stops when the key that opened it is revoked, even when
 * the revocation reached no process (written to the database alone): its
 * next rescan finds the key revoked, closes the watch and asks nothing.
 */
let ts: TestService;
beforeAll(async () => {
  ts = await startTestService({ TAS_MIN_MONITOR_CADENCE_SECONDS: '1' });
});
afterAll(async () => ts?.stop());

const inquiriesOf = async (monitorId: string) => {
  const owner = await ownerClient(ts.dbUrl);
  try {
    return (await owner.query(`SELECT count(*)::int AS n FROM audit_log WHERE principal = $1`, [`monitor:${monitorId}`])).rows[0]
      .n as number;
  } finally {
    await owner.end();
  }
};

describe('a monitor whose key is revoked', () => {
  it('closes at its next rescan, its schedule ends and it asks nothing more', async () => {
    const minted = await call(ts, 'POST', '/v1/admin/keys', ts.tenant.keys.test_admin, {
      name: 'watcher',
      scopes: ['monitors', 'inquiries'],
      mode: 'test',
    });
    const key = minted.body.secret as string;
    const created = await call(ts, 'POST', '/v1/monitors', key, { ...WATCH, cadence_seconds: 1, triggers: { label_change: true } });
    expect(created.status).toBe(201);
    const id = created.body.monitor_id as string;
    await vi.waitFor(async () => expect(await inquiriesOf(id)).toBeGreaterThan(0), { timeout: 10_000, interval: 200 });

    const owner = await ownerClient(ts.dbUrl);
    try {
      await owner.query('UPDATE api_keys SET revoked_at = now() WHERE id = $1', [minted.body.key_id]);
    } finally {
      await owner.end();
    }
    await vi.waitFor(
      async () => {
        const view = await call(ts, 'GET', `/v1/monitors/${id}`, ts.tenant.keys.test);
        expect(view.body).toMatchObject({ state: 'closed', next_run_at: null });
      },
      { timeout: 10_000, interval: 200 },
    );
    const asked = await inquiriesOf(id);
    const closedView = (await call(ts, 'GET', `/v1/monitors/${id}`, ts.tenant.keys.test)).body;
    // The proof that nothing more runs: a witness watch on the same scheduler and workers, opened after
    // the close, completes three runs at the same 1 s cadence (two slots the closed watch would have had).
    const witness = await call(ts, 'POST', '/v1/monitors', ts.tenant.keys.test, {
      ...WATCH,
      cadence_seconds: 1,
      triggers: { label_change: true },
    });
    expect(witness.status).toBe(201);
    const witnessId = witness.body.monitor_id as string;
    await vi.waitFor(
      async () => {
        const view = await call(ts, 'GET', `/v1/monitors/${witnessId}`, ts.tenant.keys.test);
        expect((await inquiriesOf(witnessId)) + (view.body.unchanged_rescans as number)).toBeGreaterThanOrEqual(3);
      },
      { timeout: 20_000, interval: 200 },
    );
    expect(await inquiriesOf(id)).toBe(asked);
    // Nor was it checked without asking: an unchanged rescan would have moved its heartbeat.
    const after = (await call(ts, 'GET', `/v1/monitors/${id}`, ts.tenant.keys.test)).body;
    expect({ checked: after.last_checked_at, unchanged: after.unchanged_rescans }).toEqual({
      checked: closedView.last_checked_at,
      unchanged: closedView.unchanged_rescans,
    });
  });
});
