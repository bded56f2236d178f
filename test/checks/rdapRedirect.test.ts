import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRdapCheck } from '../../src/checks/rdapCheck.js';
import { isPublicHttpsTarget } from '../../src/webhooks/targets.js';
import { sendJson, startHttpFixture, type HttpFixture } from './httpFixture.js';
import { contextFor, onlySignal, verdict } from './support.js';

/**
 * Issue 40: an RDAP service's redirect passes the same outbound address guard
 * as a webhook target. The operator's own RDAP base is on loopback here (as a
 * test fixture); what it redirects to is chosen by a third party and must not
 * reach loopback, so the second loopback server must see no request.
 */
let redirector: HttpFixture;
let inside: HttpFixture;

beforeAll(async () => {
  inside = await startHttpFixture((_request, response) =>
    sendJson(response, 200, { events: [{ eventAction: 'registration', eventDate: '2010-01-01T00:00:00Z' }] }),
  );
  redirector = await startHttpFixture((request, response) => {
    const domain = request.url?.replace(/^\/domain\//, '') ?? '';
    const to = domain === 'meta-shop.com' ? 'https://169.254.169.254/latest/meta-data' : `${inside.baseUrl}/domain/${domain}`;
    response.writeHead(302, { location: to });
    response.end();
  });
});
afterAll(async () => {
  await redirector.close();
  await inside.close();
});

describe('an RDAP redirect', () => {
  it.each([
    ['to a loopback server', 'loop-shop.com'],
    ['to the metadata address', 'meta-shop.com'],
  ])('given a redirect %s, then it is not followed: an error absence, and nothing inside is asked', async (_name, domain) => {
    const check = createRdapCheck({ baseUrl: redirector.baseUrl, timeoutMs: 1000, redirectGuard: isPublicHttpsTarget });
    expect(verdict(await check.run(contextFor('DOMAIN', domain)))).toBe('absence:error');
    expect(inside.requests).toHaveLength(0);
    expect(redirector.requests.at(-1)?.url).toBe(`/domain/${domain}`);
  });

  it('given no guard, then a redirect is refused, not followed', async () => {
    const check = createRdapCheck({ baseUrl: redirector.baseUrl, timeoutMs: 1000 });
    expect(verdict(await check.run(contextFor('DOMAIN', 'loop-shop.com')))).toBe('absence:error');
    expect(inside.requests).toHaveLength(0);
  });

  it('given a guard that approves the hop, then the redirect is followed to the answer', async () => {
    const check = createRdapCheck({ baseUrl: redirector.baseUrl, timeoutMs: 1000, redirectGuard: () => Promise.resolve(true) });
    expect(onlySignal(await check.run(contextFor('DOMAIN', 'fine-shop.com'))).disposition).toBe('supports');
    expect(inside.requests.map((r) => r.url)).toEqual(['/domain/fine-shop.com']);
  });
});
