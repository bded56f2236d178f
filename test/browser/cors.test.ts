import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type pg from 'pg';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishPolicy } from '../support/policies.js';
import { EMAIL_AND_PHONE } from '../inquiries/support.js';
import { ownerClient } from '../support/database.js';
import { bearer, startTestService, type TestService } from '../support/service.js';

/**
 * A web app on another origin calls the API from real Chromium (issue 16):
 * with its origin in the tenant's policy (allowed_origins) it posts an
 * inquiry, reads the answer and the exposed headers, and follows a stream;
 * from an origin the policy does not list the browser cannot read anything
 * and the service refuses the call before it runs (403, rule O01).
 */
let ts: TestService;
let browser: Browser;
let owner: pg.Client;
const pages: Server[] = [];

/** A page server on its own port: another origin than the API. */
async function pageOrigin(): Promise<string> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<!doctype html><title>tenant app</title>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  pages.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

let allowed: string;
let other: string;

beforeAll(async () => {
  ts = await startTestService({}, { workers: false });
  owner = await ownerClient(ts.dbUrl);
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  [allowed, other] = [await pageOrigin(), await pageOrigin()];
  const policy = await publishPolicy(ts.base, ts.tenant.keys.test_admin, { allowed_origins: [allowed] });
  expect(policy.status).toBe(201);
});

afterAll(async () => {
  await browser?.close();
  await owner?.end();
  await ts?.stop();
  for (const s of pages) s.close();
});

/** Runs a cross-origin fetch of an inquiry from a page of `origin`: what the page could read, or the error it got. */
async function postFrom(origin: string, key: string) {
  const page = await browser.newPage();
  try {
    await page.goto(origin);
    return await page.evaluate(
      async ({ api, k, body }) => {
        try {
          const res = await fetch(`${api}/v1/inquiries`, {
            method: 'POST',
            headers: { authorization: `Bearer ${k}`, 'content-type': 'application/json' },
            body,
          });
          const json = (await res.json()) as { assessment?: { score?: number } };
          return {
            status: res.status,
            auditId: res.headers.get('x-service-audit-id'),
            rateLimit: res.headers.get('ratelimit'),
            score: json.assessment?.score,
            error: null,
          };
        } catch (error) {
          return { status: null, auditId: null, rateLimit: null, score: null, error: String(error) };
        }
      },
      { api: ts.base, k: key, body: JSON.stringify(EMAIL_AND_PHONE) },
    );
  } finally {
    await page.close();
  }
}

describe('a browser app on another origin', () => {
  it('given its origin in the policy, then it posts an inquiry and reads the answer and the exposed headers', async () => {
    const seen = await postFrom(allowed, ts.tenant.keys.test);
    expect(seen.error).toBeNull();
    expect(seen.status).toBe(200);
    expect(typeof seen.score).toBe('number');
    expect(seen.auditId).toMatch(/^[0-9a-f-]{36}$/);
    expect(seen.rateLimit).not.toBeNull();
  });

  it('given its origin in the policy, then it follows an event stream with a one-time ticket', async () => {
    const inquiry = await fetch(`${ts.base}/v1/inquiries`, {
      method: 'POST',
      headers: { ...bearer(ts.tenant.keys.test), 'content-type': 'application/json' },
      body: JSON.stringify(EMAIL_AND_PHONE),
    });
    const id = ((await inquiry.json()) as { inquiry_id: string }).inquiry_id;
    const minted = await fetch(`${ts.base}/v1/inquiries/${id}/events/tickets`, { method: 'POST', headers: bearer(ts.tenant.keys.test) });
    const { events_url: eventsUrl } = (await minted.json()) as { events_url: string };
    const page = await browser.newPage();
    await page.goto(allowed);
    const type = await page.evaluate(
      async ({ url }) =>
        new Promise<string>((resolve, reject) => {
          const es = new EventSource(url);
          const timer = setTimeout(() => {
            es.close();
            reject(new Error('no event'));
          }, 10_000);
          es.addEventListener('AssessmentIssued', () => {
            clearTimeout(timer);
            es.close();
            resolve('AssessmentIssued');
          });
          es.onerror = () => {
            clearTimeout(timer);
            es.close();
            reject(new Error('stream refused'));
          };
        }),
      { url: eventsUrl },
    );
    await page.close();
    expect(type).toBe('AssessmentIssued');
  });

  it('given an origin the policy does not list, then the page reads nothing and the call was refused before it ran (O01)', async () => {
    const before = await owner.query(`SELECT count(*)::int AS n FROM inquiries WHERE tenant_id = $1`, [ts.tenant.tenant_id]);
    const seen = await postFrom(other, ts.tenant.keys.test);
    expect(seen).toMatchObject({ status: null, score: null });
    expect(seen.error).toMatch(/TypeError/);
    const refused = await owner.query(
      `SELECT status, rule FROM audit_log WHERE tenant_id = $1 AND action = 'createInquiry' ORDER BY seq DESC LIMIT 1`,
      [ts.tenant.tenant_id],
    );
    expect(refused.rows[0]).toEqual({ status: 403, rule: 'O01' });
    const after = await owner.query(`SELECT count(*)::int AS n FROM inquiries WHERE tenant_id = $1`, [ts.tenant.tenant_id]);
    expect(after.rows[0].n).toBe(before.rows[0].n);
  });

  it('answers a preflight with the methods of the path and the headers it reads, and open operations to anyone', async () => {
    const preflight = await fetch(`${ts.base}/v1/inquiries`, {
      method: 'OPTIONS',
      headers: { origin: other, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(other);
    expect(preflight.headers.get('access-control-allow-methods')).toBe('POST, OPTIONS');
    expect(preflight.headers.get('access-control-allow-headers')).toMatch(/Authorization/);
    const open = await fetch(`${ts.base}/healthz`, { headers: { origin: other } });
    expect(open.headers.get('access-control-allow-origin')).toBe('*');
    const plain = await fetch(`${ts.base}/v1/health`, { method: 'OPTIONS' });
    expect([plain.status, plain.headers.get('allow')]).toEqual([204, 'GET, HEAD, OPTIONS']);
  });
});
