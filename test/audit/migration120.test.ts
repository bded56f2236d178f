import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import { sql } from 'slonik';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { batchLink, GENESIS, link } from '../../src/audit/chain.js';
import type { Principal } from '../../src/auth/index.js';
import { sealAudit, verifyAuditChains } from '../../src/audit/sealer.js';
import { exportTrail } from '../../src/audit/trailExport.js';
import { verifyTrail } from '../../src/audit/trailVerify.js';
import { appendAuditBatch, type AuditRecord } from '../../src/audit/store.js';
import { activeKey, publishedKeys } from '../../src/cases/export/keys.js';
import { migrate } from '../../src/platform/db/migrate.js';
import { createDb, type Db } from '../../src/platform/db/pool.js';
import { adminQuery } from '../support/database.js';

/**
 * 000120 on a database that already holds a trail (issue 50, item 4): the
 * database is migrated to 000112 (the last file before 000120), rows of two
 * tenants and refusals without a tenant are written through that day's door
 * (tas_audit_append) and sealed as that day's sealer did (one link per tenant
 * row in its tenant's chain, one batch link per month for the refusals, into
 * audit_chain), some left unsealed; then 000120 and every later file apply.
 * Each chain is closed by a seal naming its last link, the tenants' chains go
 * on from it, the operator's verification still covers every row written
 * before (a changed old row is named), and new rows chain as they should.
 */
const ADMIN_URL = process.env.TEST_ADMIN_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const name = `tas_test_m120_${randomBytes(5).toString('hex')}`;
const url = Object.assign(new URL(ADMIN_URL), { pathname: `/${name}` }).toString();
let db: Db;
const A = randomUUID();
const B = randomUUID();
const LAST_BEFORE_120 = 112;
const PEPPER = randomBytes(32).toString('base64url');

function row(occurredAt: Date, tenantId: string | null, mode: 'live' | 'test' = 'live'): AuditRecord {
  return {
    audit_id: randomUUID(),
    occurred_at: occurredAt.toISOString(),
    tenant_id: tenantId,
    mode: tenantId ? mode : null,
    principal: tenantId ? 'key:x' : 'anonymous',
    action: tenantId ? 'createInquiry' : 'auth',
    target_kind: null,
    target_id: null,
    status: tenantId ? 201 : 401,
    rule: null,
    purpose: tenantId ? 'kyc' : null,
    cost_amount: null,
    cost_currency: null,
    request_id: null,
  };
}

const Unsealed = z.object({
  seq: z.number(),
  audit_id: z.string(),
  occurred_at: z.string(),
  tenant_id: z.string().nullable(),
  mode: z.enum(['live', 'test']).nullable(),
  principal: z.string(),
  action: z.string(),
  target_kind: z.string().nullable(),
  target_id: z.string().nullable(),
  status: z.number(),
  rule: z.string().nullable(),
  purpose: z.string().nullable(),
  cost_amount: z.number().nullable(),
  cost_currency: z.string().nullable(),
});
type UnsealedRow = z.infer<typeof Unsealed>;
const Head = z.object({ chain_key: z.string(), position: z.number(), hash: z.instanceof(Buffer) });

/**
 * The sealer as it was before 000120, in its SQL shape: every chain in
 * audit_chain (chain_key '<tenant>:<mode>' or 'anonymous'), the work list
 * audit_unsealed, a tenant row linked alone, the refusals a batch per month.
 */
async function sealTheOldWay(): Promise<void> {
  await db.transaction(async (tx) => {
    const rows = await tx.any(sql.type(Unsealed)`
      SELECT u.seq, l.audit_id, l.occurred_at, l.tenant_id, l.mode, l.principal, l.action, l.target_kind, l.target_id,
             l.status, l.rule, l.purpose, l.cost_amount, l.cost_currency
      FROM audit_unsealed u JOIN audit_log l ON l.audit_id = u.audit_id AND l.occurred_at = u.occurred_at ORDER BY u.seq`);
    const heads = new Map(
      (
        await tx.any(sql.type(Head)`
          SELECT DISTINCT ON (chain_key) chain_key, position, hash FROM audit_chain ORDER BY chain_key, position DESC`)
      ).map((h) => [h.chain_key, { position: h.position, hash: h.hash }]),
    );
    const extend = async (key: string, batch: UnsealedRow[], members: number[] | null) => {
      const head = heads.get(key) ?? { position: 0, hash: GENESIS };
      const hash = members === null ? link(head.hash, batch[0]!) : batchLink(head.hash, batch);
      const first = batch[0]!;
      await tx.query(sql.unsafe`
        INSERT INTO audit_chain (audit_id, occurred_at, chain_key, tenant_id, mode, position, prev_hash, hash, members)
        VALUES (${first.audit_id}, ${first.occurred_at}::timestamptz, ${key}, ${first.tenant_id}, ${first.mode},
                ${head.position + 1}, ${sql.binary(head.hash)}, ${sql.binary(hash)},
                ${members === null ? null : sql.array(members, 'int8')})`);
      heads.set(key, { position: head.position + 1, hash });
    };
    const refusalsByMonth = new Map<string, UnsealedRow[]>();
    for (const r of rows) {
      if (r.tenant_id) await extend(`${r.tenant_id}:${r.mode}`, [r], null);
      else {
        const month = new Date(r.occurred_at).toISOString().slice(0, 7);
        refusalsByMonth.set(month, [...(refusalsByMonth.get(month) ?? []), r]);
      }
    }
    for (const batch of refusalsByMonth.values())
      await extend(
        'anonymous',
        batch,
        batch.map((r) => r.seq),
      );
    await tx.query(
      sql.unsafe`DELETE FROM audit_unsealed WHERE seq = ANY(${sql.array(
        rows.map((r) => r.seq),
        'int8',
      )})`,
    );
  });
}

async function owner<T extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<T[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query<T>(text, values)).rows;
  } finally {
    await c.end();
  }
}

interface OldHead {
  chain_key: string;
  position: number;
  hash: Buffer;
}
let headsBefore: OldHead[];
let rowsBefore: number;
const lastMonth = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth() - 1, 10, 12));

beforeAll(async () => {
  await migrate(url, () => {}, { upTo: LAST_BEFORE_120 });
  db = await createDb(url);
  await owner(`INSERT INTO tenants (id, name) VALUES ($1, 'a'), ($2, 'b')`, [A, B]);
  // Last month and this one: both tenants (A in both modes) and refusals, interleaved, sealed twice over.
  const now = new Date(Date.now() - 60_000);
  const first = [lastMonth, now].flatMap((at) =>
    [A, B, null, A, null, B, A].map((t, i) => row(new Date(at.getTime() + i), t, i === 3 ? 'test' : 'live')),
  );
  await appendAuditBatch(db, first);
  await sealTheOldWay();
  await appendAuditBatch(
    db,
    [A, null, B, null].map((t, i) => row(new Date(now.getTime() + 100 + i), t)),
  );
  await sealTheOldWay();
  // Written, not yet sealed when 000120 comes: the per-tenant chains must take them from the closing seal on.
  await appendAuditBatch(
    db,
    [A, B, null].map((t, i) => row(new Date(now.getTime() + 200 + i), t)),
  );
  headsBefore = await owner<OldHead>(
    `SELECT DISTINCT ON (chain_key) chain_key, position::int AS position, hash FROM audit_chain ORDER BY chain_key, position DESC`,
  );
  rowsBefore = Number((await owner<{ n: string }>(`SELECT count(*) AS n FROM audit_log`))[0]!.n);
  expect(headsBefore.map((h) => h.chain_key).sort()).toEqual([`${A}:live`, `${A}:test`, `${B}:live`, 'anonymous'].sort());
  await migrate(url);
});
afterAll(async () => {
  await db?.end();
  await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
});

describe('000120 on a database that holds a trail', () => {
  it('closes every chain with a seal naming its last link', async () => {
    const seals = await owner<{ chain: string; last_position: number; last_hash: Buffer; first_position: number; first_prev: Buffer }>(`
      SELECT tenant_id || ':' || mode AS chain, last_position::int, last_hash, first_position::int, first_prev
      FROM audit_seals WHERE period = '-infinity'
      UNION ALL
      SELECT chain_key, last_position::int, last_hash, first_position::int, first_prev FROM audit_refusal_seals WHERE period = '-infinity'`);
    expect(seals.map((s) => s.chain).sort()).toEqual(headsBefore.map((h) => h.chain_key).sort());
    for (const head of headsBefore) {
      const seal = seals.find((s) => s.chain === head.chain_key)!;
      expect(seal).toMatchObject({ last_position: head.position, first_position: 1 });
      expect(seal.last_hash.equals(head.hash)).toBe(true);
      expect(seal.first_prev.equals(GENESIS)).toBe(true);
    }
  });

  it('keeps every row written before, the refusals in their own table with their links', async () => {
    const [counts] = await owner<{ tenants: string; refusals: string; links: string }>(`
      SELECT (SELECT count(*) FROM audit_log) AS tenants, (SELECT count(*) FROM audit_refusals) AS refusals,
             (SELECT count(*) FROM audit_refusal_links) AS links`);
    const { tenants, refusals, links } = counts!;
    expect(Number(tenants) + Number(refusals)).toBe(rowsBefore);
    expect(Number(refusals)).toBe(2 * 2 + 2 + 1);
    // One batch link per month and pass: last month's, this month's (twice); the unsealed refusal waits.
    expect(Number(links)).toBe(3);
  });

  it("goes on from the closing seal: each tenant chain's next link and its day's seal start at the old head", async () => {
    await appendAuditBatch(db, [row(new Date(), A), row(new Date(), null), row(new Date(), B, 'live')]);
    // The service's sealer, signing with the export key: the closing seals, unsigned by 000120, are signed too.
    for (let n = -1; n !== 0;) n = await sealAudit(db, 0, () => activeKey(db, PEPPER));
    // Signed once (000140): a signed closing seal takes no other signature, and its facts still never change.
    await expect(owner(`UPDATE audit_seals SET signature = '\\x00' WHERE period = '-infinity'`)).rejects.toThrow(/only grows/);
    await expect(owner(`UPDATE audit_seals SET links = links + 1 WHERE period = '-infinity'`)).rejects.toThrow(/only grows/);
    for (const head of headsBefore.filter((h) => h.chain_key !== 'anonymous')) {
      const [tenantId, mode] = head.chain_key.split(':');
      const next = await owner<{ prev_hash: Buffer }>(`SELECT prev_hash FROM audit_chain WHERE chain_key = $1 AND position = $2`, [
        head.chain_key,
        head.position + 1,
      ]);
      const today = await owner<{ first_position: number; first_prev: Buffer }>(
        `SELECT first_position::int, first_prev FROM audit_seals WHERE tenant_id = $1 AND mode = $2 AND period > '-infinity'`,
        [tenantId, mode],
      );
      if (mode === 'test') {
        // A's test chain had nothing after 000120: its closing seal stands alone.
        expect(next).toEqual([]);
        expect(today).toEqual([]);
        continue;
      }
      expect(next[0]!.prev_hash.equals(head.hash)).toBe(true);
      expect(today).toHaveLength(1);
      expect(today[0]!.first_position).toBe(head.position + 1);
      expect(today[0]!.first_prev.equals(head.hash)).toBe(true);
    }
  });

  it("the operator's verification covers the rows written before and after, and names a changed old row", async () => {
    const verdicts = await verifyAuditChains(db, undefined, (await publishedKeys(db)).keys);
    expect(verdicts.filter((v) => v.brokenAt !== null || v.unsigned !== 0)).toEqual([]);
    // Every row: the old ones, the three left unsealed, the three written after.
    expect(verdicts.reduce((n, v) => n + v.rows, 0)).toBe(rowsBefore + 3);
    const a = verdicts.find((v) => v.chainKey === `${A}:live`)!;
    expect(a.rows).toBe(headsBefore.find((h) => h.chain_key === `${A}:live`)!.position + 2);
    // A's own export of the day 000120 ran holds the closing seal, so A verifies its rows from before, offline.
    const today = new Date().toISOString().slice(0, 10);
    const principal: Principal = { tenantId: A, mode: 'live', keyId: 'k', scopes: new Set(), label: 'key:k' };
    const trail = await exportTrail({ db }, principal, { from: today, to: today });
    let file = trail.head;
    for await (const page of trail.pages) file += page;
    expect(
      file
        .split('\n')
        .filter((l) => l.includes('"type":"seal"'))
        .map((l) => JSON.parse(l).period),
    ).toEqual(['-infinity', today]);
    expect(verifyTrail(file, (await publishedKeys(db)).keys)).toMatchObject({
      rows: a.rows,
      seals: 2,
      signaturesChecked: true,
      fault: null,
    });
    // An old row of A, changed behind the service's back: the chain breaks at that row's position, before 000120's seal.
    const [old] = await owner<{ audit_id: string; position: number }>(
      `SELECT audit_id, position::int FROM audit_chain WHERE chain_key = $1 AND position = 2`,
      [`${A}:live`],
    );
    await owner(`ALTER TABLE audit_log DISABLE TRIGGER audit_log_append_only`);
    await owner(`UPDATE audit_log SET status = 500 WHERE audit_id = $1`, [old!.audit_id]);
    const [broken] = await verifyAuditChains(db, `${A}:live`);
    expect(broken).toMatchObject({ chainKey: `${A}:live`, brokenAt: 2 });
  });
});
