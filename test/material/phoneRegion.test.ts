import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExtractionOut, MaterialOut } from '../../src/material/schemas.js';
import { startTestService, type TestService } from '../support/service.js';
import { callAs, settledMaterial } from './support.js';

/**
 * National-format phone numbers in material (issue 14): read in the region
 * the material's subject claims, else the tenant's policy `default_region`,
 * for inline text and for uploaded bytes alike; with neither, only
 * international numbers are found.
 */
let ts: TestService;
beforeAll(async () => {
  ts = await startTestService();
});
afterAll(async () => {
  await ts?.stop();
});

const NATIONAL = 'Ring the office on 020 7946 0958 before noon.';
const AS_INTERNATIONAL = '+442079460958';

const call = (key: string, method: string, path: string, body?: unknown) => callAs(ts, key, method, path, body);
const settled = (key: string, id: string) => settledMaterial(ts, key, id);

async function phonesIn(key: string, materialId: string): Promise<string[]> {
  const ex = await call(key, 'GET', `/v1/material/${materialId}/extraction`);
  expect(ex.status).toBe(200);
  return ExtractionOut.parse(ex.body)
    .items.filter((i) => i.type === 'PHONE')
    .map((i) => i.value ?? '');
}

async function declareText(key: string, extra: Record<string, unknown> = {}): Promise<MaterialOut> {
  const r = await call(key, 'POST', '/v1/material', {
    kind: 'text',
    media_type: 'text/plain',
    purpose: 'fraud_prevention',
    text: NATIONAL,
    ...extra,
  });
  expect(r.status).toBe(201);
  return MaterialOut.parse(r.body);
}

describe('the region of national-format phone numbers in material', () => {
  it('given no country claimed and no tenant region, then a national number is not guessed into any country', async () => {
    const out = await declareText(ts.tenant.keys.test);
    expect(await phonesIn(ts.tenant.keys.test, out.material_id)).toEqual([]);
  });

  it("given the subject's claimed country, then the national number is read in it", async () => {
    const out = await declareText(ts.tenant.keys.test, {
      subject: { presentations: [{ type: 'EMAIL', value: 'jane.doe@example.com' }], claim: { country: 'GB' } },
    });
    expect(await phonesIn(ts.tenant.keys.test, out.material_id)).toEqual([AS_INTERNATIONAL]);
  });

  it("given the tenant's policy default_region, then inline text and uploaded bytes both read the national number in it", async () => {
    const tenant = await ts.provision(`region-${Date.now()}`, true);
    const publish = await call(tenant.keys.live_admin, 'POST', '/v1/admin/policies', {
      allowed_purposes: ['fraud_prevention'],
      allowed_intents: ['pre_transaction'],
      render_ceiling: 'template',
      show_findings: true,
      default_region: 'GB',
      rules: [],
    });
    expect(publish.status).toBe(201);
    expect(publish.body.default_region).toBe('GB');

    const inline = await declareText(tenant.keys.live);
    expect(await phonesIn(tenant.keys.live, inline.material_id)).toEqual([AS_INTERNATIONAL]);

    const bytes = Buffer.from(NATIONAL, 'utf8');
    const declared = await call(tenant.keys.live, 'POST', '/v1/material', {
      kind: 'document',
      media_type: 'text/plain',
      purpose: 'fraud_prevention',
      sha256: createHash('sha256').update(bytes).digest('hex'),
      size_bytes: bytes.length,
    });
    expect(declared.status).toBe(201);
    const put = await fetch(declared.body.upload.url, {
      method: 'PUT',
      headers: { 'content-type': 'application/octet-stream' },
      body: bytes,
    });
    expect(put.status).toBeLessThan(300);
    expect((await settled(tenant.keys.live, declared.body.material_id)).status).toBe('extracted');
    expect(await phonesIn(tenant.keys.live, declared.body.material_id)).toEqual([AS_INTERNATIONAL]);
  });

  it('refuses a region that is not an upper-case country code, naming the field', async () => {
    const tenant = await ts.provision(`region-bad-${Date.now()}`, true);
    const publish = await call(tenant.keys.live_admin, 'POST', '/v1/admin/policies', {
      allowed_purposes: ['fraud_prevention'],
      allowed_intents: ['pre_transaction'],
      render_ceiling: 'template',
      show_findings: true,
      default_region: 'gb',
      rules: [],
    });
    expect(publish.status).toBe(422);
    expect(publish.body.detail[0].loc).toEqual(['body', 'default_region']);
  });
});
