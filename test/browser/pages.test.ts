import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/service.js';

/**
 * The pages a newcomer opens first (issue 38), in Chromium: each answers, and
 * none logs an error in the browser's console (a missing favicon included).
 */
let ts: TestService;
let browser: Browser;

beforeAll(async () => {
  ts = await startTestService({}, { workers: false });
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
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await ts?.stop();
});

describe('the first pages', () => {
  it.each(['/', '/docs', '/console', '/examples/session'])('%s answers and logs no error in the browser', async (path) => {
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console: ${message.text()}`);
    });
    page.on('requestfailed', (request) => problems.push(`failed: ${request.url()}`));
    page.on('response', (response) => {
      if (response.status() >= 400) problems.push(`${response.status()}: ${response.url()}`);
    });
    const response = await page.goto(`${ts.base}${path}`, { waitUntil: 'networkidle' });
    expect(response?.status()).toBe(200);
    expect(problems).toEqual([]);
    await page.close();
  });

  it.each([1280, 375])('/ does not scroll sideways at %i px: the first inquiry wraps', async (width) => {
    const page = await browser.newPage({ viewport: { width, height: 800 } });
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    await page.goto(`${ts.base}/`);
    // The page's own globals, typed here: the tests compile without the DOM library.
    const { scrollWidth, clientWidth } = await page.evaluate(() => {
      const root = (globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }).document
        .documentElement;
      return { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth };
    });
    expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
    const whiteSpace = await page
      .locator('pre')
      .evaluate(
        (pre) => (globalThis as unknown as { getComputedStyle(e: unknown): { whiteSpace: string } }).getComputedStyle(pre).whiteSpace,
      );
    expect(whiteSpace).toBe('pre-wrap');
    await page.screenshot({ path: `/tmp/tas-index-${width}.png`, fullPage: true });
    // The inline style is allowed by its hash: no Content-Security-Policy refusal.
    expect(problems).toEqual([]);
    await page.close();
  });

  it('the session page says a phone number without a country code needs claim.country or the policy default_region', async () => {
    const page = await browser.newPage();
    await page.goto(`${ts.base}/examples/session`);
    const hint = await page.locator('#phoneHint').innerText();
    expect(hint).toContain('claim.country');
    expect(hint).toContain("policy's default_region");
    await page.screenshot({ path: '/tmp/tas-session-page.png', fullPage: true });
    await page.close();
  });

  it('/ links every page it names, and each link answers', async () => {
    const page = await browser.newPage();
    await page.goto(`${ts.base}/`);
    const hrefs = await page.locator('a').evaluateAll((links) => links.map((a) => a.getAttribute('href')));
    expect(hrefs).toEqual(expect.arrayContaining(['/docs', '/console', '/examples/session', '/healthz', '/v1/registry/purposes']));
    for (const href of hrefs.filter((h): h is string => h !== null && !h.startsWith('/v1/')))
      expect((await fetch(`${ts.base}${href}`)).status, href).toBe(200);
    // The registry listings need a key: without one, the problem document says so.
    expect((await fetch(`${ts.base}/v1/registry/purposes`)).status).toBe(401);
    await page.close();
  });
});
