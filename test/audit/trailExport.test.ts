import { randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sealAudit, verifyAuditChains } from '../../src/audit/sealer.js';
import { verifyTrail } from '../../src/audit/trailVerify.js';
import { auditCommand } from '../../src/cli/operator.js';
import { createDb, type Db } from '../../src/platform/db/pool.js';
import type { ProvisionedTenant } from '../../src/tenancy/provision.js';
import { bearer, startTestService, type TestService } from '../support/service.js';

/**
 * A tenant verifies its own trail (issue 50): rows of two tenants (and
 * refusals without one) are sealed, each tenant exports its chain's rows and
 * seals for a period, and the file verifies offline with no other data; a
 * changed, removed, reordered or foreign row breaks it at the row it names.
 */
let ts: TestService;
let db: Db;
let other: ProvisionedTenant;
let exportA: string;
let exportB: string;
const today = new Date().toISOString().slice(0, 10);

async function exportOf(adminKey: string, query = `from=${today}&to=${today}`) {
  const res = await fetch(`${ts.base}/v1/admin/audit/export?${query}`, { headers: bearer(adminKey) });
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
}

const lines = (text: string) => text.trimEnd().split('\n');
const rowLines = (text: string) => lines(text).filter((l) => JSON.parse(l).type === 'row');

beforeAll(async () => {
  ts = await startTestService({}, { workers: false });
  db = await createDb(ts.dbUrl);
  other = await ts.provision('other-trail');
  // Both tenants' calls interleaved, and refusals without a tenant among them.
  for (let i = 0; i < 6; i += 1) {
    await (await fetch(`${ts.base}/v1/health`, { headers: bearer(ts.tenant.keys.live) })).arrayBuffer();
    await (await fetch(`${ts.base}/v1/health`, { headers: bearer(other.keys.live) })).arrayBuffer();
    await (await fetch(`${ts.base}/v1/health`, { headers: bearer('tas_live_guessed') })).arrayBuffer();
  }
  for (let n = -1; n !== 0;) n = await sealAudit(db, 0);
  const a = await exportOf(ts.tenant.keys.live_admin);
  const b = await exportOf(other.keys.live_admin);
  expect([a.status, b.status]).toEqual([200, 200]);
  expect(a.type).toMatch(/^application\/x-ndjson/);
  exportA = a.text;
  exportB = b.text;
});
afterAll(async () => {
  await db?.end();
  await ts?.stop();
});

describe("a tenant's exported audit trail", () => {
  it("holds its own chain only, with the day's seal, and verifies offline", async () => {
    const header = JSON.parse(lines(exportA)[0]!);
    expect(header).toMatchObject({ type: 'header', format: 'tas-audit-trail/1', tenant_id: ts.tenant.tenant_id, mode: 'live' });
    const rows = rowLines(exportA).map((l) => JSON.parse(l).row);
    expect(rows.length).toBeGreaterThanOrEqual(6);
    expect(rows.every((r) => r.tenant_id === ts.tenant.tenant_id && r.mode === 'live')).toBe(true);
    expect(
      lines(exportA)
        .filter((l) => JSON.parse(l).type === 'seal')
        .map((l) => JSON.parse(l).period),
    ).toEqual([today]);
    const verdict = verifyTrail(exportA);
    expect(verdict).toMatchObject({ tenantId: ts.tenant.tenant_id, mode: 'live', rows: rows.length, seals: 1, fault: null });
    expect(verifyTrail(exportB).fault).toBeNull();
    // The CLI: exit 0 for the file as exported.
    const file = `/tmp/tas-trail-${randomUUID()}.ndjson`;
    await writeFile(file, exportA);
    expect(await auditCommand(ts.config, ['verify', '--file', file])).toBe(0);
    // And the operator's verification of every chain, both tenants' and the anonymous one.
    const chains = await verifyAuditChains(db);
    expect(chains.map((c) => c.chainKey)).toEqual(
      expect.arrayContaining([`${ts.tenant.tenant_id}:live`, `${other.tenant_id}:live`, 'anonymous']),
    );
    expect(chains.every((c) => c.brokenAt === null)).toBe(true);
  });

  it('a changed row breaks it at that row', () => {
    const all = lines(exportA);
    const at = all.findIndex((l) => JSON.parse(l).type === 'row') + 2;
    const line = JSON.parse(all[at]!);
    line.row.status = 500;
    all[at] = JSON.stringify(line);
    expect(verifyTrail(all.join('\n')).fault).toMatchObject({
      line: at + 1,
      reason: 'hash',
      auditId: line.row.audit_id,
      position: line.position,
    });
  });

  it('a removed row breaks it at the row after, which names the missing position', () => {
    const all = lines(exportA);
    const at = all.findIndex((l) => JSON.parse(l).type === 'row') + 1;
    const next = JSON.parse(all[at + 1]!);
    all.splice(at, 1);
    expect(verifyTrail(all.join('\n')).fault).toMatchObject({ line: at + 1, reason: 'position', auditId: next.row.audit_id });
    // The last row removed: the rows end before the seal does.
    const truncated = lines(exportA).slice(0, -1);
    expect(verifyTrail(truncated.join('\n')).fault).toMatchObject({ reason: 'missing' });
  });

  it('two rows reordered break it at the first of them', () => {
    const all = lines(exportA);
    const at = all.findIndex((l) => JSON.parse(l).type === 'row') + 3;
    [all[at], all[at + 1]] = [all[at + 1]!, all[at]!];
    expect(verifyTrail(all.join('\n')).fault).toMatchObject({
      line: at + 1,
      reason: 'position',
      auditId: JSON.parse(all[at]).row.audit_id,
    });
  });

  it("another tenant's row breaks it at that row, even given this chain's position and links", async () => {
    const all = lines(exportA);
    const at = all.findIndex((l) => JSON.parse(l).type === 'row') + 2;
    const mine = JSON.parse(all[at]!);
    const foreign = JSON.parse(rowLines(exportB)[0]!);
    all[at] = JSON.stringify({ ...mine, row: foreign.row });
    expect(verifyTrail(all.join('\n')).fault).toMatchObject({ line: at + 1, reason: 'foreign', auditId: foreign.row.audit_id });
    const file = `/tmp/tas-trail-${randomUUID()}.ndjson`;
    await writeFile(file, all.join('\n'));
    expect(await auditCommand(ts.config, ['verify', '--file', file])).toBe(1);
  });

  it('refuses a period longer than a month, or ending before it starts, with 422', async () => {
    expect((await exportOf(ts.tenant.keys.live_admin, 'from=2026-01-01&to=2026-03-01')).status).toBe(422);
    expect((await exportOf(ts.tenant.keys.live_admin, 'from=2026-01-02&to=2026-01-01')).status).toBe(422);
    expect((await exportOf(ts.tenant.keys.live, `from=${today}&to=${today}`)).status).toBe(403);
  });
});
