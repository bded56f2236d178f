import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MaterialOut } from '../../src/material/schemas.js';
import { docx } from '../support/documents.js';
import { startTestService, type TestService } from '../support/service.js';
import { callAs, settledMaterial } from './support.js';

/**
 * A document that needs more memory than the parser process may take, end to
 * end (issue 40): the parser is killed at its limit, the material ends
 * `failed` (`too_large`), and the service answers all along. The limit is set
 * low (TAS_PARSER_MEMORY_MB=128) so that a 100,000-paragraph DOCX, under a
 * megabyte on the wire, passes it; a small document still fits.
 */
const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
let ts: TestService;
beforeAll(async () => {
  ts = await startTestService({ TAS_PARSER_MEMORY_MB: '128' });
});
afterAll(async () => {
  await ts?.stop();
});

const call = (method: string, path: string, body?: unknown) => callAs(ts, ts.tenant.keys.test, method, path, body);

async function uploaded(bytes: Buffer): Promise<string> {
  const r = await call('POST', '/v1/material', {
    kind: 'document',
    media_type: DOCX,
    purpose: 'fraud_prevention',
    sha256: createHash('sha256').update(bytes).digest('hex'),
    size_bytes: bytes.length,
  });
  expect(r.status).toBe(201);
  const declared = MaterialOut.parse(r.body);
  const put = await fetch(declared.upload!.url, { method: 'PUT', headers: { 'content-type': 'application/octet-stream' }, body: bytes });
  expect(put.status).toBe(200);
  return declared.material_id;
}

describe('the parser process at its memory limit, through the service', () => {
  it('a document past the limit ends failed as too_large while the service answers; the next document is extracted', async () => {
    const paragraphs = Array.from(
      { length: 100_000 },
      (_, i) => `Paragraph ${i}: write to user${i}@example.org about case ${(i * 7919) % 100_003}.`,
    );
    const id = await uploaded(await docx(paragraphs));
    // While the parser grows towards its limit, the service's own calls are answered.
    const started = Date.now();
    const health = await fetch(`${ts.base}/healthz`);
    expect(health.status).toBe(200);
    expect(((await health.json()) as { ocr: string }).ocr).toBe('available');
    expect((await call('GET', `/v1/material/${id}`)).status).toBe(200);
    expect(Date.now() - started).toBeLessThan(5000);

    const out = await settledMaterial(ts, ts.tenant.keys.test, id);
    expect(out).toMatchObject({ status: 'failed', failure_reason: 'too_large' });

    const next = await uploaded(await docx(['Reply to still.working@example.org']));
    expect(await settledMaterial(ts, ts.tenant.keys.test, next)).toMatchObject({ status: 'extracted', failure_reason: null });
  }, 120_000);
});
