import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/service.js';
import { OPEN_BODY, openSession } from './support.js';

/**
 * The example page in a real browser (Debian's Chromium, headless): it opens
 * a session with an API key or connects with a token a backend opened,
 * streams typed lines over the WebSocket, and shows the assessment as it is
 * revised. The test reads the score from the page as a person would.
 */
let ts: TestService;
let browser: Browser;

// The functions given to waitForFunction run in the page; this project compiles without the DOM library.
declare const document: { getElementById(id: string): { dataset: Record<string, string | undefined>; textContent: string | null } | null };

beforeAll(async () => {
  ts = await startTestService();
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
});

async function typeLine(page: Page, line: string): Promise<void> {
  await page.fill('#line', line);
  await page.press('#line', 'Enter');
}

/** Waits for the page to show an assessment other than `previousId`, and returns its score as displayed. */
async function nextScore(page: Page, previousId: string): Promise<{ id: string; score: number }> {
  await page.waitForFunction(
    (prev) => {
      const id = document.getElementById('score')?.dataset.assessmentId ?? '';
      return id !== '' && id !== prev;
    },
    previousId,
    { timeout: 10_000 },
  );
  const id = (await page.getAttribute('#score', 'data-assessment-id')) ?? '';
  return { id, score: Number(await page.textContent('#score')) };
}

describe('the session example page', () => {
  it('is served openly, with a policy that forbids inline script', async () => {
    const res = await fetch(`${ts.base}/examples/session`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(res.headers.get('x-service-audit-id')).toBeTruthy();
    expect((await fetch(`${ts.base}/examples/session.js`)).status).toBe(200);
  });

  it('opens a session with an API key, streams lines and shows the score as it is revised', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    await page.goto(`${ts.base}/examples/session`);
    await page.fill('#apiKey', ts.tenant.keys.test);
    await page.fill('#country', 'GB');
    await page.click('#open');
    await page.waitForSelector('#line:not([disabled])');
    // The claimed country is sent as the first frame, and issues the first assessment.
    const claimed = await nextScore(page, '');

    await typeLine(page, "Hi, I'm jane.doe@gmail.com, call me on +44 20 7946 0958");
    const first = await nextScore(page, claimed.id);
    expect(first.score).toBeGreaterThanOrEqual(0);
    expect(first.score).toBeLessThanOrEqual(100);
    await expect.poll(() => page.locator('#transcript mark').allTextContents()).toEqual(['jane.doe@gmail.com', '+44 20 7946 0958']);
    await expect.poll(() => page.locator('#findings li').count()).toBeGreaterThan(0);

    // A number from another country than the one claimed: the page shows the revision.
    await typeLine(page, 'or my US line +1 212 555 0100');
    const second = await nextScore(page, first.id);
    expect(second.score).toBeLessThan(first.score);
    expect(await page.textContent('#interval')).toMatch(/^interval \d+–\d+$/);

    await page.click('#close');
    await page.waitForFunction(() => document.getElementById('state')?.textContent?.startsWith('Closed'));
    expect(await page.textContent('#state')).toContain(`Final score ${second.score}`);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('connects with a token a backend opened, without ever seeing an API key', async () => {
    const opened = await openSession(ts, { ...OPEN_BODY, subject: { presentations: [{ type: 'EMAIL', value: 'kofi@example.org' }] } });
    const page = await browser.newPage();
    await page.goto(`${ts.base}/examples/session`);
    await page.fill('#token', opened.body.token);
    await page.fill('#wsUrl', opened.body.ws_url);
    await page.click('#useToken');
    // The assessment issued at opening is replayed as the socket attaches.
    const shown = await nextScore(page, '');
    expect(shown.score).toEqual(expect.any(Number));
    await page.close();
  });
});
