import { mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestService, type TestService } from '../support/service.js';

/**
 * The investigator's console (issue 17) driven in real Chromium through a
 * whole case: key held in memory, open, member, assertion, material and its
 * extraction, a gated expansion and the choice of a candidate, the graph,
 * the ledger, a hold lifted, sign-off and the export's download. The graph's
 * screenshot is kept as an artefact of the run (test-artifacts/).
 */
let ts: TestService;
let browser: Browser;
const ARTEFACTS = join(process.cwd(), 'test-artifacts');
const phone = '+44 20 7946 0555';

beforeAll(async () => {
  ts = await startTestService();
  // Two entities of the tenant already carry the phone the expansion's seed will present.
  for (const email of ['ring.one@example.org', 'ring.two@example.org']) {
    const res = await fetch(`${ts.base}/v1/inquiries`, {
      method: 'POST',
      headers: { ...bearer(ts.tenant.keys.live), 'content-type': 'application/json' },
      body: JSON.stringify({
        subject: {
          presentations: [
            { type: 'EMAIL', value: email },
            { type: 'PHONE', value: phone },
          ],
        },
        intent: 'investigation',
        purpose: 'investigation',
        stake: { kind: 'other' },
      }),
    });
    expect(res.status).toBe(200);
  }
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

async function submitAndSee(page: Page, form: string, status: string | RegExp): Promise<void> {
  await page.locator(`${form} button[type="submit"]`).click();
  await page.locator('#status').filter({ hasText: status }).waitFor({ timeout: 30_000 });
}

describe("the investigator's console", () => {
  it('walks a whole case in Chromium: open, members in and out, assert, material as text and as a file, gated expansion, graph, ledger, hold, sign-off, export, close', async () => {
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console: ${message.text()}`);
    });
    const response = await page.goto(`${ts.base}/console`);
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");

    await page.fill('#key-input', ts.tenant.keys.live);
    await submitAndSee(page, '#key-form', 'Key held in memory');
    expect(await page.inputValue('#key-input')).toBe('');

    // The form's default budget is the API's (DEFAULT_CASE_BUDGET).
    expect(await page.inputValue('#open-budget')).toBe('1000');
    // A title with markup is shown as text, never as markup.
    await page.fill('#open-title', '<b>Mule ring</b>');
    await page.fill('#open-auth-ref', 'CO-2026-77');
    await page.fill('#open-auth-issuer', 'District Court');
    await submitAndSee(page, '#open-form', /Case .* opened/);
    expect(await page.textContent('#case-title')).toBe('<b>Mule ring</b>');
    expect(await page.locator('#case-title b').count()).toBe(0);

    await page.fill('#member-principal', 'analyst-7');
    await submitAndSee(page, '#member-form', 'Member added');
    await expect.poll(() => page.textContent('#case-facts')).toContain('analyst-7 (analyst)');
    await page.fill('#member-principal', 'observer-2');
    await page.selectOption('#member-role', 'observer');
    await submitAndSee(page, '#member-form', 'Member added');
    await page.click('#member-list button[data-principal="observer-2"]');
    await page.locator('#status').filter({ hasText: 'Member observer-2 removed' }).waitFor();
    await expect.poll(() => page.textContent('#case-facts')).not.toContain('observer-2');

    await page.fill('#assert-value', 'ring.three@example.org');
    await page.fill('#assert-statement', 'Seen opening mule accounts');
    await submitAndSee(page, '#assert-form', 'Assertion recorded');

    await page.fill('#material-text', 'Ask ring.three@example.org or call +44 20 7946 0555.');
    await submitAndSee(page, '#material-form', /Material extracted: [1-9]/);
    expect(await page.locator('#material-items li').count()).toBeGreaterThan(0);
    // A file goes as bytes: declared by its hash, PUT to the signed URL, extracted by the worker.
    await page.fill('#material-text', '');
    await page.setInputFiles('#material-file', {
      name: 'note.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('Forward it to file.upload@example.org today.'),
    });
    await submitAndSee(page, '#material-form', /Material extracted: 1 item/);
    expect(await page.textContent('#material-items')).toContain('EMAIL: file.upload@example.org');

    await page.fill('#expand-value', 'ring.three@example.org');
    await page.selectOption('#expand-type2', 'PHONE');
    await page.fill('#expand-value2', phone);
    await submitAndSee(page, '#expand-form', /candidate\(s\): nothing spent/);
    const candidates = page.locator('#candidate-list input[type="checkbox"]');
    expect(await candidates.count()).toBeGreaterThan(0);
    await candidates.first().check();
    await page.click('#choose-button');
    await page.locator('#status').filter({ hasText: 'Followed 1 candidate' }).waitFor({ timeout: 30_000 });

    await expect.poll(async () => Number(await page.getAttribute('#graph', 'data-nodes')), { timeout: 15_000 }).toBeGreaterThan(1);
    mkdirSync(ARTEFACTS, { recursive: true });
    const shot = join(ARTEFACTS, 'console-graph.png');
    await page.locator('#graph').screenshot({ path: shot });
    expect(statSync(shot).size).toBeGreaterThan(5_000);
    // Readable (issue 38): entities named by their main value, assertions by their statement, the material
    // with what it named; no two node labels drawn over each other; edges named in full.
    const legend = await page.textContent('#graph-legend');
    expect(legend).not.toContain('ENTITY');
    expect(legend).toMatch(/entity: ring\.three@example\.org/);
    expect(legend).toContain('assertion: weakens: Seen opening mule accounts');
    expect(legend).toMatch(/material: text material \(extracted\)/);
    expect(legend).toMatch(/text material \(extracted\) mentions ring\.three@example\.org/);
    expect(legend).toMatch(/ identifies ring\.three@example\.org \(\+\d+\)/);
    expect(await page.getAttribute('#graph', 'data-label-overlaps')).toBe('0');
    // The timeline shows the assertion's statement and the material, not ids.
    await expect.poll(() => page.textContent('#timeline'), { timeout: 15_000 }).toContain('Assertion weakens: Seen opening mule accounts');
    expect(await page.textContent('#timeline')).toMatch(/Material .*text material \(extracted\): extracted .*ring\.three@example\.org/);
    // The ledger's choices are named, not bare ids.
    const choices = await page.locator('#ledger-entity option').allTextContents();
    expect(choices.length).toBeGreaterThan(0);
    for (const choice of choices) expect(choice).not.toMatch(/^[0-9a-f-]{36}$/);
    expect(choices.join(' ')).toContain('ring.three@example.org');

    await page.locator('#ledger-form button[type="submit"]').click();
    await expect.poll(() => page.locator('#ledger li').count(), { timeout: 15_000 }).toBeGreaterThan(0);
    expect(await page.textContent('#ledger')).toMatch(/\d+ \[\d+-\d+\]/);

    await page.fill('#hold-reason', 'Preservation order 12');
    await submitAndSee(page, '#hold-form', 'Legal hold placed');
    await page.click('#release-button');
    await page.locator('#status').filter({ hasText: 'Legal hold lifted' }).waitFor();

    await submitAndSee(page, '#review-form', 'the case is signed_off');
    await submitAndSee(page, '#export-form', 'Bundle ready to download');
    expect(await page.isVisible('#export-download')).toBe(true);
    expect(await page.textContent('#export-status')).toMatch(/manifest sha256 [0-9a-f]{64}/);
    await page.fill('#close-finding', 'Mule ring confirmed');
    await submitAndSee(page, '#close-form', 'Case closed');
    expect(await page.textContent('#case-facts')).toContain('closed');

    // Live events arrived over the stream, and the key went nowhere but memory.
    await expect.poll(() => page.locator('#live-events li').count(), { timeout: 15_000 }).toBeGreaterThan(0);
    // Evaluated in the page (a string, so the test's own TypeScript needs no DOM types).
    expect(await page.evaluate('localStorage.length + sessionStorage.length + document.cookie.length')).toBe(0);
    expect(page.url()).not.toContain(ts.tenant.keys.live);
    expect(problems).toEqual([]);
    await page.close();
  }, 180_000);

  it('finds a case from the list, an inquiry and its entity by id, and an entity by a presented value, without ids from elsewhere', async () => {
    const inquiry = (await (
      await fetch(`${ts.base}/v1/inquiries`, {
        method: 'POST',
        headers: { ...bearer(ts.tenant.keys.live), 'content-type': 'application/json' },
        body: JSON.stringify({
          subject: { presentations: [{ type: 'EMAIL', value: 'find.me@example.org' }] },
          intent: 'counterparty_check',
          purpose: 'fraud_prevention',
          stake: { kind: 'other' },
        }),
      })
    ).json()) as { inquiry_id: string; assessment: { entity_id: string } };
    const lookalike = (await (
      await fetch(`${ts.base}/v1/inquiries`, {
        method: 'POST',
        headers: { ...bearer(ts.tenant.keys.live), 'content-type': 'application/json' },
        body: JSON.stringify({
          subject: { presentations: [{ type: 'EMAIL', value: 'billing@paypa1-login.com' }] },
          intent: 'counterparty_check',
          purpose: 'fraud_prevention',
          stake: { kind: 'other' },
        }),
      })
    ).json()) as { inquiry_id: string };
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console: ${message.text()}`);
    });
    const failures: string[] = [];
    page.on('response', (response) => {
      if (response.status() >= 400) failures.push(`${response.status()} ${new URL(response.url()).pathname}`);
    });
    await page.goto(`${ts.base}/console`);
    await page.fill('#key-input', ts.tenant.keys.live);
    await submitAndSee(page, '#key-form', 'Key held in memory.');

    // The value types offered are the registry's for this key, none other (NAME included, no IBAN or CRYPTO_ADDRESS).
    const registered = (await (await fetch(`${ts.base}/v1/registry/artifact-types`, { headers: bearer(ts.tenant.keys.live) })).json()) as {
      id: string;
    }[];
    const offered = await page
      .locator('#find-type option')
      .evaluateAll((options) => options.map((o) => (o as unknown as { value: string }).value));
    expect(offered).toEqual(['', ...registered.map((t) => t.id)]);
    expect(offered).toContain('NAME');
    expect(offered).not.toContain('IBAN');

    // The tenant's cases, listed with the case key alone (GET /v1/cases, no admin key, no audit trail):
    // the case of the first test is there by its title, and opens with a click.
    await page.click('#list-cases');
    await page
      .locator('#status')
      .filter({ hasText: /\d+ case\(s\)/ })
      .waitFor({ timeout: 15_000 });
    await page.locator('#case-list button', { hasText: '<b>Mule ring</b>' }).click();
    await page.locator('#status').filter({ hasText: 'Case <b>Mule ring</b>: closed' }).waitFor({ timeout: 15_000 });

    // Recent inquiries still come from the audit trail: an admin key beside the key.
    await page.fill('#key-input', ts.tenant.keys.live);
    await page.fill('#admin-key-input', ts.tenant.keys.live_admin);
    await submitAndSee(page, '#key-form', 'with an admin key for the lists');
    expect(await page.inputValue('#admin-key-input')).toBe('');

    // Recent inquiries, listed by their subject; one opens with its findings, then its entity and ledger.
    await page.click('#list-inquiries');
    await page.locator('#inquiry-list button', { hasText: 'find.me@example.org' }).click();
    await expect.poll(() => page.textContent('#inquiry-facts')).toContain(inquiry.inquiry_id);
    expect(await page.locator('#inquiry-findings li').count()).toBeGreaterThan(0);
    await page.click('#inquiry-entity');
    await expect.poll(() => page.textContent('#entity-facts')).toContain('EMAIL find.me@example.org');
    await expect.poll(() => page.locator('#entity-ledger li').count()).toBeGreaterThan(0);

    // Any id typed into one field: an inquiry's, then an entity's. An inquiry's is asked where inquiries are first:
    // no refusal of it as a case's is logged in the browser.
    failures.length = 0;
    await page.fill('#find-id', inquiry.inquiry_id);
    await submitAndSee(page, '#find-form', `Inquiry ${inquiry.inquiry_id}`);
    expect(failures).toEqual([]);
    // A look-alike's inquiry: its weakening findings stand out from neutral ones, as on the session page.
    await page.fill('#find-id', lookalike.inquiry_id);
    await submitAndSee(page, '#find-form', `Inquiry ${lookalike.inquiry_id}`);
    // Weakening and supporting findings stand out from neutral ones, as on the session page: their own class and colour.
    const looks = await page.locator('#inquiry-findings li').evaluateAll((items) =>
      items.map((li) => ({
        kind: li.className,
        // The page's own global, typed here: the tests compile without the DOM library.
        color: (globalThis as unknown as { getComputedStyle(e: unknown): { color: string } }).getComputedStyle(li).color,
      })),
    );
    const colourOf = (kind: string) => new Set(looks.filter((l) => l.kind === kind).map((l) => l.color));
    expect(looks.some((l) => l.kind === 'weakens')).toBe(true);
    expect([...colourOf('weakens')]).toEqual(['rgb(155, 44, 44)']);
    for (const neutral of colourOf('neutral')) expect(neutral).not.toBe('rgb(155, 44, 44)');
    await page.screenshot({ path: join(ARTEFACTS, 'console-inquiry.png'), fullPage: true });
    await page.fill('#find-id', inquiry.assessment.entity_id);
    await submitAndSee(page, '#find-form', `Entity ${inquiry.assessment.entity_id}`);
    await page.fill('#find-id', 'not-an-id');
    await submitAndSee(page, '#find-form', 'No case, inquiry or entity');
    // An entity by a value its subject presented (GET /v1/entities), typed as written: the type guessed, the value
    // normalised by the service as an inquiry's is; a single entity opens at once.
    await page.fill('#find-id', 'FIND.Me@Example.org');
    await submitAndSee(page, '#find-form', `Entity ${inquiry.assessment.entity_id}`);
    await page.fill('#find-id', 'nobody.here@example.org');
    await submitAndSee(page, '#find-form', 'No entity of this tenant and mode carries EMAIL nobody.here@example.org');
    // The ring's phone, in its national form read in the chosen country, was presented beside two anchors: both are
    // listed, and one opens with a click.
    await page.fill('#find-id', '020 7946 0555');
    await page.selectOption('#find-type', 'PHONE');
    await page.fill('#find-country', 'GB');
    await submitAndSee(page, '#find-form', /\d+ entities carry PHONE \+442079460555: choose one/);
    expect(await page.locator('#entity-matches li').count()).toBeGreaterThanOrEqual(2);
    // Each named by the value it is known by first, not by its id.
    const matches = await page.textContent('#entity-matches');
    expect(matches).toContain('PHONE +442079460555 presented beside');
    expect(matches).toMatch(/EMAIL ring\.one@example\.org \(\+1\)/);
    expect(matches).toMatch(/EMAIL ring\.two@example\.org \(\+1\)/);
    await page.locator('#entity-matches button').first().click();
    await expect.poll(() => page.textContent('#entity-facts')).toContain('PHONE +442079460555');
    mkdirSync(ARTEFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTEFACTS, 'console-find.png'), fullPage: true });
    // Expected refusals the page asked for itself (404/422 while finding) are not errors of the page.
    expect(problems.filter((p) => !/status of (404|422)/.test(p))).toEqual([]);
    await page.close();
  }, 120_000);

  it('serves only its own named files, each under the strict policy', async () => {
    const asset = await fetch(`${ts.base}/console/assets/app.js`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toContain('javascript');
    expect(asset.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect((await fetch(`${ts.base}/console/assets/..%2Fpackage.json`)).status).toBe(404);
    expect((await fetch(`${ts.base}/console/assets/index.html`)).status).toBe(404);
  });
});
