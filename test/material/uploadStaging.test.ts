import { createHash, randomBytes } from 'node:crypto';
import { readdir, stat } from 'node:fs/promises';
import { request, type ClientRequest } from 'node:http';
import { join } from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MaterialOut } from '../../src/material/schemas.js';
import { ownerClient } from '../support/database.js';
import { startTestService, type TestService } from '../support/service.js';
import { callAs } from './support.js';

/**
 * Issue 40, "an upload holds a pooled connection and a row lock for the whole
 * body, out of a pool of 20": more slow uploads than the pool has
 * connections, each stopped half-way, hold no connection and no transaction,
 * and an inquiry answers while they are all in flight. Their bodies wait in
 * the staging directory; each is committed in one transaction when it ends.
 */
const UPLOADS = 25; // more than the pool's 20 connections
const SIZE = 256 * 1024;
const HALF = SIZE / 2;

let ts: TestService;
let owner: pg.Client;
beforeAll(async () => {
  ts = await startTestService();
  owner = await ownerClient(ts.dbUrl);
});
afterAll(async () => {
  await owner?.end();
  await ts?.stop();
});

const call = (method: string, path: string, body?: unknown) => callAs(ts, ts.tenant.keys.test, method, path, body);
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

async function stagedBytes(dir: string): Promise<number> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const sizes = await Promise.all(
    names.map((n) =>
      stat(join(dir, n)).then(
        (s) => s.size,
        () => 0,
      ),
    ),
  );
  return sizes.reduce((a, b) => a + b, 0);
}

/** A PUT whose body is sent in two halves, the second only on request. */
function slowPut(url: string, bytes: Buffer): { req: ClientRequest; done: Promise<{ status: number; body: any }>; finish: () => void } {
  const req = request(url, {
    method: 'PUT',
    headers: { 'content-type': 'application/octet-stream', 'content-length': String(bytes.length) },
  });
  const done = new Promise<{ status: number; body: any }>((resolve, reject) => {
    req.on('response', (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode!, body: text ? JSON.parse(text) : null }));
    });
    req.on('error', reject);
  });
  req.write(bytes.subarray(0, HALF));
  return { req, done, finish: () => req.end(bytes.subarray(HALF)) };
}

describe('uploads staged outside any transaction', () => {
  it('25 slow uploads hold no pooled connection, an inquiry answers while they are in flight, and each commits when its body ends', async () => {
    const files = Array.from({ length: UPLOADS }, () => randomBytes(SIZE));
    const declared = await Promise.all(
      files.map(async (bytes) => {
        const r = await call('POST', '/v1/material', {
          kind: 'text',
          media_type: 'text/plain',
          purpose: 'fraud_prevention',
          sha256: sha(bytes),
          size_bytes: SIZE,
        });
        expect(r.status).toBe(201);
        return MaterialOut.parse(r.body);
      }),
    );

    const staging = join(ts.config.TAS_SPOOL_DIR, 'uploads');
    const puts = declared.map((d, i) => slowPut(d.upload!.url, files[i]!));
    let answered = 0;
    for (const p of puts)
      void p.done.then(
        () => (answered += 1),
        () => undefined,
      );
    // Every first half has reached the staging directory: all 25 are in flight at once.
    await expect.poll(() => stagedBytes(staging), { timeout: 30_000, interval: 50 }).toBe(UPLOADS * HALF);

    // None of them holds a connection in a transaction (before: 20 sat "idle in transaction" on the material's row lock).
    const inTransaction = async () =>
      Number(
        (
          await owner.query(
            `SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND usename = 'tas_app' AND xact_start IS NOT NULL AND state = 'idle in transaction'`,
          )
        ).rows[0].n,
      );
    await expect.poll(inTransaction, { timeout: 5_000, interval: 50 }).toBe(0);
    const locks = Number(
      (
        await owner.query(
          `SELECT count(*) AS n FROM pg_locks l JOIN pg_class c ON c.oid = l.relation WHERE c.relname = 'material' AND l.mode = 'RowShareLock'`,
        )
      ).rows[0].n,
    );
    expect(locks).toBe(0);

    // An inquiry is answered while every upload is still open.
    const inquiry = await call('POST', '/v1/inquiries', {
      subject: { presentations: [{ type: 'EMAIL', value: 'staged@example.org' }] },
      intent: 'counterparty_check',
      purpose: 'fraud_prevention',
      stake: { kind: 'account' },
    });
    expect(inquiry.status).toBe(200);
    expect(answered).toBe(0);

    for (const p of puts) p.finish();
    const results = await Promise.all(puts.map((p) => p.done));
    expect(results.map((r) => r.status)).toEqual(files.map(() => 200));
    expect(results.every((r) => MaterialOut.parse(r.body).status === 'received' || MaterialOut.parse(r.body).status === 'extracted')).toBe(
      true,
    );
    const stored = await owner.query(`SELECT count(DISTINCT sha256) AS n FROM material_bytes WHERE sha256 = ANY($1)`, [files.map(sha)]);
    expect(Number(stored.rows[0].n)).toBe(UPLOADS);
    expect(await readdir(staging)).toEqual([]);
  });

  it('a body that is not the declared one leaves nothing staged and nothing stored, and the URL still works', async () => {
    const bytes = randomBytes(4096);
    const r = await call('POST', '/v1/material', {
      kind: 'text',
      media_type: 'text/plain',
      purpose: 'fraud_prevention',
      sha256: sha(bytes),
      size_bytes: bytes.length,
    });
    const url = MaterialOut.parse(r.body).upload!.url;
    const wrong = randomBytes(4096);
    const refused = await fetch(url, { method: 'PUT', headers: { 'content-type': 'application/octet-stream' }, body: wrong });
    expect(refused.status).toBe(422);
    expect(await readdir(join(ts.config.TAS_SPOOL_DIR, 'uploads'))).toEqual([]);
    expect(Number((await owner.query(`SELECT count(*) AS n FROM material_bytes WHERE sha256 = $1`, [sha(wrong)])).rows[0].n)).toBe(0);
    const ok = await fetch(url, { method: 'PUT', headers: { 'content-type': 'application/octet-stream' }, body: bytes });
    expect(ok.status).toBe(200);
  });
});
