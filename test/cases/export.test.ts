import { createHash } from 'node:crypto';
import { execFile } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unpackBundle, verifyBundle, type Jwks } from '../../src/cases/export/bundle.js';
import { runScoreCommand } from '../../src/cli/score.js';
import { CaseExportOut, CaseOut } from '../../src/cases/schemas.js';
import { Problem } from '../../src/schemas/errors.js';
import { bearer, startTestService, type TestService } from '../support/service.js';
import { eventually } from '../support/wait.js';

/**
 * Evidentiary export end to end (issue 14): the real server, the export
 * worker on BullMQ and PostgreSQL. Only a signed-off case exports; the bundle
 * downloads with the tenant's key, verifies against the published JWKS with
 * `tas export verify`, and its assessments reproduce with `tas score`.
 */
let ts: TestService;
const run = promisify(execFile);

beforeAll(async () => {
  ts = await startTestService({}, { workers: true });
});

afterAll(async () => {
  await ts.stop();
});

async function call(method: 'GET' | 'POST', path: string, body?: unknown, key = ts.tenant.keys.live) {
  const res = await fetch(`${ts.base}${path}`, {
    method,
    headers: { ...bearer(key), 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

async function signedOffCase(): Promise<CaseOut> {
  // An inquiry first, so the case's entity has an assessment in its ledger.
  const inquiry = await call('POST', '/v1/inquiries', {
    subject: { presentations: [{ type: 'EMAIL', value: 'mule@example.org' }] },
    intent: 'investigation',
    purpose: 'investigation',
    stake: { kind: 'other', amount: 0 },
  });
  expect(inquiry.status).toBe(200);
  const opened = await call('POST', '/v1/cases', {
    title: 'Mule network',
    purpose: 'investigation',
    authorization: { kind: 'court_order', reference: 'CO-2026-17', issued_by: 'District Court' },
    subject: { presentations: [{ type: 'EMAIL', value: 'mule@example.org' }] },
  });
  expect(opened.status).toBe(201);
  const caseId = CaseOut.parse(opened.body).case_id;
  expect((await call('POST', `/v1/cases/${caseId}/review`, { outcome: 'sign_off', note: 'Evidence complete.' })).status).toBe(200);
  return CaseOut.parse((await call('GET', `/v1/cases/${caseId}`)).body);
}

async function readyExport(caseId: string, exportId: string): Promise<CaseExportOut> {
  return eventually(
    async () => {
      const read = CaseExportOut.parse((await call('GET', `/v1/cases/${caseId}/exports/${exportId}`)).body);
      return (read.status === 'ready' || read.status === 'failed') && read;
    },
    { timeout: 10_000, interval: 100, what: 'the export built' },
  );
}

describe('POST /v1/cases/{case_id}/export', () => {
  it('given a case not signed off, then 409 names the rule and the state, and nothing is queued', async () => {
    const opened = await call('POST', '/v1/cases', {
      title: 'Open case',
      purpose: 'investigation',
      authorization: { kind: 'court_order', reference: 'CO-1', issued_by: 'Court' },
    });
    const caseId = CaseOut.parse(opened.body).case_id;
    const res = await call('POST', `/v1/cases/${caseId}/export`);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ rule: 'C02', case_state: 'open' });
    Problem.parse(res.body);
  });

  it("given format bundle_with_bytes, then the kept bytes of the case's material travel as material/<sha256>, and transient material's do not", async () => {
    const opened = CaseOut.parse(
      (
        await call('POST', '/v1/cases', {
          title: 'With bytes',
          purpose: 'investigation',
          authorization: { kind: 'court_order', reference: 'CO-7', issued_by: 'Court' },
        })
      ).body,
    );
    const kept = 'Statement of the witness: contact kept.bytes@example.org';
    const declare = (text: string, extra: Record<string, unknown> = {}) =>
      call('POST', '/v1/material', {
        kind: 'text',
        media_type: 'text/plain',
        purpose: 'investigation',
        text,
        case_id: opened.case_id,
        ...extra,
      });
    const standard = await declare(kept);
    expect(standard.status).toBe(201);
    expect((await declare('transient note: gone@example.org', { retention_mode: 'transient' })).status).toBe(201);
    expect((await call('POST', `/v1/cases/${opened.case_id}/review`, { outcome: 'sign_off', note: 'Done.' })).status).toBe(200);

    const asked = await call('POST', `/v1/cases/${opened.case_id}/export?format=bundle_with_bytes`);
    expect(asked.status).toBe(202);
    const ready = await readyExport(opened.case_id, CaseExportOut.parse(asked.body).export_id);
    expect(ready.status).toBe('ready');
    const bundle = Buffer.from(await (await fetch(ready.download_url!, { headers: bearer(ts.tenant.keys.live) })).arrayBuffer());
    const keys = (await (await fetch(`${ts.base}/.well-known/tas-export-keys.json`)).json()) as Jwks;
    expect(await verifyBundle(bundle, keys)).toMatchObject({ ok: true, problems: [] });
    const { files } = await unpackBundle(bundle);
    const sha = createHash('sha256').update(kept).digest('hex');
    expect(files.get(`material/${sha}`)?.toString('utf8')).toBe(kept);
    expect([...files.keys()].filter((n) => n.startsWith('material/'))).toEqual([`material/${sha}`]);
  });

  it('given a signed-off case under legal hold, and one closed after its sign-off, then both export; one closed without a sign-off is 409 C02', async () => {
    const held = await signedOffCase();
    expect((await call('POST', `/v1/cases/${held.case_id}/hold`, { reason: 'Litigation hold', reference: 'LH-1' })).status).toBe(200);
    const heldExport = await call('POST', `/v1/cases/${held.case_id}/export`);
    expect(heldExport.status).toBe(202);
    expect((await readyExport(held.case_id, CaseExportOut.parse(heldExport.body).export_id)).status).toBe('ready');

    const closed = await signedOffCase();
    expect((await call('POST', `/v1/cases/${closed.case_id}/close`)).status).toBe(200);
    const closedExport = await call('POST', `/v1/cases/${closed.case_id}/export`);
    expect(closedExport.status).toBe(202);
    expect((await readyExport(closed.case_id, CaseExportOut.parse(closedExport.body).export_id)).status).toBe('ready');

    const unsigned = CaseOut.parse(
      (
        await call('POST', '/v1/cases', {
          title: 'Closed unsigned',
          purpose: 'investigation',
          authorization: { kind: 'court_order', reference: 'CO-2', issued_by: 'Court' },
        })
      ).body,
    );
    expect((await call('POST', `/v1/cases/${unsigned.case_id}/close`)).status).toBe(200);
    const refused = await call('POST', `/v1/cases/${unsigned.case_id}/export`);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ rule: 'C02', case_state: 'closed' });
  });

  it('given a signed-off case, then the bundle is built, downloads with the key, verifies, and reproduces its scores', async () => {
    const signed = await signedOffCase();
    const asked = await call('POST', `/v1/cases/${signed.case_id}/export`);
    expect(asked.status).toBe(202);
    const queued = CaseExportOut.parse(asked.body);
    expect(queued).toMatchObject({ case_id: signed.case_id, format: 'bundle', download_url: null });
    // Asking again before the case changes is the same export.
    expect(CaseExportOut.parse((await call('POST', `/v1/cases/${signed.case_id}/export`)).body).export_id).toBe(queued.export_id);

    const ready = await readyExport(signed.case_id, queued.export_id);
    expect(ready).toMatchObject({
      status: 'ready',
      download_url: `${ts.base}/v1/cases/${signed.case_id}/exports/${queued.export_id}/bundle`,
    });
    expect(ready.manifest_sha256).toMatch(/^[0-9a-f]{64}$/);

    const anonymous = await fetch(ready.download_url!);
    expect(anonymous.status).toBe(401);
    const download = await fetch(ready.download_url!, { headers: bearer(ts.tenant.keys.live) });
    expect([download.status, download.headers.get('content-type')]).toEqual([200, 'application/gzip']);
    const bundle = Buffer.from(await download.arrayBuffer());

    const keys = (await (await fetch(`${ts.base}/.well-known/tas-export-keys.json`)).json()) as Jwks;
    const verified = await verifyBundle(bundle, keys);
    expect(verified).toMatchObject({ ok: true, problems: [] });
    expect(verified.manifest!.files.map((f) => f.name)).toEqual([
      'README.md',
      'case.json',
      'timeline.json',
      'graph.json',
      'assessments.json',
      'observations.json',
      'material.json',
      'audit.json',
    ]);

    const { files } = await unpackBundle(bundle);
    expect(JSON.parse(files.get('case.json')!.toString())).toMatchObject({ case_id: signed.case_id, state: 'signed_off' });
    const audit = JSON.parse(files.get('audit.json')!.toString()) as { action: string }[];
    expect(audit.map((a) => a.action)).toEqual(expect.arrayContaining(['createCase', 'reviewCase', 'exportCase']));
    const assessments = JSON.parse(files.get('assessments.json')!.toString()) as {
      score: number;
      low: number;
      high: number;
      methodology_version: string;
      inputs: Record<string, unknown>;
    }[];
    expect(assessments.length).toBeGreaterThan(0);
    for (const a of assessments) {
      const scored = JSON.parse(runScoreCommand(JSON.stringify({ methodology_version: a.methodology_version, ...a.inputs }))) as {
        score: number;
        low: number;
        high: number;
      };
      expect([scored.score, scored.low, scored.high]).toEqual([a.score, a.low, a.high]);
    }

    // `tas export verify`, the real command: the bundle passes; one changed byte of case.json fails, named.
    const dir = await mkdtemp(join(tmpdir(), 'tas-export-'));
    await writeFile(join(dir, 'keys.json'), JSON.stringify(keys));
    await writeFile(join(dir, 'bundle.tar.gz'), bundle);
    const good = await run('node', ['bin/tas.js', 'export', 'verify', join(dir, 'bundle.tar.gz'), '--keys', join(dir, 'keys.json')]);
    expect(good.stdout).toMatch(/verified \(8 files, signed by ek_/);
    const { packBundle } = await import('../../src/cases/export/bundle.js');
    const changed = [...files]
      .filter(([name]) => name !== 'manifest.json' && name !== 'manifest.sig')
      .map(([name, bytes]) => ({
        name,
        bytes: name === 'case.json' ? Buffer.from(bytes.toString().replace('signed_off', 'signed_of!')) : bytes,
      }));
    await writeFile(join(dir, 'tampered.tar.gz'), await packBundle(changed, files.get('manifest.json')!, files.get('manifest.sig')!));
    const bad = await run('node', ['bin/tas.js', 'export', 'verify', join(dir, 'tampered.tar.gz'), '--keys', join(dir, 'keys.json')]).catch(
      (e: { code: number; stdout: string }) => e,
    );
    expect(bad).toMatchObject({ code: 1 });
    expect((bad as { stdout: string }).stdout).toContain("FAIL case.json: its sha256 differs from the manifest's");
  });

  it('given another tenant, then its key sees no export of this case', async () => {
    const signed = await signedOffCase();
    const queued = CaseExportOut.parse((await call('POST', `/v1/cases/${signed.case_id}/export`)).body);
    const other = await ts.provision('other', true);
    expect((await call('GET', `/v1/cases/${signed.case_id}/exports/${queued.export_id}`, undefined, other.keys.live)).status).toBe(404);
    expect((await call('GET', `/v1/cases/${signed.case_id}/exports/${queued.export_id}/bundle`, undefined, other.keys.live)).status).toBe(
      404,
    );
  });
});
