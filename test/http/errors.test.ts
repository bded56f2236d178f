import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestService, type TestService } from '../support/service.js';
import { Problem } from '../../src/schemas/errors.js';

let ts: TestService;
beforeAll(async () => {
  ts = await startTestService({ TAS_RATE_LIMIT_PER_SEC: '20', TAS_MAX_BODY_BYTES: '4096' }, { workers: false });
});
afterAll(async () => ts?.stop());

const json = { 'content-type': 'application/json' };

async function problem(res: Response): Promise<any> {
  expect(res.headers.get('content-type')).toBe('application/problem+json');
  const body = (await res.json()) as any;
  expect(body.audit_id).toBe(res.headers.get('x-service-audit-id'));
  expect(body.status).toBe(res.status);
  // Every member sent is one the published (closed) Problem schema documents.
  Problem.parse(body);
  return body;
}

describe('errors in the contract shapes', () => {
  it('an unknown path is a 404 problem', async () => {
    const res = await fetch(`${ts.base}/v1/nothing-here`, { headers: bearer(ts.tenant.keys.test) });
    expect(res.status).toBe(404);
    expect((await problem(res)).type).toBe('urn:tas:problem:not-found');
  });

  it('a wrong method is a 405 problem with Allow', async () => {
    const res = await fetch(`${ts.base}/v1/inquiries`, { method: 'DELETE', headers: bearer(ts.tenant.keys.test) });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
    await problem(res);
  });

  it('a body over the limit is a 413 problem, declared or streamed', async () => {
    const big = JSON.stringify({ pad: 'x'.repeat(10_000) });
    const res = await fetch(`${ts.base}/v1/observations`, {
      method: 'POST',
      headers: { ...bearer(ts.tenant.keys.test), ...json },
      body: big,
    });
    expect(res.status).toBe(413);
    await problem(res);
  });

  it('a body that is not JSON by content type is a 415 problem', async () => {
    const res = await fetch(`${ts.base}/v1/observations`, {
      method: 'POST',
      headers: { ...bearer(ts.tenant.keys.test), 'content-type': 'text/plain' },
      body: 'hello',
    });
    expect(res.status).toBe(415);
    await problem(res);
  });

  it.each([
    ['broken JSON', '{"subject":', 'json_invalid', ['body']],
    ['an empty body', '', 'missing', ['body']],
  ])('%s is a 422 naming the body', async (_l, body, type, loc) => {
    const res = await fetch(`${ts.base}/v1/observations`, { method: 'POST', headers: { ...bearer(ts.tenant.keys.test), ...json }, body });
    expect(res.status).toBe(422);
    expect(((await res.json()) as any).detail[0]).toMatchObject({ type, loc });
  });

  it('a missing field is a 422 that names it and never echoes input', async () => {
    const secretish = 'value-that-must-not-echo@example.com';
    const res = await fetch(`${ts.base}/v1/inquiries`, {
      method: 'POST',
      headers: { ...bearer(ts.tenant.keys.test), ...json },
      body: JSON.stringify({ subject: { presentations: [{ type: 'EMAIL', value: secretish }] }, intent: 42, stake: { kind: 'payment' } }),
    });
    expect(res.status).toBe(422);
    const text = await res.text();
    expect(text).not.toContain(secretish);
    const detail = JSON.parse(text).detail as { loc: unknown[]; type: string }[];
    // A missing purpose reads as the rule it breaks (I13); the malformed intent as I14.
    expect(detail).toContainEqual(expect.objectContaining({ loc: ['body', 'purpose'], type: 'I13' }));
    expect(detail).toContainEqual(expect.objectContaining({ loc: ['body', 'intent'], type: 'I14' }));
  });

  it('a path id that must be a uuid is checked', async () => {
    const res = await fetch(`${ts.base}/v1/entities/not-a-uuid`, { headers: bearer(ts.tenant.keys.test) });
    expect(res.status).toBe(422);
    expect(((await res.json()) as any).detail[0]).toMatchObject({ loc: ['path', 'entity_id'], type: 'uuid_parsing' });
  });

  it('a malformed key is refused before any look-up, with an invalid_token challenge', async () => {
    const res = await fetch(`${ts.base}/v1/health`, { headers: bearer('tas_live_notakey') });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toContain('invalid_token');
    await problem(res);
  });

  it('over the per-key rate limit: 429 with Retry-After', async () => {
    const { keys } = await ts.provision('ratelimited');
    const statuses = await Promise.all(
      Array.from({ length: 60 }, () =>
        fetch(`${ts.base}/v1/health`, { headers: bearer(keys.test) }).then(async (r) => {
          if (r.status === 429) {
            expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
            await problem(r);
          } else await r.arrayBuffer();
          return r.status;
        }),
      ),
    );
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThan(0);
  });

  it('/healthz is open and says nothing about tenants', async () => {
    const res = await fetch(`${ts.base}/healthz`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as any;
    expect(body).toMatchObject({ database: 'reachable', redis: 'reachable', openapi: true });
    expect(JSON.stringify(body)).not.toContain(ts.tenant.tenant_id);
  });
});
