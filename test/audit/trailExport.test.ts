import { randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sealAudit, verifyAuditChains } from '../../src/audit/sealer.js';
import { verifyTrail } from '../../src/audit/trailVerify.js';
import type { PublishedKey } from '../../src/audit/sealSignature.js';
import { activeKey } from '../../src/cases/export/keys.js';
import { link } from '../../src/audit/chain.js';
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
let keys: PublishedKey[];
let keysFile: string;
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
  // The service's sealer signs with the case export's key; the keys are published where the case export's are.
  for (let n = -1; n !== 0;) n = await sealAudit(db, 0, () => activeKey(db, ts.config.keyPepper));
  keys = ((await (await fetch(`${ts.base}/.well-known/tas-export-keys.json`)).json()) as { keys: PublishedKey[] }).keys;
  keysFile = `/tmp/tas-keys-${randomUUID()}.json`;
  await writeFile(keysFile, JSON.stringify({ keys }));
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
    const verdict = verifyTrail(exportA, keys);
    expect(verdict).toMatchObject({
      tenantId: ts.tenant.tenant_id,
      mode: 'live',
      rows: rows.length,
      seals: 1,
      signaturesChecked: true,
      fault: null,
    });
    expect(verifyTrail(exportB, keys).fault).toBeNull();
    // The CLI: exit 0 for the file as exported, its seals checked against the published keys.
    const file = `/tmp/tas-trail-${randomUUID()}.ndjson`;
    await writeFile(file, exportA);
    expect(await auditCommand(ts.config, ['verify', '--file', file, '--keys', keysFile])).toBe(0);
    // And the operator's verification of every chain, both tenants' and the anonymous one.
    const chains = await verifyAuditChains(db, undefined, keys);
    expect(chains.map((c) => c.chainKey)).toEqual(
      expect.arrayContaining([`${ts.tenant.tenant_id}:live`, `${other.tenant_id}:live`, 'anonymous']),
    );
    expect(chains.every((c) => c.brokenAt === null && c.unsigned === 0)).toBe(true);
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
    expect(await auditCommand(ts.config, ['verify', '--file', file, '--keys', keysFile])).toBe(1);
  });

  it('signs every seal: a changed signature, or a seal not signed, fails against the published keys', () => {
    const all = lines(exportA);
    const at = all.findIndex((l) => JSON.parse(l).type === 'seal');
    const seal = JSON.parse(all[at]!);
    expect(seal).toMatchObject({ kid: keys[0]!.kid, signature: expect.stringMatching(/^[A-Za-z0-9_-]{86}$/) });
    const flipped = Buffer.from(seal.signature, 'base64url');
    flipped[0] = flipped[0]! ^ 1;
    all[at] = JSON.stringify({ ...seal, signature: flipped.toString('base64url') });
    expect(verifyTrail(all.join('\n'), keys).fault).toMatchObject({ line: at + 1, reason: 'signature' });
    all[at] = JSON.stringify({ ...seal, kid: null, signed_at: null, signature: null });
    expect(verifyTrail(all.join('\n'), keys).fault).toMatchObject({ line: at + 1, reason: 'unsigned' });
    // Without the keys only the links and seals are checked against each other, and the verdict says so.
    expect(verifyTrail(all.join('\n'))).toMatchObject({ signaturesChecked: false, fault: null });
  });

  it('a trail rebuilt from changed rows, every link and the seal computed anew, passes the links but not the signature', () => {
    const all = lines(exportA);
    let prev: Buffer = Buffer.from(JSON.parse(all[0]!).anchor_hash, 'hex');
    const rebuilt = all.map((l) => {
      const line = JSON.parse(l);
      if (line.type !== 'row') return line;
      line.row.status = 299;
      line.prev_hash = prev.toString('hex');
      prev = link(prev, line.row);
      line.hash = prev.toString('hex');
      return line;
    });
    for (const line of rebuilt) if (line.type === 'seal') line.last_hash = prev.toString('hex');
    const forged = rebuilt.map((l) => JSON.stringify(l)).join('\n');
    expect(verifyTrail(forged).fault).toBeNull();
    expect(verifyTrail(forged, keys).fault).toMatchObject({ reason: 'signature' });
  });

  it('refuses a period longer than a year, or ending before it starts, with 422', async () => {
    expect((await exportOf(ts.tenant.keys.live_admin, 'from=2026-01-01&to=2027-01-02')).status).toBe(422);
    // 365 days after the first: a year, answered.
    expect((await exportOf(ts.tenant.keys.live_admin, 'from=2026-01-01&to=2027-01-01')).status).toBe(200);
    expect((await exportOf(ts.tenant.keys.live_admin, 'from=2026-01-02&to=2026-01-01')).status).toBe(422);
    expect((await exportOf(ts.tenant.keys.live, `from=${today}&to=${today}`)).status).toBe(403);
  });
});
