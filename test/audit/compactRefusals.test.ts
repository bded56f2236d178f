import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditPartitionsAhead, retainAudit } from '../../src/audit/partitions.js';
import { sealAudit, verifyAuditChains } from '../../src/audit/sealer.js';
import { appendAuditBatch, type AuditRecord } from '../../src/audit/store.js';
import { createDb, type Db } from '../../src/platform/db/pool.js';
import { cloneDatabase, ownerClient } from '../support/database.js';

/**
 * Calls refused before any tenant is known (000100): each keeps its one
 * row, but the anonymous chain links a sealing pass's rows with one link per
 * month, which names them, instead of one link per row. Since 000120 they are
 * a trail of their own: audit_refusals and audit_refusal_links.
 */
let clone: Awaited<ReturnType<typeof cloneDatabase>>;
let db: Db;
let owner: pg.Client;
const tenant = randomUUID();
const ROWS = 3000;

function refusal(i: number, occurredAt = new Date(Date.now() - 60_000 + i).toISOString()): AuditRecord {
  return {
    audit_id: randomUUID(),
    occurred_at: occurredAt,
    tenant_id: null,
    mode: null,
    principal: 'anonymous',
    action: 'createInquiry',
    target_kind: null,
    target_id: null,
    status: i % 3 === 2 ? 429 : 401,
    rule: null,
    purpose: null,
    cost_amount: null,
    cost_currency: null,
    request_id: randomUUID(),
  };
}

const keyed = (i: number): AuditRecord => ({ ...refusal(i), tenant_id: tenant, mode: 'live', principal: 'key:x', status: 200 });

/** Bytes on disk of a partitioned table: every partition, its indexes and TOAST. */
async function bytesOf(table: string): Promise<number> {
  const { rows } = await owner.query<{ bytes: string }>(
    `SELECT sum(pg_total_relation_size(relid))::bigint AS bytes FROM pg_partition_tree($1::regclass)`,
    [table],
  );
  return Number(rows[0]!.bytes);
}

async function append(rows: readonly AuditRecord[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 500) await appendAuditBatch(db, rows.slice(i, i + 500));
}

async function sealAll(): Promise<number> {
  let sealed = 0;
  for (let n = -1; n !== 0; sealed += n) n = await sealAudit(db, 0);
  return sealed;
}

async function verdictOf(chainKey: string) {
  const [verdict] = await verifyAuditChains(db, chainKey);
  return verdict!;
}

/** Runs a change behind the append-only triggers, as someone with the owner's login could. */
async function tamper(statement: string, values: unknown[]): Promise<void> {
  await owner.query('BEGIN');
  await owner.query('ALTER TABLE audit_refusals DISABLE TRIGGER audit_refusals_append_only');
  await owner.query('ALTER TABLE audit_refusal_links DISABLE TRIGGER audit_refusal_links_append_only');
  await owner.query(statement, values);
  await owner.query('ALTER TABLE audit_refusals ENABLE TRIGGER audit_refusals_append_only');
  await owner.query('ALTER TABLE audit_refusal_links ENABLE TRIGGER audit_refusal_links_append_only');
  await owner.query('COMMIT');
}

beforeAll(async () => {
  clone = await cloneDatabase();
  db = await createDb(clone.url);
  owner = await ownerClient(clone.url);
  await owner.query('INSERT INTO tenants (id, name) VALUES ($1, $2)', [tenant, 'refusals']);
  await auditPartitionsAhead(db, 1, '2020-01-15');
});
afterAll(async () => {
  await owner?.end();
  await db?.end();
  await clone?.drop();
});

describe('the compact row of an anonymous refusal', () => {
  it('costs the chain a small fraction of what a keyed call costs, measured on the tables, one row per call kept', async () => {
    // The same number of keyed calls first: what a row linked on its own costs the chain.
    const chain0 = await bytesOf('audit_chain');
    await append(Array.from({ length: ROWS }, (_, i) => keyed(i)));
    expect(await sealAll()).toBe(ROWS);
    const keyed1 = await bytesOf('audit_chain');
    const chain1 = await bytesOf('audit_refusal_links');
    const log1 = await bytesOf('audit_refusals');
    const refusals = Array.from({ length: ROWS }, (_, i) => refusal(i));
    await append(refusals);
    expect(await sealAll()).toBe(ROWS);
    const perKeyed = (keyed1 - chain0) / ROWS;
    const perRefusal = (await bytesOf('audit_refusal_links')) - chain1;
    const logPerRefusal = ((await bytesOf('audit_refusals')) - log1) / ROWS;
    // A row's own link costs about 270 bytes; a refusal's share of its batch's link about 5.
    expect(perKeyed).toBeGreaterThan(150);
    expect(perRefusal / ROWS).toBeLessThan(perKeyed / 10);
    expect(logPerRefusal + perRefusal / ROWS).toBeLessThan(300);
    // Each refused call has its one row, named by exactly one link, once.
    const named = await owner.query<{ audit_id: string; times: number }>(
      `SELECT l.audit_id, count(*)::int AS times FROM audit_refusal_links c CROSS JOIN LATERAL unnest(c.members) m(seq)
       JOIN audit_refusals l ON l.seq = m.seq GROUP BY l.audit_id`,
    );
    expect(named.rows).toHaveLength(ROWS);
    expect(named.rows.every((r) => r.times === 1)).toBe(true);
    expect(new Set(named.rows.map((r) => r.audit_id))).toEqual(new Set(refusals.map((r) => r.audit_id)));
    const links = await owner.query(`SELECT count(*)::int AS n FROM audit_refusal_links`);
    expect(links.rows[0].n).toBeLessThanOrEqual(ROWS / 1000);
    expect(await verdictOf('anonymous')).toEqual({ chainKey: 'anonymous', rows: ROWS, brokenAt: null });
    expect(await verdictOf(`${tenant}:live`)).toEqual({ chainKey: `${tenant}:live`, rows: ROWS, brokenAt: null });
  });

  it('a changed, removed or unlisted refusal row breaks its batch link', async () => {
    const { rows } = await owner.query<{ position: number; seq: string; audit_id: string }>(
      `SELECT c.position::int, c.members[2]::text AS seq, l.audit_id FROM audit_refusal_links c JOIN audit_refusals l ON l.seq = c.members[2]
       ORDER BY c.position DESC LIMIT 1`,
    );
    const { position, seq, audit_id: auditId } = rows[0]!;
    // Its status changed.
    await tamper(`UPDATE audit_refusals SET status = 200 WHERE audit_id = $1`, [auditId]);
    expect((await verdictOf('anonymous')).brokenAt).toBe(position);
    await tamper(`UPDATE audit_refusals SET status = 401 WHERE audit_id = $1`, [auditId]);
    expect((await verdictOf('anonymous')).brokenAt).toBeNull();
    // Struck from the link's list.
    await tamper(
      `UPDATE audit_refusal_links SET members = array_remove(members, $1::int8) WHERE chain_key = 'anonymous' AND position = $2`,
      [seq, position],
    );
    expect((await verdictOf('anonymous')).brokenAt).toBe(position);
    await tamper(
      `UPDATE audit_refusal_links SET members = members[1:1] || $1::int8 || members[2:] WHERE chain_key = 'anonymous' AND position = $2`,
      [seq, position],
    );
    expect((await verdictOf('anonymous')).brokenAt).toBeNull();
    // Two rows swapped in the list.
    await tamper(
      `UPDATE audit_refusal_links SET members = members[2:2] || members[1:1] || members[3:] WHERE chain_key = 'anonymous' AND position = $1`,
      [position],
    );
    expect((await verdictOf('anonymous')).brokenAt).toBe(position);
    await tamper(
      `UPDATE audit_refusal_links SET members = members[2:2] || members[1:1] || members[3:] WHERE chain_key = 'anonymous' AND position = $1`,
      [position],
    );
    expect((await verdictOf('anonymous')).brokenAt).toBeNull();
    // The row deleted.
    await tamper(`DELETE FROM audit_refusals WHERE audit_id = $1`, [auditId]);
    expect((await verdictOf('anonymous')).brokenAt).toBe(position);
  });

  it('a pass over two months makes a link in each, beside its rows; retention drops one with its rows and the rest verifies', async () => {
    // A database of its own, whose anonymous chain starts here.
    await db.end();
    await owner.end();
    await clone.drop();
    clone = await cloneDatabase();
    db = await createDb(clone.url);
    owner = await ownerClient(clone.url);
    await auditPartitionsAhead(db, 1, '2020-01-15');
    const jan = [refusal(0, '2020-01-31T23:59:59.998Z'), refusal(1, '2020-01-31T23:59:59.999Z')];
    const feb = [refusal(2, '2020-02-01T00:00:00.000Z'), refusal(3, '2020-02-01T00:00:00.001Z')];
    await appendAuditBatch(db, [jan[0]!, feb[0]!, jan[1]!, feb[1]!]);
    const now = [refusal(4), refusal(5)];
    await appendAuditBatch(db, now);
    expect(await sealAudit(db, 0)).toBe(6);
    const links = await owner.query<{ position: number; part: string; rows: string[] }>(
      `SELECT c.position::int, c.tableoid::regclass::text AS part,
              array(SELECT l.tableoid::regclass::text FROM unnest(c.members) m(seq) JOIN audit_refusals l ON l.seq = m.seq) AS rows
       FROM audit_refusal_links c ORDER BY c.position`,
    );
    const month = new Date().toISOString().slice(0, 7).replace('-', '_');
    expect(links.rows.map((l) => [l.position, l.part, [...new Set(l.rows)]])).toEqual([
      [1, 'audit_partitions.audit_refusal_links_p2020_01', ['audit_partitions.audit_refusals_p2020_01']],
      [2, 'audit_partitions.audit_refusal_links_p2020_02', ['audit_partitions.audit_refusals_p2020_02']],
      [3, `audit_partitions.audit_refusal_links_p${month}`, [`audit_partitions.audit_refusals_p${month}`]],
    ]);
    expect(await verdictOf('anonymous')).toEqual({ chainKey: 'anonymous', rows: 6, brokenAt: null });
    expect(await retainAudit(db, '2020-02-01')).toEqual(['2020-01']);
    expect(await verdictOf('anonymous')).toEqual({ chainKey: 'anonymous', rows: 4, brokenAt: null });
    // The chain goes on from the retained link.
    await appendAuditBatch(db, [refusal(6)]);
    expect(await sealAudit(db, 0)).toBe(1);
    expect(await verdictOf('anonymous')).toEqual({ chainKey: 'anonymous', rows: 5, brokenAt: null });
  });

  it("a tenant never sees an anonymous row or link, and the anonymous trail never touches a tenant's", async () => {
    await owner.query('BEGIN');
    try {
      await owner.query(`SET LOCAL ROLE tas_service`);
      await owner.query(`SELECT set_config('tas.tenant_id', $1, true), set_config('tas.mode', 'live', true)`, [tenant]);
      await expect(owner.query(`SELECT count(*) FROM audit_refusal_links`)).rejects.toThrow(/permission denied/);
    } finally {
      await owner.query('ROLLBACK');
    }
    await owner.query('BEGIN');
    try {
      await owner.query(`SET LOCAL ROLE tas_service`);
      await expect(owner.query(`SELECT count(*) FROM audit_refusals`)).rejects.toThrow(/permission denied/);
    } finally {
      await owner.query('ROLLBACK');
    }
    const all = await owner.query(`SELECT count(*)::int AS n FROM audit_refusal_links WHERE members IS NOT NULL`);
    expect(all.rows[0].n).toBeGreaterThan(0);
    const inTenants = await owner.query(`SELECT (SELECT count(*) FROM audit_log) + (SELECT count(*) FROM audit_chain)
      + (SELECT count(*) FROM audit_unsealed) + (SELECT count(*) FROM audit_seals) AS n`);
    expect(Number(inTenants.rows[0].n)).toBe(0);
  });
});
