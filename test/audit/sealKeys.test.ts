import { randomBytes, randomUUID } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditRecord } from './support.js';
import { keptSealSigner, sealAudit, verifyAuditChains } from '../../src/audit/sealer.js';
import { appendAuditBatch, type AuditRecord } from '../../src/audit/store.js';
import { activeKey, publishedKeys, revokeKey, rotateKey } from '../../src/cases/export/keys.js';
import { createDb, type Db } from '../../src/platform/db/pool.js';
import { cloneDatabase, ownerClient } from '../support/database.js';

let clone: Awaited<ReturnType<typeof cloneDatabase>>;
let db: Db;
let owner: pg.Client;
const tenant = randomUUID();
const PEPPER = randomBytes(32).toString('base64url');

const row = (tenantId: string | null): AuditRecord => auditRecord(tenantId);

/** The kid of today's seal of the tenant's chain and of the anonymous chain. */
async function sealKids(): Promise<{ tenant: string; anonymous: string }> {
  const today = `(now() AT TIME ZONE 'UTC')::date`;
  const t = await owner.query(`SELECT kid FROM audit_seals WHERE tenant_id = $1 AND period = ${today}`, [tenant]);
  const a = await owner.query(`SELECT kid FROM audit_refusal_seals WHERE chain_key = 'anonymous' AND period = ${today}`);
  return { tenant: t.rows[0].kid, anonymous: a.rows[0].kid };
}

beforeAll(async () => {
  clone = await cloneDatabase();
  db = await createDb(clone.url);
  owner = await ownerClient(clone.url);
  await owner.query('INSERT INTO tenants (id, name) VALUES ($1, $2)', [tenant, 'kept-key']);
});
afterAll(async () => {
  await owner?.end();
  await db?.end();
  await clone?.drop();
});

describe("the sealer's kept signing key", () => {
  let opens = 0;
  const signer = keptSealSigner(() => {
    opens += 1;
    return activeKey(db, PEPPER);
  });
  const pass = async () => {
    await appendAuditBatch(db, [row(tenant), row(null)]);
    expect(await sealAudit(db, 0, signer)).toBe(2);
  };

  it('is opened once while it stays the active key', async () => {
    await pass();
    await pass();
    await pass();
    expect(opens).toBe(1);
    const { kid } = await activeKey(db, PEPPER);
    expect(await sealKids()).toEqual({ tenant: kid, anonymous: kid });
  });

  it('gives way to a rotated key on the next pass, and to the replacement of a revoked one', async () => {
    const { kid: rotated } = await rotateKey(db, PEPPER);
    await pass();
    expect(opens).toBe(2);
    expect(await sealKids()).toEqual({ tenant: rotated, anonymous: rotated });

    const { replacedBy } = await revokeKey(db, PEPPER, rotated);
    await pass();
    expect(opens).toBe(3);
    expect(await sealKids()).toEqual({ tenant: replacedBy, anonymous: replacedBy });

    // A seal signed by a retired key after its retirement would fail here: each seal's signature is dated
    // within its key's window.
    const verdicts = await verifyAuditChains(db, undefined, (await publishedKeys(db)).keys);
    expect(verdicts.map((v) => v.chainKey).sort()).toEqual([`${tenant}:live`, 'anonymous'].sort());
    expect(verdicts.every((v) => v.brokenAt === null && v.unsigned === 0)).toBe(true);
  });
});
