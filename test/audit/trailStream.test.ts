import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '../../src/auth/index.js';
import { sealAudit } from '../../src/audit/sealer.js';
import type { PublishedKey } from '../../src/audit/sealSignature.js';
import { appendAuditBatch, type AuditRecord } from '../../src/audit/store.js';
import { exportTrail } from '../../src/audit/trailExport.js';
import { trailVerifier } from '../../src/audit/trailVerify.js';
import { activeKey } from '../../src/cases/export/keys.js';
import { createDb, type Db } from '../../src/platform/db/pool.js';
import { bearer, startTestService, type TestService } from '../support/service.js';

/**
 * A large export streams (issue 50, item 3): the rows are read a page of
 * positions at a time, each page only when the reader asks for the next, so
 * what the service holds is one page, whatever the period; over HTTP the
 * body goes out chunked to a client that reads it slowly, and the file it
 * receives verifies whole, signatures included.
 */
let ts: TestService;
let db: Db;
let keys: PublishedKey[];
const ROWS = 6_000;
const today = new Date().toISOString().slice(0, 10);

function row(tenantId: string, i: number): AuditRecord {
  return {
    audit_id: randomUUID(),
    occurred_at: new Date(Date.now() - 60_000 + i).toISOString(),
    tenant_id: tenantId,
    mode: 'live',
    principal: 'key:bulk',
    action: 'createInquiry',
    target_kind: 'inquiry',
    // A long target (a case's reference, say): 2 kB a row, so the body outgrows what the sockets' buffers hold.
    target_id: `${randomUUID()}/${'r'.repeat(2000)}`,
    status: 201,
    rule: null,
    purpose: 'kyc',
    cost_amount: null,
    cost_currency: null,
    request_id: null,
  };
}

beforeAll(async () => {
  ts = await startTestService({}, { workers: false });
  db = await createDb(ts.dbUrl);
  const tenant = ts.tenant.tenant_id;
  for (let i = 0; i < ROWS; i += 2000)
    await appendAuditBatch(
      db,
      Array.from({ length: 2000 }, (_, j) => row(tenant, i + j)),
    );
  for (let n = -1; n !== 0;) n = await sealAudit(db, 0, () => activeKey(db, ts.config.keyPepper));
  keys = ((await (await fetch(`${ts.base}/.well-known/tas-export-keys.json`)).json()) as { keys: PublishedKey[] }).keys;
}, 120_000);
afterAll(async () => {
  await db?.end();
  await ts?.stop();
});

/** The pool, counting the transactions begun on it: one per page read. */
function countingTransactions(target: Db): { db: Db; count: () => number } {
  let n = 0;
  const proxy = new Proxy(target, {
    get(t, property, receiver) {
      if (property !== 'transaction') return Reflect.get(t, property, receiver);
      return (handler: Parameters<Db['transaction']>[0]) => {
        n += 1;
        return t.transaction(handler);
      };
    },
  });
  return { db: proxy, count: () => n };
}

describe('a large trail export', () => {
  it('reads its rows a page at a time, each page only when the reader takes it', async () => {
    const principal: Principal = { tenantId: ts.tenant.tenant_id, mode: 'live', keyId: 'k', scopes: new Set(), label: 'key:k' };
    const counting = countingTransactions(db);
    const PAGE = 1000;
    const trail = await exportTrail({ db: counting.db }, principal, { from: today, to: today }, PAGE);
    // The header and the seals: one transaction, no row yet.
    expect(counting.count()).toBe(1);
    const verifier = trailVerifier(keys);
    for (const line of trail.head.split('\n')) verifier.line(line);
    const rowsPerPage: number[] = [];
    for await (const page of trail.pages) {
      // The page just handed over is the only one read since the last: nothing is read ahead of the reader.
      expect(counting.count()).toBe(1 + rowsPerPage.length + 1);
      const lines = page.trimEnd().split('\n');
      rowsPerPage.push(lines.length);
      for (const line of lines) verifier.line(line);
    }
    expect(Math.max(...rowsPerPage)).toBe(PAGE);
    expect(rowsPerPage.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(ROWS);
    expect(rowsPerPage.length).toBe(Math.ceil(rowsPerPage.reduce((a, b) => a + b, 0) / PAGE));
    expect(verifier.end()).toMatchObject({ rows: rowsPerPage.reduce((a, b) => a + b, 0), signaturesChecked: true, fault: null });
  });

  it('goes out chunked to a client that reads slowly, and the file it gets verifies whole', async () => {
    const url = new URL(`${ts.base}/v1/admin/audit/export?from=${today}&to=${today}`);
    const received = await new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string; reads: number }>(
      (resolve, reject) => {
        const req = http.get(url, { headers: bearer(ts.tenant.keys.live_admin) }, (res) => {
          const parts: Buffer[] = [];
          let reads = 0;
          res.pause();
          // A slow reader: 16 kB at a time, one read every 15 ms at most (about 1 MB/s), slower than the pages are read, so the sockets fill and the
          // service waits for onWritable (seen: writes answered with backpressure, pages then written from onWritable).
          const readSome = () => {
            const chunk = res.read(16 * 1024) as Buffer | null;
            if (chunk !== null) {
              parts.push(chunk);
              reads += 1;
              setTimeout(readSome, 15);
            } else res.once('readable', readSome);
          };
          res.once('readable', readSome);
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts).toString('utf8'), reads }),
          );
          res.on('error', reject);
        });
        req.on('error', reject);
      },
    );
    expect(received.status).toBe(200);
    expect(received.headers['transfer-encoding']).toBe('chunked');
    expect(received.headers['content-length']).toBeUndefined();
    expect(received.headers['content-type']).toMatch(/^application\/x-ndjson/);
    expect(received.body.length).toBeGreaterThan(ROWS * 2000);
    expect(received.reads).toBeGreaterThan(500);
    const verifier = trailVerifier(keys);
    for (const line of received.body.split('\n')) verifier.line(line);
    const verdict = verifier.end();
    expect(verdict).toMatchObject({ tenantId: ts.tenant.tenant_id, signaturesChecked: true, fault: null });
    expect(verdict.rows).toBeGreaterThanOrEqual(ROWS);
  });
});
