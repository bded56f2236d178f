import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMAIL_AND_PHONE, inquire, json, providersFile, startProviderFixture, type ProviderFixture } from '../inquiries/support.js';
import { bearer, startTestService, type TestService } from '../support/service.js';

/**
 * A browser's own EventSource (headless Chromium) follows an inquiry's
 * revisions. It cannot send an Authorization header, so it opens the
 * stream with a one-time ticket its backend minted (issue 40); a key in the
 * URL (`access_token`) is refused.
 */
let ts: TestService;
let provider: ProviderFixture;
let browser: Browser;

beforeAll(async () => {
  provider = await startProviderFixture();
  ts = await startTestService({ TAS_PROVIDERS_FILE: providersFile(provider.url, 'Browser Test Provider', 5000) });
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
});
afterAll(async () => {
  await browser?.close();
  await ts?.stop();
  await provider?.close();
});

describe('browser EventSource', () => {
  it('receives AssessmentIssued, AssessmentRevised and InquiryConcluded with a one-time stream ticket (no key in the URL)', async () => {
    provider.handler = (_req, res) => setTimeout(() => json(res, 200, { risk: 'low' }), 1000);
    const r = await inquire(ts, { ...EMAIL_AND_PHONE, stake: { ...EMAIL_AND_PHONE.stake, deadline_ms: 300 } });
    expect(r.body.status).toBe('preliminary');
    // The page's backend mints the ticket with its key; the page sees only the ticket.
    const minted = await fetch(`${ts.base}/v1/inquiries/${r.body.inquiry_id}/events/tickets`, {
      method: 'POST',
      headers: bearer(ts.tenant.keys.test),
    });
    expect(minted.status).toBe(201);
    const { events_url: url } = (await minted.json()) as { events_url: string };
    const page = await browser.newPage();
    await page.goto(`${ts.base}/healthz`);
    const types = await page.evaluate(
      async ({ url: u }) =>
        new Promise<string[]>((resolve, reject) => {
          const seen: string[] = [];
          const es = new EventSource(u);
          const timer = setTimeout(() => {
            es.close();
            reject(new Error(`timed out after ${seen.join(',')}`));
          }, 10_000);
          for (const t of ['AssessmentIssued', 'AssessmentRevised', 'InquiryConcluded']) {
            es.addEventListener(t, () => {
              seen.push(t);
              if (t === 'InquiryConcluded') {
                clearTimeout(timer);
                es.close();
                resolve(seen);
              }
            });
          }
        }),
      { url },
    );
    expect(types).toEqual(['AssessmentIssued', 'AssessmentRevised', 'InquiryConcluded']);
  });

  it('a wrong ticket, and any key in access_token, are refused with 401', async () => {
    const wrong = await fetch(`${ts.base}/v1/inquiries/0b0e0d2c-95a4-4d7c-9a53-4b7ad0c0ffee/events?ticket=tst_nope`);
    expect(wrong.status).toBe(401);
    const key = await fetch(
      `${ts.base}/v1/inquiries/0b0e0d2c-95a4-4d7c-9a53-4b7ad0c0ffee/events?access_token=${encodeURIComponent(ts.tenant.keys.test)}`,
    );
    expect(key.status).toBe(401);
  });
});
