import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type pg from 'pg';
import { createMaterialExtraction } from '../../src/material/extraction.js';
import { sweepMaterial } from '../../src/material/retention.js';
import type { MaterialJob } from '../../src/material/extraction.js';
import { MaterialOut } from '../../src/material/schemas.js';
import { ownerClient } from '../support/database.js';
import { startTestService, type TestService } from '../support/service.js';
import { callAs } from './support.js';

/**
 * The material sweep (issue 14): an upload URL that expired unused leaves the
 * material `discarded`; bytes whose extraction job was lost are queued again,
 * and transient bytes are gone from storage once that extraction ends. No
 * worker runs in this service, so nothing extracts behind the test's back.
 */
let ts: TestService;
let owner: pg.Client;
beforeAll(async () => {
  ts = await startTestService({}, { workers: false });
  owner = await ownerClient(ts.dbUrl);
});
afterAll(async () => {
  await owner?.end();
  await ts?.stop();
});

const TEXT = Buffer.from('Write to jane.doe@example.com about the parcel.', 'utf8');
const sha = createHash('sha256').update(TEXT).digest('hex');

const call = (method: string, path: string, body?: unknown) => callAs(ts, ts.tenant.keys.test, method, path, body);

async function declare(extra: Record<string, unknown> = {}): Promise<{ id: string; url: string }> {
  const r = await call('POST', '/v1/material', {
    kind: 'document',
    media_type: 'text/plain',
    purpose: 'fraud_prevention',
    sha256: sha,
    size_bytes: TEXT.length,
    ...extra,
  });
  expect(r.status).toBe(201);
  return { id: r.body.material_id, url: r.body.upload.url };
}

const chunksStored = async () => Number((await owner.query('SELECT count(*) AS n FROM material_bytes WHERE sha256 = $1', [sha])).rows[0].n);

describe('the material sweep', () => {
  it('discards a declaration whose upload URL expired unused, and a late upload is still refused as gone', async () => {
    const { id, url } = await declare();
    const none = () => Promise.resolve();
    expect((await sweepMaterial(ts.service.db, none)).discarded).toBe(0);
    await owner.query("UPDATE material SET upload_expires_at = now() - interval '1 second' WHERE id = $1", [id]);
    expect((await sweepMaterial(ts.service.db, none)).discarded).toBe(1);
    expect(MaterialOut.parse((await call('GET', `/v1/material/${id}`)).body).status).toBe('discarded');
    const late = await fetch(url, { method: 'PUT', headers: { 'content-type': 'application/octet-stream' }, body: TEXT });
    expect(late.status).toBe(410);
    expect((await sweepMaterial(ts.service.db, none)).discarded).toBe(0);
  });

  it('queues again the extraction of transient bytes whose job was lost, and the bytes are gone once it ends', async () => {
    const { id, url } = await declare({ retention_mode: 'transient' });
    const put = await fetch(url, { method: 'PUT', headers: { 'content-type': 'application/octet-stream' }, body: TEXT });
    expect(put.status).toBe(200);
    expect(await chunksStored()).toBeGreaterThan(0);
    // The job the upload queued is lost, as with a Redis that lost its data.
    const queue = ts.service.core.queues.queue('material');
    await (await queue.getJob(id))?.remove();
    expect(await queue.getJob(id)).toBeUndefined();

    const queued: MaterialJob[] = [];
    const collect = (job: MaterialJob) => Promise.resolve(void queued.push(job));
    expect((await sweepMaterial(ts.service.db, collect)).requeued).toBe(0);
    expect((await sweepMaterial(ts.service.db, collect, 0)).requeued).toBeGreaterThanOrEqual(1);
    const job = queued.find((j) => j.materialId === id);
    expect(job).toEqual({ materialId: id, tenantId: ts.tenant.tenant_id, mode: 'test' });

    // The real sweep puts the job back on the queue; the extraction a worker would run then deletes the bytes.
    await sweepMaterial(ts.service.db, (j) => ts.service.core.enqueueMaterialExtraction(j), 0);
    expect((await queue.getJob(id))?.data).toEqual(job);
    await createMaterialExtraction({ db: ts.service.db }).extract(job!);
    expect(MaterialOut.parse((await call('GET', `/v1/material/${id}`)).body)).toMatchObject({
      status: 'extracted',
      derivation: { bytes_stored: false },
    });
    expect(await chunksStored()).toBe(0);
  });
});
