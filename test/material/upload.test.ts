import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExtractionOut, MaterialOut } from '../../src/material/schemas.js';
import { docx, mp4, pdf, wav, zipBomb } from '../support/documents.js';
import type pg from 'pg';
import { ownerClient } from '../support/database.js';
import { startTestService, type TestService } from '../support/service.js';
import { callAs, settledMaterial } from './support.js';

/**
 * Material as bytes, end to end through the real server, the material
 * worker and PostgreSQL: declare by hash, PUT to the signed URL, wait for the
 * worker, read the extraction.
 */
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
const settled = (id: string) => settledMaterial(ts, ts.tenant.keys.test, id);
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

async function declare(bytes: Buffer, kind: string, mediaType: string, extra: Record<string, unknown> = {}): Promise<MaterialOut> {
  const r = await call('POST', '/v1/material', {
    kind,
    media_type: mediaType,
    purpose: 'fraud_prevention',
    sha256: sha(bytes),
    size_bytes: bytes.length,
    ...extra,
  });
  expect(r.status).toBe(201);
  return MaterialOut.parse(r.body);
}

async function put(url: string, bytes: Buffer): Promise<{ status: number; body: any }> {
  const res = await fetch(url, { method: 'PUT', headers: { 'content-type': 'application/octet-stream' }, body: bytes });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

async function upload(bytes: Buffer, kind: string, mediaType: string, extra: Record<string, unknown> = {}) {
  const declared = await declare(bytes, kind, mediaType, extra);
  const r = await put(declared.upload!.url, bytes);
  expect(r.status).toBe(200);
  expect(MaterialOut.parse(r.body).status).toBe('received');
  const out = await settled(declared.material_id);
  const extraction = ExtractionOut.parse((await call('GET', `/v1/material/${declared.material_id}/extraction`)).body);
  return { declared, out, extraction };
}

const chunkRows = async (hash: string) =>
  Number((await owner.query('SELECT count(*) AS n FROM material_bytes WHERE sha256 = $1', [hash])).rows[0].n);

describe('material bytes: extraction', () => {
  it('a one-page PDF comes back extracted with its email and phone bound to the page, and its author as a claim', async () => {
    const bytes = pdf(['Please write to jane.doe@example.org or call +44 20 7183 8750.'], { author: 'Jane Doe' });
    const { out, extraction } = await upload(bytes, 'document', 'application/pdf');
    expect(out).toMatchObject({ status: 'extracted', failure_reason: null, derivation: { bytes_stored: true } });
    expect(extraction.items.map((i) => [i.type, i.value, i.binding.locator_kind, i.binding.locator.page ?? null])).toEqual([
      ['EMAIL', 'jane.doe@example.org', 'document', 1],
      ['PHONE', '+442071838750', 'document', 1],
      ['document_author', 'Jane Doe', 'structured', null],
    ]);
    expect(extraction.items[2]!.binding.target_kind).toBe('claim');
    expect(await chunkRows(sha(bytes))).toBe(1);
  });

  it('a scanned PNG of the same text comes back extracted by OCR, each identifier bound to its line region', async () => {
    const bytes = readFileSync(new URL('../fixtures/scan-contact.png', import.meta.url));
    const { out, extraction } = await upload(bytes, 'image', 'image/png');
    expect(out.status).toBe('extracted');
    const found = extraction.items.filter((i) => i.binding.target_kind === 'artifact');
    expect(found.map((i) => [i.type, i.value])).toEqual([
      ['EMAIL', 'jane.doe@example.org'],
      ['PHONE', '+442071838750'],
    ]);
    for (const i of found) {
      expect(i.binding.locator_kind).toBe('image');
      expect(i.binding.locator).toMatchObject({
        page: 1,
        x: expect.any(Number),
        y: expect.any(Number),
        w: expect.any(Number),
        h: expect.any(Number),
      });
      expect(i.binding.confidence).toBeGreaterThan(0.5);
    }
  });

  it('a DOCX binds each identifier to its paragraph, and finds an IP that ends a sentence', async () => {
    const bytes = await docx(['Incident note', 'The login came from 203.0.113.9.', 'Reply to ops@example.org']);
    const { extraction } = await upload(bytes, 'document', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document');
    expect(extraction.items.map((i) => [i.type, i.value, i.binding.locator.paragraph])).toEqual([
      ['IP', '203.0.113.9', 2],
      ['EMAIL', 'ops@example.org', 3],
    ]);
  });

  it("a DOCX's author, last editor and writing application come back as claims (entities decoded); a document without properties claims nothing", async () => {
    const bytes = await docx(['Statement of account'], {
      creator: 'Jane Doe & Co',
      lastModifiedBy: 'M. Ruiz',
      application: 'Microsoft Office Word',
    });
    const { extraction } = await upload(bytes, 'document', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document');
    expect(
      extraction.items.filter((i) => i.binding.target_kind === 'claim').map((i) => [i.type, i.value, i.binding.locator.field]),
    ).toEqual([
      ['document_author', 'Jane Doe & Co', 'dc:creator'],
      ['document_last_editor', 'M. Ruiz', 'cp:lastModifiedBy'],
      ['document_tool', 'Microsoft Office Word', 'Application'],
    ]);
    const bare = await upload(
      await docx(['No properties here']),
      'document',
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    );
    expect(bare.extraction.items.filter((i) => i.binding.target_kind === 'claim')).toEqual([]);
  });

  it('an audio recording (with its consent_ref) comes back with its duration, creation time, device and author as claims', async () => {
    const bytes = wav(2, { artist: 'Jane Doe', software: 'Field Recorder 2', created: '2026-11-20' });
    const { out, extraction } = await upload(bytes, 'audio', 'audio/wav', { consent_ref: 'consent-2026-11-20-1' });
    expect(out.status).toBe('extracted');
    expect(extraction.items.map((i) => [i.type, i.value, i.binding.target_kind])).toEqual([
      ['media_duration_ms', '2000', 'claim'],
      ['capture_time', '2026-11-20', 'claim'],
      ['capture_device', 'Field Recorder 2', 'claim'],
      ['document_author', 'Jane Doe', 'claim'],
    ]);
  });

  it('a video (MP4, with its consent_ref) comes back with its duration, creation time and encoder as claims', async () => {
    const bytes = mp4(7, { created: '2026-05-04T10:20:30Z', tool: 'Lavf60.3.100' });
    const { out, extraction } = await upload(bytes, 'video', 'video/mp4', { consent_ref: 'consent-2026-05-04-2' });
    expect(out.status).toBe('extracted');
    expect(extraction.items.map((i) => [i.type, i.value, i.binding.target_kind])).toEqual([
      ['media_duration_ms', '7000', 'claim'],
      ['capture_time', '2026-05-04T10:20:30.000Z', 'claim'],
      ['capture_device', 'Lavf60.3.100', 'claim'],
    ]);
  });

  it('transient material is extracted and then its bytes are gone from storage (D35)', async () => {
    const bytes = pdf(['transient contact: gone.after@example.org']);
    const { out, extraction } = await upload(bytes, 'document', 'application/pdf', { retention_mode: 'transient' });
    expect(out).toMatchObject({ status: 'extracted', derivation: { bytes_stored: false } });
    expect(extraction.items.map((i) => i.value)).toEqual(['gone.after@example.org']);
    expect(await chunkRows(sha(bytes))).toBe(0);
  });
});

describe('material bytes: bad files end as failed with a reason, and the worker goes on', () => {
  it.each<[string, () => Promise<Buffer> | Buffer, string, string, string]>([
    ['an encrypted PDF', () => pdf(['secret jane@example.org'], { encrypted: true }), 'document', 'application/pdf', 'encrypted'],
    ['a corrupted PDF', () => Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog broken'), 'document', 'application/pdf', 'corrupt'],
    [
      'a 10,000-page PDF',
      () => pdf(Array.from({ length: 10_000 }, (_, i) => `page ${i}`)),
      'document',
      'application/pdf',
      'too_many_pages',
    ],
    [
      'a decompression bomb declared as DOCX',
      () => zipBomb(30),
      'document',
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      'too_large',
    ],
    [
      'a PDF declared as a PNG (bytes that disagree with the type)',
      () => pdf(['x@example.org']),
      'image',
      'image/png',
      'media_type_mismatch',
    ],
    ['a type no extractor reads', () => Buffer.from('BINARY\u0000DATA'), 'document', 'application/x-unknown', 'unsupported_media_type'],
  ])('%s', async (_name, make, kind, mediaType, reason) => {
    const bytes = await make();
    const declared = await declare(bytes, kind, mediaType);
    expect((await put(declared.upload!.url, bytes)).status).toBe(200);
    const out = await settled(declared.material_id);
    expect(out).toMatchObject({ status: 'failed', failure_reason: reason });
    const extraction = ExtractionOut.parse((await call('GET', `/v1/material/${declared.material_id}/extraction`)).body);
    expect(extraction.items).toEqual([]);
  });

  it('after the bad files, a good one is still extracted', async () => {
    const { out } = await upload(pdf(['after: still.working@example.org']), 'document', 'application/pdf');
    expect(out.status).toBe('extracted');
  });
});

describe('material bytes: the signed URL', () => {
  it('refuses bytes whose hash differs, keeps nothing of them, and still takes the right bytes afterwards', async () => {
    const bytes = pdf(['right bytes right.bytes@example.org']);
    const declared = await declare(bytes, 'document', 'application/pdf');
    const wrong = Buffer.from(bytes);
    wrong[wrong.length - 10] = (wrong[wrong.length - 10] ?? 0) ^ 0xff;
    const refused = await put(declared.upload!.url, wrong);
    expect(refused.status).toBe(422);
    expect(refused.body.detail).toEqual([expect.objectContaining({ loc: ['body'], type: 'sha256_mismatch' })]);
    expect(await chunkRows(sha(bytes))).toBe(0);
    expect(MaterialOut.parse((await call('GET', `/v1/material/${declared.material_id}`)).body).status).toBe('awaiting_upload');
    expect((await put(declared.upload!.url, bytes)).status).toBe(200);
  });

  it('refuses a body longer or shorter than declared, with 422 naming the size', async () => {
    const bytes = pdf(['size check size@example.org']);
    const declared = await declare(bytes, 'document', 'application/pdf');
    for (const body of [Buffer.concat([bytes, Buffer.from('extra')]), bytes.subarray(0, bytes.length - 1)]) {
      const r = await put(declared.upload!.url, body);
      expect(r.status).toBe(422);
      expect(r.body.detail[0].type).toBe('size_bytes_mismatch');
    }
  });

  it('is single-use: a second PUT is 409 and changes nothing; with a wrong secret it is 403, not 409 (issue 40)', async () => {
    const bytes = pdf(['once once@example.org']);
    const declared = await declare(bytes, 'document', 'application/pdf');
    expect((await put(declared.upload!.url, bytes)).status).toBe(200);
    const again = await put(declared.upload!.url, bytes);
    expect(again.status).toBe(409);
    expect(again.body.type).toMatch(/conflict$/);
    const url = new URL(declared.upload!.url);
    url.searchParams.set('token', `${url.searchParams.get('token')!.slice(0, -4)}AAAA`);
    expect((await put(url.toString(), bytes)).status).toBe(403);
  });

  it('a wrong token is 403, a malformed one 404 (issue 40), and an expired URL is 410', async () => {
    const bytes = pdf(['token token@example.org']);
    const declared = await declare(bytes, 'document', 'application/pdf');
    const url = new URL(declared.upload!.url);
    const token = url.searchParams.get('token')!;
    url.searchParams.set('token', `${token.slice(0, -4)}AAAA`);
    expect((await put(url.toString(), bytes)).status).toBe(403);
    const secret = token.split('.')[2]!;
    for (const bad of ['nonsense', `${'-'.repeat(36)}.test.${secret}`, `${'0'.repeat(36)}.test.${secret}`]) {
      url.searchParams.set('token', bad);
      expect((await put(url.toString(), bytes)).status, bad.slice(0, 40)).toBe(404);
    }
    await owner.query("UPDATE material SET upload_expires_at = now() - interval '1 second' WHERE id = $1", [declared.material_id]);
    expect((await put(declared.upload!.url, bytes)).status).toBe(410);
  });

  it('streams a large upload through in bounded chunks (several 1 MiB rows), with backpressure, and takes it whole', async () => {
    const bytes = Buffer.alloc(5 * 1024 * 1024 + 123, 'a');
    const declared = await declare(bytes, 'text', 'text/plain');
    const status = await new Promise<number>((resolve, reject) => {
      const url = new URL(declared.upload!.url);
      const req = request(
        {
          host: url.hostname,
          port: url.port,
          path: `${url.pathname}${url.search}`,
          method: 'PUT',
          headers: { 'content-length': bytes.length },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      // Written in small pieces, as a slow client would.
      for (let at = 0; at < bytes.length; at += 64 * 1024) req.write(bytes.subarray(at, at + 64 * 1024));
      req.end();
    });
    expect(status).toBe(200);
    expect(await chunkRows(sha(bytes))).toBe(6);
    expect((await settled(declared.material_id)).status).toBe('extracted');
  });
});
