import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPolicyCache } from '../../src/policies/cache.js';
import { PolicyIn, PolicyOut, PolicyOutList } from '../../src/policies/schemas.js';
import type { z } from 'zod';
import type { ProvisionedTenant } from '../../src/tenancy/provision.js';
import { ownerClient } from '../support/database.js';
import { bearer, startTestService, type TestService } from '../support/service.js';

let ts: TestService;
let plain: ProvisionedTenant;
beforeAll(async () => {
  ts = await startTestService({}, { workers: false });
  plain = await ts.provision('plain-co', false);
});
afterAll(async () => ts?.stop());

const json = { 'content-type': 'application/json' };

const POLICY: z.input<typeof PolicyIn> = {
  allowed_purposes: ['fraud_prevention', 'credit_risk'],
  allowed_intents: ['onboarding', 'pre_transaction'],
  render_ceiling: 'template',
  show_findings: true,
  rules: [
    { label: 'proceed', when: { low_gte: 70, width_lte: 20 } },
    { label: 'hold', when: { preliminary: true, intents: ['pre_transaction'] } },
    { label: 'review', when: {} },
  ],
};

async function publish(key: string, body: unknown) {
  const res = await fetch(`${ts.base}/v1/admin/policies`, {
    method: 'POST',
    headers: { ...bearer(key), ...json },
    body: JSON.stringify(body),
  });
  return { res, body: (await res.json()) as any };
}

async function list(key: string) {
  const res = await fetch(`${ts.base}/v1/admin/policies`, { headers: bearer(key) });
  return { res, body: (await res.json()) as any };
}

async function auditRow(auditId: string): Promise<Record<string, unknown>> {
  const c = await ownerClient(ts.dbUrl);
  try {
    const r = await c.query('SELECT status, rule, target_kind, target_id, action FROM audit_log WHERE audit_id = $1', [auditId]);
    return r.rows[0];
  } finally {
    await c.end();
  }
}

describe('publishing and listing policies', () => {
  it('given two publications, then versions 1 and 2, each 201 PolicyOut and audited as a policy', async () => {
    const first = await publish(ts.tenant.keys.test_admin, POLICY);
    expect(first.res.status).toBe(201);
    expect(PolicyOut.parse(first.body)).toEqual({
      ...POLICY,
      allowed_origins: [],
      separate_sign_off: false,
      default_region: null,
      policy_version: 1,
      created_at: expect.any(String),
      current: true,
    });
    const auditId = first.res.headers.get('x-service-audit-id')!;
    expect(auditId).toMatch(/^[0-9a-f-]{36}$/);
    expect(await auditRow(auditId)).toMatchObject({ status: 201, target_kind: 'policy', target_id: '1', action: 'publishPolicy' });

    const second = await publish(ts.tenant.keys.test_admin, { ...POLICY, show_findings: false });
    expect(second.res.status).toBe(201);
    expect(second.body).toMatchObject({ policy_version: 2, current: true, show_findings: false });
    expect(second.res.headers.get('x-service-audit-id')).not.toBe(auditId);
  });

  it('given published versions, then the list has every version, current first', async () => {
    const { res, body } = await list(ts.tenant.keys.test_admin);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-service-audit-id')).toMatch(/^[0-9a-f-]{36}$/);
    const versions = PolicyOutList.parse(body);
    expect(versions.map((v) => [v.policy_version, v.current])).toEqual([
      [2, true],
      [1, false],
    ]);
    expect(versions[1]!.rules).toEqual(POLICY.rules);
  });

  it('given policies published in test mode, then live mode and other tenants see none of them', async () => {
    expect((await list(ts.tenant.keys.live_admin)).body).toEqual([]);
    expect((await list(plain.keys.test_admin)).body).toEqual([]);
  });

  it('given concurrent publications, then every one gets its own version', async () => {
    const results = await Promise.all(Array.from({ length: 5 }, () => publish(ts.tenant.keys.live_admin, POLICY)));
    expect(results.map((r) => r.res.status)).toEqual([201, 201, 201, 201, 201]);
    expect(results.map((r) => r.body.policy_version).sort()).toEqual([1, 2, 3, 4, 5]);
  });
});

describe('refusals', () => {
  it('given a key without the admin scope, then 403 for publish and list', async () => {
    const pub = await publish(ts.tenant.keys.test, POLICY);
    expect(pub.res.status).toBe(403);
    expect(pub.res.headers.get('content-type')).toBe('application/problem+json');
    expect(pub.body.audit_id).toBe(pub.res.headers.get('x-service-audit-id'));
    expect((await list(ts.tenant.keys.test)).res.status).toBe(403);
  });

  it.each([
    ['at the top', { ...POLICY, extra: true }, ['body', 'extra']],
    ['inside a rule condition', { ...POLICY, rules: [{ label: 'x', when: { score_gt: 5 } }] }, ['body', 'rules', 0, 'when', 'score_gt']],
  ])('given an unknown field %s, then 422 extra_forbidden naming it', async (_where, body, loc) => {
    const { res, body: out } = await publish(ts.tenant.keys.test_admin, body);
    expect(res.status).toBe(422);
    expect(res.headers.get('x-service-audit-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(out.detail).toEqual([{ loc, msg: expect.any(String), type: 'extra_forbidden' }]);
  });

  it('given a purpose the tenant was not granted, then 422 I13 naming the field, audited with the rule', async () => {
    const { res, body } = await publish(plain.keys.test_admin, { ...POLICY, allowed_purposes: ['fraud_prevention', 'investigation'] });
    expect(res.status).toBe(422);
    expect(body.detail).toEqual([{ loc: ['body', 'allowed_purposes', 1], msg: expect.any(String), type: 'I13' }]);
    expect(JSON.stringify(body)).not.toContain('investigation');
    expect(await auditRow(res.headers.get('x-service-audit-id')!)).toMatchObject({ status: 422, rule: 'I13' });
  });

  it('given an intent the tenant was not granted, in the allow list or a rule, then 422 I14 for each', async () => {
    const policy = {
      ...POLICY,
      allowed_intents: ['investigation'],
      rules: [{ label: 'x', when: { intents: ['onboarding', 'investigation'] } }],
    };
    const { res, body } = await publish(plain.keys.test_admin, policy);
    expect(res.status).toBe(422);
    expect(body.detail.map((d: any) => [d.loc, d.type])).toEqual([
      [['body', 'allowed_intents', 0], 'I14'],
      [['body', 'rules', 0, 'when', 'intents', 1], 'I14'],
    ]);
  });

  it('given the investigative tenant, then investigation may be named', async () => {
    const { res } = await publish(ts.tenant.keys.test_admin, {
      ...POLICY,
      allowed_purposes: ['investigation'],
      allowed_intents: ['investigation'],
    });
    expect(res.status).toBe(201);
  });
});

describe('the hot-path policy cache', () => {
  it('given a cached version, then a publication shows after invalidate or once the TTL passes', async () => {
    let clock = 1_000_000;
    const cache = createPolicyCache({ db: ts.service.db, ttlMs: 60_000, now: () => clock });
    const scope = { tenantId: plain.tenant_id, mode: 'test' as const };
    expect(await cache.current(scope)).toBeNull();
    await publish(plain.keys.test_admin, POLICY);
    expect(await cache.current(scope)).toBeNull();
    cache.invalidate(plain.tenant_id, 'test');
    expect((await cache.current(scope))?.version).toBe(1);

    await publish(plain.keys.test_admin, { ...POLICY, show_findings: false });
    clock += 999;
    expect((await cache.current(scope))?.version).toBe(1);
    // The TTL is capped at one second whatever is asked.
    clock += 2;
    expect(await cache.current(scope)).toMatchObject({ version: 2, body: { show_findings: false } });
  });
});
