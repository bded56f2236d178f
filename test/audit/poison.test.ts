import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuditWriter } from '../../src/audit/auditWriter.js';
import { createAuditSpool } from '../../src/audit/spool.js';
import { appendAuditBatch, type AuditRecord } from '../../src/audit/store.js';
import { createDb, type Db } from '../../src/platform/db/pool.js';
import { systemLoginOf } from '../../src/platform/config.js';
import { ownerClient } from '../support/database.js';
import { bearer, serviceLoginUrl, startTestService, type TestService } from '../support/service.js';

/**
 * One bad string must never fail another call (issue 12 items 1 and 2): it is
 * refused at the edge with a 422 naming the field; the audit writer isolates
 * a row PostgreSQL refuses; the spool's replay keeps such a row aside and
 * writes every other one.
 */
let ts: TestService;
let owner: pg.Client;
let db: Db;
beforeAll(async () => {
  ts = await startTestService({}, { workers: false });
  owner = await ownerClient(ts.dbUrl);
  // The audit batches are cross-tenant work: the system login's (tas_ops, 000035).
  db = await createDb(systemLoginOf(serviceLoginUrl(ts.dbUrl)));
});
afterAll(async () => {
  await db?.end();
  await owner?.end();
  await ts?.stop();
});

const row = (extra: Partial<AuditRecord> = {}): AuditRecord => ({
  audit_id: randomUUID(),
  occurred_at: new Date().toISOString(),
  tenant_id: null,
  mode: null,
  principal: 'anonymous',
  action: 'poison-test',
  target_kind: null,
  target_id: null,
  status: 200,
  rule: null,
  purpose: null,
  cost_amount: null,
  cost_currency: null,
  request_id: null,
  ...extra,
});

async function post(path: string, key: string, raw: string) {
  const res = await fetch(`${ts.base}${path}`, {
    method: 'POST',
    headers: { ...bearer(key), 'content-type': 'application/json' },
    body: raw,
  });
  return { status: res.status, body: (await res.json()) as any };
}

describe('strings PostgreSQL cannot store', () => {
  it.each([
    ['U+0000', '"fraud\\u0000prevention"'],
    ['a lone high surrogate', '"fraud\\ud800prevention"'],
    ['a lone low surrogate', '"\\udc00"'],
  ])('%s in a field is a 422 naming the field', async (_what, literal) => {
    const body = `{"subject":{"presentations":[{"type":"EMAIL","value":"p@example.org"}]},"provenance_class":"tenant_supplied","summary":"s","observed_at":"2026-11-01T00:00:00Z","purpose":${literal}}`;
    const r = await post('/v1/observations', ts.tenant.keys.test, body);
    expect(r.status).toBe(422);
    expect(r.body.detail).toContainEqual(expect.objectContaining({ loc: ['body', 'purpose'], type: 'string_unstorable' }));
  });

  it('in an object key, the key is refused without being echoed', async () => {
    const r = await post('/v1/observations', ts.tenant.keys.test, '{"a\\u0000b":1}');
    expect(r.status).toBe(422);
    expect(r.body.detail).toContainEqual(expect.objectContaining({ loc: ['body', '(key)'], type: 'string_unstorable' }));
  });

  it("one tenant's poison never fails another tenant's calls in the same audit batch", async () => {
    const other = await ts.provision('bystander');
    const poison = `{"subject":{"presentations":[{"type":"EMAIL","value":"p@example.org"}]},"provenance_class":"tenant_supplied","summary":"s","observed_at":"2026-11-01T00:00:00Z","purpose":"x\\u0000y"}`;
    const calls = [];
    for (let i = 0; i < 20; i++) {
      calls.push(post('/v1/observations', ts.tenant.keys.test, poison));
      calls.push(fetch(`${ts.base}/v1/health`, { headers: bearer(other.keys.test) }).then((r) => ({ status: r.status, body: null })));
    }
    const answers = await Promise.all(calls);
    expect(answers.filter((_, i) => i % 2 === 1).map((a) => a.status)).toEqual(new Array(20).fill(200));
    expect(answers.filter((_, i) => i % 2 === 0).map((a) => a.status)).toEqual(new Array(20).fill(422));
  });
});

describe('the audit writer', () => {
  it('stores a row PostgreSQL refuses apart from its batch, with its strings made storable', async () => {
    const spool = createAuditSpool(`/tmp/tas-poison-${randomUUID()}`);
    const writer = createAuditWriter({ db, spool });
    const good = row({ target_id: 'fine' });
    const bad = row({ target_id: 'bad\u0000id' });
    const [whereGood, whereBad] = await Promise.all([writer.append(good), writer.append(bad)]);
    expect([whereGood, whereBad]).toEqual(['db', 'db']);
    const stored = await owner.query('SELECT audit_id, target_id FROM audit_refusals WHERE audit_id = ANY($1) ORDER BY target_id', [
      [good.audit_id, bad.audit_id],
    ]);
    expect(stored.rows).toEqual([
      { audit_id: bad.audit_id, target_id: 'badid' },
      { audit_id: good.audit_id, target_id: 'fine' },
    ]);
    await writer.close();
  });
});

describe('the audit spool replay', () => {
  it('keeps aside what PostgreSQL refuses, writes every other row, and /healthz reports the count', async () => {
    const dir = `/tmp/tas-poison-spool-${randomUUID()}`;
    mkdirSync(dir, { recursive: true });
    const first = row();
    const last = row();
    const lines = [JSON.stringify(first), JSON.stringify(row({ purpose: 'p\u0000' })), '{not json', JSON.stringify(last)];
    writeFileSync(`${dir}/audit-replay-1.jsonl`, `${lines.join('\n')}\n`);
    const spool = createAuditSpool(dir);
    expect(await spool.replay((rows) => appendAuditBatch(db, rows))).toBe(2);
    expect(await spool.quarantined()).toBe(2);
    const stored = await owner.query('SELECT count(*)::int AS n FROM audit_refusals WHERE audit_id = ANY($1)', [
      [first.audit_id, last.audit_id],
    ]);
    expect(stored.rows[0].n).toBe(2);
  });

  it('/healthz names the quarantined rows of the service spool', async () => {
    mkdirSync(ts.config.TAS_SPOOL_DIR, { recursive: true });
    writeFileSync(`${ts.config.TAS_SPOOL_DIR}/audit-quarantine.jsonl`, '{kept}\n');
    const health = (await (await fetch(`${ts.base}/healthz`)).json()) as any;
    expect(health).toMatchObject({ status: 'degraded', audit_quarantined: 1 });
  });
});

describe('the audit append door (000011)', () => {
  it("refuses a tenant's role, and a caller scoped to one tenant appending another's row", async () => {
    const tenantA = ts.tenant.tenant_id;
    const client = await ownerClient(serviceLoginUrl(ts.dbUrl));
    try {
      await client.query('BEGIN');
      await client.query(`SELECT set_config('role', 'tas_service', true)`);
      await expect(
        client.query('SELECT tas_audit_append($1::jsonb)', [JSON.stringify([row({ tenant_id: randomUUID() })])]),
      ).rejects.toThrow(/permission denied/);
      await client.query('ROLLBACK');
    } finally {
      await client.query('ROLLBACK');
      await client.end();
    }
    const system = await ownerClient(systemLoginOf(serviceLoginUrl(ts.dbUrl)));
    try {
      await system.query('BEGIN');
      await system.query(`SELECT set_config('role', 'tas_system', true), set_config('tas.tenant_id', $1, true)`, [tenantA]);
      await expect(
        system.query('SELECT tas_audit_append($1::jsonb)', [JSON.stringify([row({ tenant_id: randomUUID() })])]),
      ).rejects.toThrow(/another tenant/);
    } finally {
      await system.query('ROLLBACK');
      await system.end();
    }
  });
});
