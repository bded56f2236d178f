import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type pg from 'pg';
import { sealAudit, verifyAuditChains } from '../../src/audit/sealer.js';
import { createDb, type Db } from '../../src/platform/db/pool.js';
import { ownerClient } from '../support/database.js';
import { bearer, startTestService, type TestService } from '../support/service.js';

/**
 * Every refused call still writes its one audit row (SPEC), sealed in the
 * anonymous chain's batch links (000100): no key, a bad key, and the
 * per-address limit's 429, over HTTP against the real service.
 */
let ts: TestService;
let db: Db;
let owner: pg.Client;
beforeAll(async () => {
  ts = await startTestService({ TAS_ADDRESS_FAILURES_PER_SEC: '1', TAS_TRUSTED_PROXIES: '127.0.0.1' }, { workers: false });
  db = await createDb(ts.dbUrl);
  owner = await ownerClient(ts.dbUrl);
});
afterAll(async () => {
  await owner?.end();
  await db?.end();
  await ts?.stop();
});

describe('an anonymous refusal', () => {
  it('writes exactly one row per refused call, each linked once in a batch link, and the chain verifies', async () => {
    const calls: { auditId: string; status: number }[] = [];
    // Until the limit has refused a few (a loaded machine sends slower, so the count of calls is not fixed).
    for (let i = 0; i < 200 && (i < 6 || calls.filter((c) => c.status === 429).length < 3); i += 1) {
      // No key and a bad key, in turn, from one address, which goes over its limit.
      const res = await fetch(`${ts.base}/v1/registry/purposes`, {
        headers: { ...(i % 2 === 0 ? {} : bearer('tas_test_guessed')), 'x-forwarded-for': '203.0.113.20' },
      });
      await res.arrayBuffer();
      calls.push({ auditId: res.headers.get('x-service-audit-id')!, status: res.status });
    }
    expect(new Set(calls.map((c) => c.status))).toEqual(new Set([401, 429]));
    expect(new Set(calls.map((c) => c.auditId)).size).toBe(calls.length);

    // The anonymous trail's own table (000120): none of them in a tenant's.
    expect(
      (await owner.query(`SELECT count(*)::int AS n FROM audit_log WHERE audit_id = ANY($1::uuid[])`, [calls.map((c) => c.auditId)]))
        .rows[0].n,
    ).toBe(0);
    const stored = await owner.query<{ audit_id: string; status: number; principal: string; tenant_id: string | null }>(
      `SELECT audit_id, status, principal, NULL::uuid AS tenant_id FROM audit_refusals WHERE audit_id = ANY($1::uuid[])`,
      [calls.map((c) => c.auditId)],
    );
    expect(stored.rows.map((r) => ({ auditId: r.audit_id, status: r.status })).sort((a, b) => a.auditId.localeCompare(b.auditId))).toEqual(
      [...calls].sort((a, b) => a.auditId.localeCompare(b.auditId)),
    );
    expect(stored.rows.every((r) => r.principal === 'anonymous' && r.tenant_id === null)).toBe(true);

    for (let n = -1; n !== 0;) n = await sealAudit(db, 0);
    // Each refusal named by exactly one anonymous link, and no anonymous row has a link of its own.
    const named = await owner.query<{ audit_id: string; times: number }>(
      `SELECT l.audit_id, count(*)::int AS times FROM audit_refusal_links c CROSS JOIN LATERAL unnest(c.members) m(seq)
       JOIN audit_refusals l ON l.seq = m.seq WHERE l.audit_id = ANY($1::uuid[]) GROUP BY l.audit_id`,
      [calls.map((c) => c.auditId)],
    );
    expect(named.rows.map((r) => r.audit_id).sort()).toEqual(calls.map((c) => c.auditId).sort());
    expect(named.rows.every((r) => r.times === 1)).toBe(true);
    const own = await owner.query(`SELECT count(*)::int AS n FROM audit_refusal_links WHERE members IS NULL`);
    expect(own.rows[0].n).toBe(0);
    const anonymous = await owner.query(`SELECT count(*)::int AS n FROM audit_refusals`);
    const verdicts = await verifyAuditChains(db);
    expect(verdicts.every((v) => v.brokenAt === null)).toBe(true);
    expect(verdicts.find((v) => v.chainKey === 'anonymous')).toEqual({ chainKey: 'anonymous', rows: anonymous.rows[0].n, brokenAt: null });
  });
});
