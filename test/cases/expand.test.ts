import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CaseOut } from '../../src/cases/schemas.js';
import { Problem } from '../../src/schemas/errors.js';
import { EventEnvelopeList } from '../../src/events/schemas.js';
import { providersFile, startProviderFixture, type ProviderFixture } from '../inquiries/support.js';
import { ownerClient } from '../support/database.js';
import { bearer, startTestService, type TestService } from '../support/service.js';

/**
 * POST /v1/cases/{case_id}/expand end to end (issue 14): one budgeted hop of
 * attribution through the real server, workers and PostgreSQL. A provider
 * check costing 1 unit makes the budget bite; the gate spends nothing until
 * a candidate is chosen; every step is on the timeline and in the audit
 * trail with its cost.
 */
let ts: TestService;
let provider: ProviderFixture;
let owner: pg.Client;

beforeAll(async () => {
  provider = await startProviderFixture();
  ts = await startTestService({ TAS_PROVIDERS_FILE: providersFile(provider.url, 'Expansion Test Provider') });
  owner = await ownerClient(ts.dbUrl);
});

afterAll(async () => {
  await owner?.end();
  await ts?.stop();
  await provider?.close();
});

async function call(method: 'GET' | 'POST', path: string, body?: unknown, key = ts.tenant.keys.live) {
  const res = await fetch(`${ts.base}${path}`, {
    method,
    headers: { ...bearer(key), 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, auditId: res.headers.get('x-service-audit-id') };
}

async function openCase(budget: number): Promise<CaseOut> {
  const res = await call('POST', '/v1/cases', {
    title: 'Mule ring',
    purpose: 'investigation',
    budget,
    authorization: { kind: 'court_order', reference: 'CO-2026-21', issued_by: 'District Court' },
  });
  expect(res.status).toBe(201);
  return CaseOut.parse(res.body);
}

const changes = async (caseId: string) =>
  EventEnvelopeList.parse((await call('GET', `/v1/cases/${caseId}/timeline`)).body).map((e) =>
    e.type === 'CaseChanged' ? (e.data as { change: string }).change : e.type,
  );

async function auditOf(auditId: string | null) {
  return (
    await owner.query(
      `SELECT action, status, rule, cost_amount::float AS cost, cost_currency, target_id FROM audit_log WHERE audit_id = $1`,
      [auditId],
    )
  ).rows[0];
}

const seed = (email: string, phone = '+44 20 7946 0777') => ({
  presentations: [
    { type: 'EMAIL', value: email },
    { type: 'PHONE', value: phone },
  ],
});

describe('case expansion', () => {
  it('given a seed within budget, then one inquiry runs in the case, its cost is spent and audited, and the hop is on the timeline', async () => {
    const opened = await openCase(10);
    const res = await call('POST', `/v1/cases/${opened.case_id}/expand`, { seed: seed('hop.one@example.org'), intent: 'investigation' });
    expect(res.status).toBe(202);
    expect(res.body.inquiry_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(typeof res.body.assessment.score).toBe('number');
    const after = CaseOut.parse((await call('GET', `/v1/cases/${opened.case_id}`)).body);
    expect(after.budget).toEqual({ limit: 10, spent: 1, remaining: 9 });
    expect(after.entity_ids).toContain(res.body.assessment.entity_id);
    expect(await changes(opened.case_id)).toEqual(['opened', 'expanded']);
    expect(await auditOf(res.auditId)).toMatchObject({
      action: 'expandCase',
      status: 202,
      cost: 1,
      cost_currency: 'check-units',
      target_id: opened.case_id,
    });
  });

  it('given a hop that would exceed the budget or its max_cost, then it is refused before any work (409, C03), on the timeline and audited', async () => {
    const opened = await openCase(0);
    const calls = provider.calls;
    const res = await call('POST', `/v1/cases/${opened.case_id}/expand`, { seed: seed('hop.two@example.org'), intent: 'investigation' });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ rule: 'C03', budget: { limit: 0, spent: 0, remaining: 0 }, estimated_cost: 1 });
    Problem.parse(res.body);
    expect(provider.calls).toBe(calls);
    expect(await changes(opened.case_id)).toEqual(['opened', 'expansion_refused']);
    expect(await auditOf(res.auditId)).toMatchObject({ action: 'expandCase', status: 409, rule: 'C03', cost: 0 });

    const capped = await openCase(100);
    const byCap = await call('POST', `/v1/cases/${capped.case_id}/expand`, {
      seed: seed('hop.three@example.org'),
      intent: 'investigation',
      max_cost: 0,
    });
    expect([byCap.status, byCap.body.rule, byCap.body.max_cost]).toEqual([409, 'C03', 0]);
  });

  it('given human_gate, then nothing is spent and candidates are recorded; the choice is explicit, recorded with who chose, and spent once', async () => {
    // Two entities of the tenant already carry the phone the seed will present.
    const phone = '+44 20 7946 0888';
    for (const email of ['ring.a@example.org', 'ring.b@example.org']) {
      const r = await call('POST', '/v1/inquiries', {
        subject: seed(email, phone),
        intent: 'investigation',
        purpose: 'investigation',
        stake: { kind: 'other' },
      });
      expect(r.status).toBe(200);
    }
    const opened = await openCase(10);
    const calls = provider.calls;
    const gated = await call('POST', `/v1/cases/${opened.case_id}/expand`, {
      seed: seed('ring.c@example.org', phone),
      intent: 'investigation',
      human_gate: true,
    });
    expect(gated.status).toBe(202);
    expect(provider.calls).toBe(calls);
    expect(CaseOut.parse((await call('GET', `/v1/cases/${opened.case_id}`)).body).budget.spent).toBe(0);
    expect(await auditOf(gated.auditId)).toMatchObject({ status: 202, cost: 0 });
    const connections = gated.body.findings.connections as { connection_id: string; from_label: string }[];
    const shared = connections.find((c) => c.from_label === phone)!;
    expect(shared).toBeDefined();

    const wrong = await call('POST', `/v1/cases/${opened.case_id}/expand`, {
      choose: { inquiry_id: gated.body.inquiry_id, connection_ids: ['not-a-candidate'] },
    });
    expect(wrong.status).toBe(422);
    expect(wrong.body.detail[0].loc).toEqual(['body', 'choose', 'connection_ids', 0]);

    const chosen = await call('POST', `/v1/cases/${opened.case_id}/expand`, {
      choose: { inquiry_id: gated.body.inquiry_id, connection_ids: [shared.connection_id] },
    });
    expect(chosen.status).toBe(202);
    expect(provider.calls).toBeGreaterThan(calls);
    const after = CaseOut.parse((await call('GET', `/v1/cases/${opened.case_id}`)).body);
    expect(after.budget.spent).toBe(1);
    expect(after.entity_ids.length).toBeGreaterThanOrEqual(3);
    const timeline = EventEnvelopeList.parse((await call('GET', `/v1/cases/${opened.case_id}/timeline`)).body);
    const choice = timeline.at(-1)!.data as { change: string; principal: string; summary: string };
    expect(choice).toMatchObject({ change: 'expansion_chosen', principal: expect.stringMatching(/^key:/) });
    expect(choice.summary).toContain(shared.connection_id);
    expect(await auditOf(chosen.auditId)).toMatchObject({ status: 202, cost: 1 });

    const again = await call('POST', `/v1/cases/${opened.case_id}/expand`, {
      choose: { inquiry_id: gated.body.inquiry_id, connection_ids: [shared.connection_id] },
    });
    expect(again.status).toBe(409);
  });

  it('given a signed-off case, then it takes no expansion', async () => {
    const opened = await openCase(10);
    await call('POST', `/v1/cases/${opened.case_id}/review`, { outcome: 'sign_off' });
    const res = await call('POST', `/v1/cases/${opened.case_id}/expand`, { seed: seed('late@example.org'), intent: 'investigation' });
    expect([res.status, res.body.case_state]).toEqual([409, 'signed_off']);
    Problem.parse(res.body);
  });
});

describe('separation of duties on sign-off (issue 18, rule C04)', () => {
  it('given a policy that separates duties, then the key that opened or last changed the case cannot sign it off; another can', async () => {
    const tenant = await ts.provision(`sod-${Date.now()}`, true);
    const publish = await fetch(`${ts.base}/v1/admin/policies`, {
      method: 'POST',
      headers: { ...bearer(tenant.keys.live_admin), 'content-type': 'application/json' },
      body: JSON.stringify({
        allowed_purposes: ['investigation'],
        allowed_intents: ['investigation'],
        render_ceiling: 'template',
        show_findings: true,
        separate_sign_off: true,
        rules: [],
      }),
    });
    expect(publish.status).toBe(201);
    const opened = await call(
      'POST',
      '/v1/cases',
      {
        title: 'Duties',
        purpose: 'investigation',
        authorization: { kind: 'court_order', reference: 'CO-9', issued_by: 'Court' },
      },
      tenant.keys.live,
    );
    expect(opened.status).toBe(201);
    const refused = await call('POST', `/v1/cases/${opened.body.case_id}/review`, { outcome: 'sign_off' }, tenant.keys.live);
    expect([refused.status, refused.body.rule]).toEqual([409, 'C04']);
    Problem.parse(refused.body);
    expect(await auditOf(refused.auditId)).toMatchObject({ status: 409, rule: 'C04' });

    const mint = await fetch(`${ts.base}/v1/admin/keys`, {
      method: 'POST',
      headers: { ...bearer(tenant.keys.live_admin), 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'reviewer', scopes: ['cases'], mode: 'live' }),
    });
    const reviewer = ((await mint.json()) as { secret: string }).secret;
    const signed = await call('POST', `/v1/cases/${opened.body.case_id}/review`, { outcome: 'sign_off' }, reviewer);
    expect([signed.status, signed.body.state]).toEqual([200, 'signed_off']);
  });
});
