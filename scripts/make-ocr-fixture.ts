import { writeFileSync } from 'node:fs';
import { chromium } from 'playwright-core';

/**
 * Writes test/fixtures/scan-contact.png, the "scanned page" the OCR test
 * reads: a short letter set in a plain font, rendered by Debian's Chromium
 * and saved as a greyscale-looking PNG. Run by hand
 * (`npx tsx scripts/make-ocr-fixture.ts`) only when the fixture must change;
 * the PNG is committed so the tests need no browser to make it.
 */
const TEXT = ['Dear team,', 'please reply to jane.doe@example.org', 'or call +44 20 7183 8750 today.'];
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
});
const page = await browser.newPage({ viewport: { width: 900, height: 260 } });
await page.setContent(
  `<body style="margin:40px;background:#fff;color:#111;font:28px/1.5 'DejaVu Sans',sans-serif">${TEXT.map((l) => `<div>${l}</div>`).join('')}</body>`,
);
writeFileSync(new URL('../test/fixtures/scan-contact.png', import.meta.url), await page.screenshot({ type: 'png' }));
await browser.close();
