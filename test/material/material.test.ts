import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExtractionOut, MaterialOut } from '../../src/material/schemas.js';
import { bearer, startTestService, type TestService } from '../support/service.js';

let ts: TestService;
beforeAll(async () => {
  ts = await startTestService({}, { workers: false });
});
afterAll(async () => ts?.stop());

const json = { 'content-type': 'application/json' };

async function call(method: string, path: string, key: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${ts.base}${path}`, {
    method,
    headers: { ...bearer(key), ...(body === undefined ? {} : json) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

function declare(text: string, extra: Record<string, unknown> = {}) {
  return call('POST', '/v1/material', ts.tenant.keys.test, {
    kind: 'text',
    media_type: 'text/plain',
    purpose: 'fraud_prevention',
    text,
    ...extra,
  });
}

function dump(): string {
  return execFileSync('pg_dump', ['--data-only', '--no-owner', ts.dbUrl], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
}

const EMAIL = 'Jane.Doe@Example.com';
const PHONE = '+44 20 7183 8750';
const TEXT = `Hello,\nplease write to ${EMAIL} or call ${PHONE} before Friday.`;

describe('material: inline text', () => {
  it('declaring text answers 201 extracted, and the extraction binds the email and the phone to their offsets', async () => {
    const created = await declare(TEXT);
    expect(created.status).toBe(201);
    const out = MaterialOut.parse(created.body);
    expect(out).toMatchObject({
      kind: 'text',
      status: 'extracted',
      retention_mode: 'standard',
      data_class: 'C1',
      upload: null,
      sha256: createHash('sha256').update(TEXT).digest('hex'),
      size_bytes: Buffer.byteLength(TEXT),
    });
    expect(out.derivation).toMatchObject({ items: 2, bytes_stored: true, outcomes_only: false });
    expect(out.material_id).toMatch(/^mat_/);

    const read = await call('GET', `/v1/material/${out.material_id}`, ts.tenant.keys.test);
    expect(read.status).toBe(200);
    expect(MaterialOut.parse(read.body)).toEqual(out);

    const ex = await call('GET', `/v1/material/${out.material_id}/extraction`, ts.tenant.keys.test);
    expect(ex.status).toBe(200);
    const extraction = ExtractionOut.parse(ex.body);
    expect(extraction).toMatchObject({ material_id: out.material_id, status: 'extracted', outcomes_only: false });
    expect(extraction.items.map((i) => [i.type, i.value])).toEqual([
      ['EMAIL', 'jane.doe@example.com'],
      ['PHONE', '+442071838750'],
    ]);
    const [email, phone] = extraction.items;
    const at = (s: string) => ({ start: TEXT.indexOf(s), end: TEXT.indexOf(s) + s.length });
    expect(email!.binding).toMatchObject({ target_kind: 'artifact', locator_kind: 'text', locator: at(EMAIL) });
    expect(phone!.binding).toMatchObject({ target_kind: 'artifact', locator_kind: 'text', locator: at(PHONE) });
    const { start, end } = phone!.binding.locator as { start: number; end: number };
    expect(TEXT.slice(start, end)).toBe(PHONE);
    for (const i of extraction.items) expect(i.binding.confidence).toBeGreaterThan(0);
  });

  it('types IBANs and crypto addresses in material, each checked by its own checksum', async () => {
    const text = 'Refund to GB82 WEST 1234 5698 7654 32, or in bitcoin to bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq.';
    const created = MaterialOut.parse((await declare(text)).body);
    const ex = ExtractionOut.parse((await call('GET', `/v1/material/${created.material_id}/extraction`, ts.tenant.keys.test)).body);
    expect(ex.items.map((i) => [i.type, i.value])).toEqual([
      ['IBAN', 'GB82WEST12345698765432'],
      ['CRYPTO_ADDRESS', 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq'],
    ]);
  });

  it('standard retention keeps the text by hash; transient keeps nothing of it, in no table and no log line (D35)', async () => {
    const kept = `kept-${randomBytes(12).toString('hex')}`;
    const standard = await declare(`note ${kept} from ops@example.org`);
    expect(standard.status).toBe(201);
    expect(dump().includes(kept)).toBe(true);

    const marker = `needle-${randomBytes(12).toString('hex')}`;
    const transient = await declare(`secret ${marker} mail ops@example.org`, { retention_mode: 'transient' });
    expect(transient.status).toBe(201);
    const out = MaterialOut.parse(transient.body);
    expect(out).toMatchObject({ retention_mode: 'transient', status: 'extracted', derivation: { bytes_stored: false, items: 1 } });
    const ex = ExtractionOut.parse((await call('GET', `/v1/material/${out.material_id}/extraction`, ts.tenant.keys.test)).body);
    expect(ex.items.map((i) => i.value)).toEqual(['ops@example.org']);

    expect(dump().includes(marker)).toBe(false);
    expect(ts.logs.join('\n').includes(marker)).toBe(false);
  });

  it('C2 material is extracted to outcomes only: fingerprints, no values, no stored text', async () => {
    const marker = `c2-${randomBytes(12).toString('hex')}`;
    const created = await declare(`${marker} ops@example.net`, { data_class: 'C2' });
    expect(created.status).toBe(201);
    const out = MaterialOut.parse(created.body);
    expect(out.derivation).toMatchObject({ outcomes_only: true, bytes_stored: false, items: 1 });
    const ex = ExtractionOut.parse((await call('GET', `/v1/material/${out.material_id}/extraction`, ts.tenant.keys.test)).body);
    expect(ex.outcomes_only).toBe(true);
    expect(ex.items).toHaveLength(1);
    expect(ex.items[0]).toMatchObject({ type: 'EMAIL', value: null, binding: { target_kind: 'fingerprint' } });
    expect(JSON.stringify(ex)).not.toContain('ops@example.net');
    expect(dump().includes(marker)).toBe(false);
  });

  it("another tenant's material, another mode's, and an unknown id are all 404", async () => {
    const created = await declare(TEXT);
    const id = created.body.material_id as string;
    const other = await ts.provision('material-other');
    for (const path of [`/v1/material/${id}`, `/v1/material/${id}/extraction`]) {
      expect((await call('GET', path, other.keys.test)).status).toBe(404);
      expect((await call('GET', path, ts.tenant.keys.live)).status).toBe(404);
    }
    const unknown = await call('GET', '/v1/material/mat_nope', ts.tenant.keys.test);
    expect(unknown.status).toBe(404);
    expect(unknown.body.type).toBe('urn:tas:problem:not-found');
    expect((await call('GET', '/v1/material/mat_nope/extraction', ts.tenant.keys.test)).status).toBe(404);
  });

  it('an unknown field is 422 extra_forbidden', async () => {
    const r = await declare(TEXT, { colour: 'blue' });
    expect(r.status).toBe(422);
    expect(r.body.detail).toContainEqual(expect.objectContaining({ loc: ['body', 'colour'], type: 'extra_forbidden' }));
  });

  it('declared bytes answer 201 awaiting_upload with a signed, expiring PUT URL on this service, shown only once', async () => {
    const r = await call('POST', '/v1/material', ts.tenant.keys.test, {
      kind: 'document',
      media_type: 'application/pdf',
      purpose: 'fraud_prevention',
      sha256: 'a'.repeat(64),
      size_bytes: 10,
    });
    expect(r.status).toBe(201);
    const out = MaterialOut.parse(r.body);
    expect(out).toMatchObject({
      status: 'awaiting_upload',
      sha256: 'a'.repeat(64),
      size_bytes: 10,
      derivation: { items: 0, bytes_stored: false },
    });
    expect(out.upload).toMatchObject({ method: 'PUT', headers: { 'Content-Type': 'application/pdf' } });
    expect(out.upload!.url.startsWith(`${ts.base}/v1/material/${out.material_id}/content?token=`)).toBe(true);
    expect(Date.parse(out.upload!.expires_at)).toBeGreaterThan(Date.now());
    const read = MaterialOut.parse((await call('GET', `/v1/material/${out.material_id}`, ts.tenant.keys.test)).body);
    expect(read.upload).toBeNull();
  });

  it('audio without consent_ref is refused by rule D36', async () => {
    const r = await call('POST', '/v1/material', ts.tenant.keys.test, {
      kind: 'audio',
      media_type: 'audio/ogg',
      purpose: 'fraud_prevention',
      sha256: 'a'.repeat(64),
      size_bytes: 10,
    });
    expect(r.status).toBe(422);
    expect(r.body.detail).toContainEqual(expect.objectContaining({ loc: ['body', 'consent_ref'], type: 'D36' }));
  });

  it('a purpose not granted to the tenant is refused with rule I13, and nothing is stored', async () => {
    const r = await declare('reach me at grant.check@example.org', { purpose: 'marketing' });
    expect(r.status).toBe(422);
    expect(r.body.detail).toEqual([expect.objectContaining({ loc: ['body', 'purpose'], type: 'I13' })]);
    expect(dump()).not.toContain('grant.check@example.org');
  });
});
