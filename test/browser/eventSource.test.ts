import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMAIL_AND_PHONE, inquire, json, providersFile, startProviderFixture, type ProviderFixture } from '../inquiries/support.js';
import { bearer, startTestService, type TestService } from '../support/service.js';

/**
 * A browser's own EventSource (headless Chromium) follows an inquiry's
 * revisions. It cannot send an Authorization header, so it authenticates
 * with a short-lived key in `access_token`.
 */
let ts: TestService;
let provider: ProviderFixture;
let browser: Browser;

beforeAll(async () => {
  provider = await startProviderFixture();
  ts = await startTestService({ TAS_PROVIDERS_FILE: providersFile(provider.url, 'Browser Test Provider', 5000) });
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
});
afterAll(async () => {
  await browser?.close();
  await ts?.stop();
  await provider?.close();
});

describe('browser EventSource', () => {
  it('receives AssessmentIssued, AssessmentRevised and InquiryConcluded with a short-lived key in access_token', async () => {
    provider.handler = (_req, res) => setTimeout(() => json(res, 200, { risk: 'low' }), 1000);
    const r = await inquire(ts, { ...EMAIL_AND_PHONE, stake: { ...EMAIL_AND_PHONE.stake, deadline_ms: 300 } });
    expect(r.body.status).toBe('preliminary');
    const mint = await fetch(`${ts.base}/v1/admin/keys`, {
      method: 'POST', headers: { ...bearer(ts.tenant.keys.test_admin), 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'browser page', scopes: ['inquiries'], mode: 'test', expires_at: new Date(Date.now() + 60_000).toISOString() }),
    });
    const key = ((await mint.json()) as { secret: string }).secret;
    const page = await browser.newPage();
    await page.goto(`${ts.base}/healthz`);
    const types = await page.evaluate(async ({ path, key: k }) => new Promise<string[]>((resolve, reject) => {
      const seen: string[] = [];
      const es = new EventSource(`${path}?access_token=${encodeURIComponent(k)}`);
      const timer = setTimeout(() => { es.close(); reject(new Error(`timed out after ${seen.join(',')}`)); }, 10_000);
      for (const t of ['AssessmentIssued', 'AssessmentRevised', 'InquiryConcluded']) {
        es.addEventListener(t, () => {
          seen.push(t);
          if (t === 'InquiryConcluded') { clearTimeout(timer); es.close(); resolve(seen); }
        });
      }
    }), { path: `/v1/inquiries/${r.body.inquiry_id}/events`, key });
    expect(types).toEqual(['AssessmentIssued', 'AssessmentRevised', 'InquiryConcluded']);
  });

  it('a wrong access_token is refused with 401', async () => {
    const res = await fetch(`${ts.base}/v1/inquiries/0b0e0d2c-95a4-4d7c-9a53-4b7ad0c0ffee/events?access_token=tas_test_nope`);
    expect(res.status).toBe(401);
  });
});
