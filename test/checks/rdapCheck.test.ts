import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRdapCheck, registrationDate } from '../../src/checks/rdapCheck.js';
import type { CheckDefinition } from '../../src/checks/types.js';
import { sendJson, startHttpFixture, type HttpFixture } from './httpFixture.js';
import { contextFor, NOW, onlySignal, verdict } from './support.js';
import { eventually } from '../support/wait.js';

function rdapDomain(registered: string | null) {
  const events = [{ eventAction: 'last changed', eventDate: '2024-11-01T00:00:00Z' }];
  if (registered !== null) events.push({ eventAction: 'registration', eventDate: registered });
  return { objectClassName: 'domain', ldhName: 'x', events };
}

const ROUTES: Record<string, (response: import('node:http').ServerResponse) => void> = {
  'young-shop.com': (response) => sendJson(response, 200, rdapDomain('2024-12-20T08:00:00Z'), { 'content-type': 'application/rdap+json' }),
  'middle-shop.com': (response) => sendJson(response, 200, rdapDomain('2023-12-01T00:00:00Z')),
  'old-shop.co.uk': (response) => sendJson(response, 200, rdapDomain('2010-05-04T12:00:00Z')),
  'nodate-shop.com': (response) => sendJson(response, 200, rdapDomain(null)),
  'missing-shop.com': (response) => sendJson(response, 404, { errorCode: 404 }),
  'broken-shop.com': (response) => sendJson(response, 500, { errorCode: 500 }),
  'html-shop.com': (response) => {
    response.writeHead(200, { 'content-type': 'text/html' });
    response.end('<html>hi</html>');
  },
  'slow-shop.com': (response) => {
    setTimeout(() => sendJson(response, 200, rdapDomain('2010-01-01T00:00:00Z')), 1500);
  },
};

describe('rdap_domain_age against a loopback RDAP server', () => {
  let fixture: HttpFixture;
  let check: CheckDefinition;
  const ask = (type: string, value: string) => Promise.resolve(check.run(contextFor(type, value)));

  beforeAll(async () => {
    fixture = await startHttpFixture((request, response) => {
      const domain = decodeURIComponent(request.url?.replace(/^\/rdap\/domain\//, '') ?? '');
      (ROUTES[domain] ?? ((res) => sendJson(res, 404, {})))(response);
    });
    check = createRdapCheck({ baseUrl: `${fixture.baseUrl}/rdap/`, timeoutMs: 300 });
    // The process's first HTTP request pays for setting up the client; on a loaded machine that alone
    // can pass the check's 300 ms, so it is paid here and not by the first test.
    await fetch(`${fixture.baseUrl}/warm-up`).then((r) => r.text());
  });
  afterAll(() => fixture.close());

  it.each([
    ['a domain registered 11 days before as_of', 'DOMAIN', 'young-shop.com', 'weakens', /registered 11 days ago, on 2024-12-20/],
    ['a domain about a year old', 'URL', 'https://www.middle-shop.com/', 'neutral', /registered 397 days ago/],
    ['a domain registered in 2010', 'EMAIL', 'jane@mail.old-shop.co.uk', 'supports', /more than two years ago, on 2010-05-04/],
  ])("given %s, then it %s, observed now (the age is today's fact)", async (_given, type, value, disposition, statement) => {
    const signal = onlySignal(await ask(type, value));
    expect(signal).toMatchObject({ kind: 'domain_age', disposition, observed_at: NOW.toISOString(), provenance_class: 'third_party' });
    expect(signal.statement).toMatch(statement);
  });

  it('asks for the registrable domain', async () => {
    await ask('EMAIL', 'jane@mail.old-shop.co.uk');
    expect(fixture.requests.at(-1)?.url).toBe('/rdap/domain/old-shop.co.uk');
  });

  it.each([
    ['no registration event', 'nodate-shop.com', 'absence:no_data'],
    ['a 404', 'missing-shop.com', 'absence:no_data'],
    ['a 500', 'broken-shop.com', 'absence:error'],
    ['an HTML answer', 'html-shop.com', 'absence:error'],
    ['an answer slower than the timeout', 'slow-shop.com', 'absence:timeout'],
  ])('given %s (%s), then it is %s', async (_given, domain, expected) => {
    expect(verdict(await ask('DOMAIN', domain))).toBe(expected);
  });

  it('given an unreachable service, then an error absence', async () => {
    const unreachable = createRdapCheck({ baseUrl: 'http://127.0.0.1:1', timeoutMs: 300 });
    expect(verdict(await unreachable.run(contextFor('DOMAIN', 'young-shop.com')))).toBe('absence:error');
  });

  it('given a registry that keeps failing, then it is not asked for a while: an error absence at once, and the plan answers the check inline', async () => {
    // One TLD's registry fails (503), another's answers: only the failing one is left alone.
    const failing = await startHttpFixture((request, response) => {
      if (request.url?.endsWith('.xyz')) return sendJson(response, 503, { errorCode: 503 });
      return sendJson(response, 200, rdapDomain('2010-01-01T00:00:00Z'));
    });
    const presented = (domain: string) => contextFor('DOMAIN', domain).presentation;
    try {
      const breaking = createRdapCheck({ baseUrl: failing.baseUrl, timeoutMs: 300 });
      expect(breaking.unreachableReason?.(presented('first-shop.xyz'))).toBeNull();
      for (const domain of ['first-shop.xyz', 'second-shop.xyz'])
        expect(verdict(await breaking.run(contextFor('DOMAIN', domain)))).toBe('absence:error');
      expect(failing.requests).toHaveLength(2);
      const skipped = await breaking.run(contextFor('DOMAIN', 'third-shop.xyz'));
      expect(skipped.absences).toEqual([
        expect.objectContaining({ kind: 'error', reason: expect.stringMatching(/failing to answer, so it was not asked/) }),
      ]);
      expect(failing.requests).toHaveLength(2);
      expect(breaking.unreachableReason?.(presented('fourth-shop.xyz'))).toMatch(/not asked/);
      expect(breaking.dependencyHealth?.()).toBe('degraded');

      expect(breaking.unreachableReason?.(presented('old-shop.com'))).toBeNull();
      expect(verdict(await breaking.run(contextFor('DOMAIN', 'old-shop.com')))).toBe('supports');
      expect(failing.requests).toHaveLength(3);
    } finally {
      await failing.close();
    }
  });

  it('given a 404, then no failure is counted: a registry that says "no such domain" is answering', async () => {
    const answering = createRdapCheck({ baseUrl: `${fixture.baseUrl}/rdap/`, timeoutMs: 300 });
    for (let i = 0; i < 3; i += 1) expect(verdict(await answering.run(contextFor('DOMAIN', 'missing-shop.com')))).toBe('absence:no_data');
    expect(answering.unreachableReason?.(contextFor('DOMAIN', 'missing-shop.com').presentation)).toBeNull();
    expect(answering.dependencyHealth?.()).toBe('ok');
  });

  it('given nothing registrable, then no request and a no_data absence', async () => {
    const before = fixture.requests.length;
    expect(verdict(await ask('URL', 'http://192.0.2.1/'))).toBe('absence:no_data');
    expect(verdict(await ask('DOMAIN', 'intranet.local'))).toBe('absence:no_data');
    expect(fixture.requests.length).toBe(before);
  });
});

describe('registrationDate', () => {
  it.each([
    [null, null],
    [{ events: 'nope' }, null],
    [{ events: [{ eventAction: 'registration', eventDate: 'not a date' }] }, null],
    [{ events: [{ eventAction: 'registration', eventDate: '2001-02-03T00:00:00Z' }] }, '2001-02-03T00:00:00.000Z'],
  ])('given %j, then %j', (body, expected) => {
    expect(registrationDate(body)?.toISOString() ?? null).toBe(expected);
  });
});

describe('rdap_domain_age with its reachability probe', () => {
  const presented = (type: string, value: string) => contextFor(type, value).presentation;

  it("given a service that refuses connections, then it is known down before any look-up: the plan answers it at once, and nothing registrable stays the check's own no_data", async () => {
    const told: string[] = [];
    const refused = createRdapCheck({ baseUrl: 'http://127.0.0.1:1', timeoutMs: 300, probe: { onChange: (state) => told.push(state) } });
    await eventually(() => refused.dependencyHealth?.() === 'degraded', { timeout: 2000, what: 'the probe finding the service down' });
    expect(refused.dependencyHealth?.()).toBe('degraded');
    expect(told).toEqual(['open']);
    expect(refused.unreachableReason?.(presented('EMAIL', 'jane@young-shop.com'))).toBe(
      'The registration registry cannot be reached, so it was not asked.',
    );
    expect(refused.unreachableReason?.(presented('DOMAIN', 'intranet.local'))).toBeNull();
    expect(verdict(await refused.run(contextFor('DOMAIN', 'young-shop.com')))).toBe('absence:error');
  });

  it('given a service that answers its help query, then it is up and looked up as usual (one probe request, not following redirects)', async () => {
    const answering = await startHttpFixture((request, response) => {
      if (request.url === '/help') {
        response.writeHead(302, { location: 'http://127.0.0.1:1/help' });
        response.end();
        return;
      }
      sendJson(response, 200, rdapDomain('2010-01-01T00:00:00Z'));
    });
    try {
      const check = createRdapCheck({ baseUrl: answering.baseUrl, timeoutMs: 300, probe: {} });
      await eventually(() => answering.requests.length > 0, { timeout: 2000, what: 'the probe asking /help' });
      // The look-up's whole round trip starts after the probe's answer was sent: a probe that followed
      // the redirect to the refusing port would have found the service down before it ends.
      expect(verdict(await check.run(contextFor('DOMAIN', 'old-shop.com')))).toBe('supports');
      expect(check.dependencyHealth?.()).toBe('ok');
      expect(check.unreachableReason?.(presented('DOMAIN', 'old-shop.com'))).toBeNull();
      expect(answering.requests.map((r) => r.url)).toEqual(['/help', '/domain/old-shop.com']);
    } finally {
      await answering.close();
    }
  });
});
