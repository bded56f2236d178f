import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AuditEntryOut } from '../../src/audit/schemas.js';
import { bearer, startTestService, type TestService } from '../support/service.js';

let ts: TestService;
beforeAll(async () => {
  ts = await startTestService({}, { workers: false });
});
afterAll(async () => ts?.stop());

async function page(query: string) {
  const res = await fetch(`${ts.base}/v1/admin/audit${query}`, { headers: bearer(ts.tenant.keys.live_admin) });
  return { status: res.status, link: res.headers.get('link'), rows: (await res.json()) as any[] };
}

describe('GET /v1/admin/audit', () => {
  it('pages through every row oldest first with the after cursor, each row a closed AuditEntryOut', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 7; i += 1) {
      const r = await fetch(`${ts.base}/v1/health`, { headers: bearer(ts.tenant.keys.live) });
      ids.push(r.headers.get('x-service-audit-id')!);
    }
    const seen: string[] = [];
    let query = '?limit=3';
    for (let guard = 0; guard < 20; guard += 1) {
      const p = await page(query);
      expect(p.status).toBe(200);
      for (const row of p.rows) AuditEntryOut.parse(row);
      seen.push(...p.rows.map((r) => r.audit_id));
      if (!p.link) break;
      query = p.link.slice(p.link.indexOf('?'), p.link.indexOf('>'));
    }
    // The health calls are there in order; the earlier pages' own audit rows are interleaved after them.
    const healthRows = seen.filter((id) => ids.includes(id));
    expect(healthRows).toEqual(ids);
    expect(new Set(seen).size).toBe(seen.length);
  });

  it('refuses a limit over 1000 and an unknown cursor with 422', async () => {
    expect((await page('?limit=1001')).status).toBe(422);
    const unknown = await page('?after=6f1c1b4e-0000-4000-8000-000000000000');
    expect(unknown.status).toBe(422);
    expect(unknown.rows).toMatchObject({ detail: [{ loc: ['query', 'after'], type: 'cursor_unknown' }] });
  });
});

describe('the cost of a call', () => {
  it('an inquiry is audited with the cost of the checks it ran (0 for offline checks only), in check units', async () => {
    const res = await fetch(`${ts.base}/v1/inquiries`, {
      method: 'POST',
      headers: { ...bearer(ts.tenant.keys.live), 'content-type': 'application/json' },
      body: JSON.stringify({
        subject: { presentations: [{ type: 'EMAIL', value: 'costed@example.org' }] },
        intent: 'pre_transaction',
        purpose: 'fraud_prevention',
        stake: { kind: 'payment', amount: 5, currency: 'GBP' },
      }),
    });
    expect(res.status).toBe(200);
    const auditId = res.headers.get('x-service-audit-id');
    const rows: any[] = [];
    let query = '?limit=1000';
    for (let guard = 0; guard < 20 && !rows.some((r) => r.audit_id === auditId); guard += 1) {
      const p = await page(query);
      rows.push(...p.rows);
      if (!p.link) break;
      query = p.link.slice(p.link.indexOf('?'), p.link.indexOf('>'));
    }
    expect(rows.find((r) => r.audit_id === auditId)).toMatchObject({
      action: 'createInquiry',
      cost_amount: 0,
      cost_currency: 'check-units',
    });
  });
});

describe('GET /v1/admin/audit filters and fields (issue 18)', () => {
  it('each row names its status, rule, purpose and key; the list filters by operation, status, key and time, every filter kept across pages', async () => {
    // `since` must be later than every row written before it: wait for the clock itself to pass the last one's millisecond.
    const earlier = Date.now();
    await vi.waitUntil(() => Date.now() > earlier, { interval: 1 });
    const since = new Date().toISOString();
    await fetch(`${ts.base}/v1/health`, { headers: bearer(ts.tenant.keys.live) });
    await fetch(`${ts.base}/v1/inquiries/0b0e0d2c-95a4-4d7c-9a53-4b7ad0c0ffee`, { headers: bearer(ts.tenant.keys.live) });
    await fetch(`${ts.base}/v1/inquiries/0b0e0d2c-95a4-4d7c-9a53-4b7ad0c0ffe0`, { headers: bearer(ts.tenant.keys.live) });

    const notFound = await page(`?operation=getInquiry&status=404&since=${encodeURIComponent(since)}`);
    expect(notFound.status).toBe(200);
    expect(notFound.rows).toHaveLength(2);
    for (const row of notFound.rows) {
      expect(AuditEntryOut.parse(row)).toMatchObject({ action: 'getInquiry', status: 404, rule: null, target_kind: 'inquiry' });
      expect(row.key_id).toMatch(/^[0-9a-f-]{36}$/);
    }
    const byKey = await page(`?key_id=${notFound.rows[0].key_id}&since=${encodeURIComponent(since)}`);
    expect(byKey.rows.map((r) => r.action)).toEqual(['getHealth', 'getInquiry', 'getInquiry']);

    const paged = await page(`?operation=getInquiry&status=404&since=${encodeURIComponent(since)}&limit=1`);
    expect(paged.rows).toHaveLength(1);
    expect(paged.link).toContain('operation=getInquiry');
    expect(paged.link).toContain('status=404');
    const until = await page(`?operation=getInquiry&until=${encodeURIComponent(since)}`);
    expect(until.rows.filter((r) => r.status === 404 && Date.parse(r.occurred_at) >= Date.parse(since))).toEqual([]);
  });

  it('refuses a malformed filter with 422 naming it', async () => {
    const res = await fetch(`${ts.base}/v1/admin/audit?status=abc`, { headers: bearer(ts.tenant.keys.live_admin) });
    expect(res.status).toBe(422);
    expect(((await res.json()) as { detail: { loc: string[] }[] }).detail[0]!.loc).toEqual(['query', 'status']);
  });
});
