import { generateKeyPairSync, randomUUID } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditRecord } from './support.js';
import { sealAudit, verifyAuditChains } from '../../src/audit/sealer.js';
import { appendAuditBatch, type AuditRecord } from '../../src/audit/store.js';
import { createDb, type Db } from '../../src/platform/db/pool.js';
import { cloneDatabase, ownerClient } from '../support/database.js';

let clone: Awaited<ReturnType<typeof cloneDatabase>>;
let db: Db;
let owner: pg.Client;
const tenant = randomUUID();

const row = (i: number, tenantId: string | null): AuditRecord =>
  auditRecord(tenantId, { occurred_at: new Date(Date.now() - 60_000 + i).toISOString(), status: 200 });

beforeAll(async () => {
  clone = await cloneDatabase();
  db = await createDb(clone.url);
  owner = await ownerClient(clone.url);
  await owner.query('INSERT INTO tenants (id, name) VALUES ($1, $2)', [tenant, 'chain']);
  await appendAuditBatch(
    db,
    Array.from({ length: 30 }, (_, i) => row(i, i % 3 === 0 ? null : tenant)),
  );
});
afterAll(async () => {
  await owner?.end();
  await db?.end();
  await clone?.drop();
});

describe('the audit hash chain', () => {
  it('two sealers at once link every row exactly once, per tenant and mode', async () => {
    const sealed = await Promise.all([sealAudit(db), sealAudit(db)]);
    expect(sealed.reduce((a, b) => a + b, 0)).toBe(30);
    const verdicts = await verifyAuditChains(db);
    expect(verdicts).toEqual(
      expect.arrayContaining([
        { chainKey: 'anonymous', rows: 10, brokenAt: null },
        { chainKey: `${tenant}:live`, rows: 20, brokenAt: null },
      ]),
    );
    // The sealer's work list (000021) holds exactly what is still unchained: nothing, now.
    expect((await owner.query('SELECT count(*)::int AS n FROM audit_unsealed')).rows[0].n).toBe(0);
  });

  it('a pass costs the same few statements however many calls it seals, and the chains it extends verify', async () => {
    const other = randomUUID();
    await owner.query('INSERT INTO tenants (id, name) VALUES ($1, $2)', [other, 'chain-count']);
    // Signing as the service does (000140), with a key of the moment: the signing itself is no statement. A first
    // pass signs the seals earlier tests left unsigned (one statement each, once), so the count below is the pass's own.
    const { privateKey } = generateKeyPairSync('ed25519');
    const signer = () => Promise.resolve({ kid: 'ek_test', privateKey });
    await sealAudit(db, 0, signer);
    await appendAuditBatch(
      db,
      Array.from({ length: 60 }, (_, i) => row(i, i % 2 === 0 ? other : tenant)),
    );
    let statements = 0;
    const counting = new Proxy(db, {
      get(target, property, receiver) {
        if (property !== 'transaction') return Reflect.get(target, property, receiver);
        return (handler: Parameters<Db['transaction']>[0]) =>
          target.transaction((tx) =>
            handler(
              new Proxy(tx, {
                get(t, p, r) {
                  const value = Reflect.get(t, p, r);
                  if (typeof value !== 'function') return value;
                  return (...args: unknown[]) => {
                    statements += 1;
                    return (value as (...a: unknown[]) => unknown).apply(t, args);
                  };
                },
              }),
            ),
          );
      },
    });
    expect(await sealAudit(counting, 0, signer)).toBe(60);
    // Per trail (000120, 000140): role, lock (with whether a seal waits for a signature), work list, then (when it
    // has rows) chain heads with the day's seals, links, unlisting and the day's seals written signed: one each,
    // not one per call. The tenants' trail 7, the anonymous one, empty here, 3.
    expect(statements).toBeLessThanOrEqual(10);
    const verdicts = await verifyAuditChains(db);
    expect(verdicts.every((v) => v.brokenAt === null)).toBe(true);
    expect(verdicts).toEqual(expect.arrayContaining([{ chainKey: `${other}:live`, rows: 30, brokenAt: null }]));
  });

  it('a signing key that cannot be had does not stop the chains: rows sealed, seals unsigned, the failure thrown after', async () => {
    await appendAuditBatch(db, [row(0, tenant)]);
    const lost = () => Promise.reject(new Error('the pepper that sealed the key is gone'));
    await expect(sealAudit(db, 0, lost)).rejects.toThrow(/audit rows sealed \(1\), their seals unsigned/);
    expect((await owner.query('SELECT count(*)::int AS n FROM audit_unsealed')).rows[0].n).toBe(0);
    expect((await owner.query('SELECT count(*)::int AS n FROM audit_seals WHERE signature IS NULL')).rows[0].n).toBeGreaterThan(0);
    // The next pass with the key signs what was left.
    const { privateKey } = generateKeyPairSync('ed25519');
    await sealAudit(db, 0, () => Promise.resolve({ kid: 'ek_test', privateKey }));
    expect((await owner.query('SELECT count(*)::int AS n FROM audit_seals WHERE signature IS NULL')).rows[0].n).toBe(0);
  });

  it('rows newer than the horizon wait for a later run', async () => {
    await appendAuditBatch(db, [{ ...row(0, tenant), occurred_at: new Date().toISOString() }]);
    expect(await sealAudit(db)).toBe(0);
    expect((await owner.query('SELECT count(*)::int AS n FROM audit_unsealed')).rows[0].n).toBe(1);
    expect(await sealAudit(db, 0)).toBe(1);
  });

  it('changing any sealed row breaks the chain at that row', async () => {
    const target = await owner.query(`SELECT audit_id, position FROM audit_chain WHERE chain_key = $1 AND position = 7`, [
      `${tenant}:live`,
    ]);
    await owner.query('ALTER TABLE audit_log DISABLE TRIGGER audit_log_append_only');
    await owner.query(`UPDATE audit_log SET status = 500 WHERE audit_id = $1`, [target.rows[0].audit_id]);
    await owner.query('ALTER TABLE audit_log ENABLE TRIGGER audit_log_append_only');
    const [verdict] = await verifyAuditChains(db, `${tenant}:live`);
    expect(verdict!.brokenAt).toBe(7);
  });
});
