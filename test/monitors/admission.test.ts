import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MonitorOut } from '../../src/monitors/schemas.js';
import type { ProvisionedTenant } from '../../src/tenancy/provision.js';
import { startTestService, type TestService } from '../support/service.js';
import { call, WATCH } from './support.js';
import { without } from '../support/objects.js';

/**
 * Opening, reading and ending monitors at the edge, with the default cadence
 * floor (60 s) and no workers: the rules a monitor must pass, and what other
 * tenants and other modes see of it.
 */
let ts: TestService;
let other: ProvisionedTenant;
beforeAll(async () => {
  ts = await startTestService({}, { workers: false });
  other = await ts.provision('other-co');
});
afterAll(async () => ts?.stop());

const body = (over: Record<string, unknown> = {}) => ({ ...WATCH, cadence_seconds: 3600, triggers: { score_below: 40 }, ...over });

describe('POST /v1/monitors', () => {
  it('a cadence under the operator floor is refused with a 422 naming cadence_seconds', async () => {
    const r = await call(ts, 'POST', '/v1/monitors', ts.tenant.keys.test, body({ cadence_seconds: 30 }));
    expect(r.status).toBe(422);
    expect(r.body.detail).toEqual([
      { loc: ['body', 'cadence_seconds'], msg: 'Input should be greater than or equal to 60', type: 'too_small' },
    ]);
  });

  it('the floor itself is accepted', async () => {
    expect((await call(ts, 'POST', '/v1/monitors', ts.tenant.keys.test, body({ cadence_seconds: 60 }))).status).toBe(201);
  });

  it('an unregistered purpose gets the same I13 refusal as an inquiry, and so does a missing one', async () => {
    const monitor = await call(ts, 'POST', '/v1/monitors', ts.tenant.keys.test, body({ purpose: 'curiosity' }));
    const inquiry = await call(ts, 'POST', '/v1/inquiries', ts.tenant.keys.test, { ...WATCH, purpose: 'curiosity' });
    expect(monitor.status).toBe(422);
    expect(monitor.body).toEqual(inquiry.body);
    expect(monitor.body.detail[0]).toMatchObject({ loc: ['body', 'purpose'], type: 'I13' });
    const missing = await call(ts, 'POST', '/v1/monitors', ts.tenant.keys.test, without(body(), 'purpose'));
    expect(missing.status).toBe(422);
    expect(missing.body).toEqual(inquiry.body);
  });

  it('a purpose the current policy does not allow is refused (rule I13)', async () => {
    const tenant = await ts.provision('strict-co');
    const policy = {
      allowed_purposes: ['credit_risk'],
      allowed_intents: ['counterparty_check'],
      render_ceiling: 'template',
      show_findings: false,
      rules: [],
    };
    expect((await call(ts, 'POST', '/v1/admin/policies', tenant.keys.test_admin, policy)).status).toBe(201);
    const r = await call(ts, 'POST', '/v1/monitors', tenant.keys.test, body());
    expect(r.status).toBe(422);
    expect(r.body.detail[0].type).toBe('I13');
    // A refusal by the policy names the policy (its version and what it allows), not the registry, which lists the value.
    expect(r.body.detail).toEqual([
      {
        loc: ['body', 'purpose'],
        msg: expect.stringMatching(
          /^The declared purpose is not allowed by the tenant's policy, version 1, which allows credit_risk \(rule I13\)/,
        ),
        type: 'I13',
        policy: { policy_version: 1, allowed: ['credit_risk'] },
      },
    ]);
    expect(r.body.detail[0].msg).not.toContain('/v1/registry/');
    const intent = await call(ts, 'POST', '/v1/inquiries', tenant.keys.test, { ...WATCH, purpose: 'credit_risk', intent: 'onboarding' });
    expect(intent.status).toBe(422);
    expect(intent.body.detail).toEqual([
      {
        loc: ['body', 'intent'],
        msg: expect.stringContaining("not allowed by the tenant's policy, version 1, which allows counterparty_check (rule I14)"),
        type: 'I14',
        policy: { policy_version: 1, allowed: ['counterparty_check'] },
      },
    ]);
    // A value not registered at all still gets the registry's refusal, the same as without a policy.
    const unregistered = await call(ts, 'POST', '/v1/monitors', tenant.keys.test, body({ purpose: 'curiosity' }));
    expect(unregistered.body.detail[0]).not.toHaveProperty('policy');
    expect(unregistered.body.detail[0].msg).toContain('GET /v1/registry/purposes');
  });

  it('needs the monitors scope: an admin key gets 403', async () => {
    const r = await call(ts, 'POST', '/v1/monitors', ts.tenant.keys.test_admin, body());
    expect(r.status).toBe(403);
    expect(r.body.missing_scope).toBe('monitors');
  });
});

describe('GET and DELETE /v1/monitors/{monitor_id}', () => {
  it('reads back what was opened; another tenant, the other mode and an unknown id all get the same 404', async () => {
    const created = await call(
      ts,
      'POST',
      '/v1/monitors',
      ts.tenant.keys.test,
      body({ triggers: { label_change: true, width_above: 50 } }),
    );
    const id = created.body.monitor_id as string;
    const got = await call(ts, 'GET', `/v1/monitors/${id}`, ts.tenant.keys.test);
    expect(got.status).toBe(200);
    expect(MonitorOut.parse(got.body)).toEqual({ ...created.body, next_run_at: expect.any(String) });
    expect(got.body).toMatchObject({ subject: WATCH.subject, stake: WATCH.stake, triggers: { label_change: true, width_above: 50 } });

    const unknown = await call(ts, 'GET', '/v1/monitors/00000000-0000-4000-8000-000000000000', ts.tenant.keys.test);
    expect(unknown.status).toBe(404);
    for (const key of [other.keys.test, ts.tenant.keys.live]) {
      const r = await call(ts, 'GET', `/v1/monitors/${id}`, key);
      expect(r.status).toBe(404);
      expect(r.body.type).toBe(unknown.body.type);
      expect((await call(ts, 'DELETE', `/v1/monitors/${id}`, key)).status).toBe(404);
      expect((await call(ts, 'GET', `/v1/monitors/${id}/events`, key)).status).toBe(404);
    }
    expect((await call(ts, 'DELETE', '/v1/monitors/00000000-0000-4000-8000-000000000000', ts.tenant.keys.test)).status).toBe(404);
  });

  it('DELETE ends the schedule; a stream opened afterwards holding everything is told 204', async () => {
    const created = await call(ts, 'POST', '/v1/monitors', ts.tenant.keys.test, body());
    const id = created.body.monitor_id as string;
    const queue = ts.service.core.queues.queue('monitors');
    expect(await queue.getJobScheduler(id)).toMatchObject({ every: 3_600_000, name: 'monitor.rescan' });
    expect((await call(ts, 'DELETE', `/v1/monitors/${id}`, ts.tenant.keys.test)).status).toBe(204);
    expect(await queue.getJobScheduler(id)).toBeUndefined();
    expect((await call(ts, 'GET', `/v1/monitors/${id}`, ts.tenant.keys.test)).body).toMatchObject({ state: 'closed', next_run_at: null });
    const stream = await fetch(`${ts.base}/v1/monitors/${id}/events`, { headers: { authorization: `Bearer ${ts.tenant.keys.test}` } });
    expect(stream.status).toBe(204);
  });
});
