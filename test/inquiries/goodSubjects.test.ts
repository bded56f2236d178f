import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDnsFixture, type DnsFixture } from '../checks/dnsFixture.js';
import { sendJson, startHttpFixture, type HttpFixture } from '../checks/httpFixture.js';
import { startTestService, type TestService } from '../support/service.js';
import { inquire } from './support.js';

/**
 * Evidence that recognises good subjects, and a value that is no value of
 * its type, tried through the HTTP API as a tenant would (issue 35 items 3
 * and 4): an established site, a mailbox at an organisation's own such
 * domain, a real line in the claimed country, and in the network tier a
 * well-known mail provider, a consistent delegation and an old registration,
 * each a supporting finding counted once; `not an email` is one weakening
 * finding, not a silent near-50.
 */
const about = (presentations: { type: string; value: string }[], claim?: Record<string, string>, extra: Record<string, unknown> = {}) => ({
  subject: { presentations, ...(claim ? { claim } : {}) },
  intent: 'pre_transaction',
  purpose: 'fraud_prevention',
  stake: { kind: 'payment', amount: 50, currency: 'GBP' },
  ...extra,
});

const findingsOf = (body: any, kind: string): any[] => body.findings.findings.filter((f: any) => f.kind === kind);
const scored = (body: any) => [body.assessment.score, body.assessment.low, body.assessment.high];

describe('the inline tier', () => {
  let ts: TestService;
  beforeAll(async () => {
    ts = await startTestService({}, { workers: false });
  });
  afterAll(async () => {
    await ts?.stop();
  });

  it('an established site carries its supporting finding and now answers above "nothing found"', async () => {
    const nothing = await inquire(ts, about([{ type: 'DOMAIN', value: 'acme-widgets-nowhere.co.uk' }]));
    const r = await inquire(ts, about([{ type: 'DOMAIN', value: 'github.com' }]));
    expect(r.status).toBe(200);
    expect(findingsOf(r.body, 'site_rank_top_1000')).toEqual([expect.objectContaining({ disposition: 'supports', about: 'github.com' })]);
    // Its rank is the one fact of its standing: the well-known-site data does not say it a second time.
    expect(findingsOf(r.body, 'established_site')).toEqual([expect.objectContaining({ disposition: 'neutral' })]);
    expect(r.body.assessment.score).toBeGreaterThan(nothing.body.assessment.score);
    expect(r.body.assessment.low).toBeGreaterThan(nothing.body.assessment.low);
  });

  it('the ledger names the popularity list the answer read, so it is known after the list changes', async () => {
    const r = await inquire(ts, about([{ type: 'DOMAIN', value: 'github.com' }]));
    const ledger = await fetch(`${ts.base}/v1/entities/${r.body.assessment.entity_id}/ledger`, {
      headers: { authorization: `Bearer ${ts.tenant.keys.test}` },
    });
    const entries = (await ledger.json()) as any[];
    expect(entries.at(-1).inputs.data_snapshots).toEqual([
      expect.stringMatching(/^popularity:majestic-million-top15000-2026-03\.csv@[0-9a-f]{12}$/),
    ]);
  });

  it("a mailbox at an organisation's own established domain supports; beside the site itself it is the same fact, counted once", async () => {
    const mailbox = await inquire(ts, about([{ type: 'EMAIL', value: 'jane.doe@stripe.com' }]));
    expect(findingsOf(mailbox.body, 'organisation_mailbox')).toEqual([
      expect.objectContaining({ disposition: 'supports', about_type: 'EMAIL' }),
    ]);
    const site = await inquire(ts, about([{ type: 'DOMAIN', value: 'stripe.com' }]));
    const both = await inquire(
      ts,
      about([
        { type: 'DOMAIN', value: 'stripe.com' },
        { type: 'URL', value: 'https://www.stripe.com/' },
      ]),
    );
    expect(findingsOf(both.body, 'site_rank_top_1000')).toHaveLength(2);
    expect(scored(both.body)).toEqual(scored(site.body));
    const mailboxAndSite = await inquire(
      ts,
      about([
        { type: 'EMAIL', value: 'jane.doe@stripe.com' },
        { type: 'DOMAIN', value: 'stripe.com' },
      ]),
    );
    expect(findingsOf(mailboxAndSite.body, 'organisation_mailbox').map((f) => f.disposition)).toEqual(['neutral']);
    expect(findingsOf(mailboxAndSite.body, 'site_rank_top_1000').map((f) => f.disposition)).toEqual(['supports']);
  });

  it("a mailbox at a free provider is not its provider's standing", async () => {
    const r = await inquire(ts, about([{ type: 'EMAIL', value: 'jane.doe.1987@gmail.com' }]));
    expect(findingsOf(r.body, 'organisation_mailbox').map((f) => f.disposition)).toEqual(['neutral']);
  });

  it('a real line in the claimed country supports, once', async () => {
    const r = await inquire(ts, about([{ type: 'PHONE', value: '+44 7400 123456' }], { country: 'GB' }));
    const supporting = r.body.findings.findings.filter((f: any) => f.disposition === 'supports');
    expect(supporting.map((f: any) => f.kind)).toEqual(['phone_real_line']);
    expect(r.body.assessment.score).toBeGreaterThan(50);
  });

  it.each([
    ['EMAIL', 'not an email'],
    ['PHONE', 'call me maybe'],
    ['DOMAIN', 'not a domain'],
    ['URL', 'https://exa mple.com/'],
  ])('%s %j: one weakening finding and no absences, not a silent near-50', async (type, value) => {
    const r = await inquire(ts, about([{ type, value }]));
    expect(r.status).toBe(200);
    const weakening = r.body.findings.findings.filter((f: any) => f.disposition === 'weakens');
    expect(weakening).toEqual([expect.objectContaining({ kind: 'malformed_value', about: value })]);
    expect(r.body.assessment.evidence.failed_signals).toBe(0);
    expect(r.body.assessment.score).toBeLessThan(40);
  });
});

describe('the network tier, against loopback DNS and RDAP servers', () => {
  let dns: DnsFixture;
  let rdap: HttpFixture;
  let ts: TestService;
  beforeAll(async () => {
    dns = await startDnsFixture({
      // The resolver's canary (TAS_DNS_CANARY's default) answers, so its answers count.
      'example.com': { A: ['192.0.2.1'] },
      'northwind-traders.co.uk': {
        MX: [{ exchange: 'aspmx.l.google.com', priority: 1 }],
        NS: ['ns1.dns-host.example', 'ns2.dns-host.example'],
      },
      'ns1.dns-host.example': { A: ['192.0.2.53'] },
      'ns2.dns-host.example': { A: ['192.0.2.54'] },
    });
    rdap = await startHttpFixture((request, response) => {
      const registered = request.url?.endsWith('/domain/northwind-traders.co.uk') ? '2009-03-02T00:00:00Z' : null;
      if (registered === null) return sendJson(response, 404, { errorCode: 404 });
      sendJson(
        response,
        200,
        { objectClassName: 'domain', ldhName: 'northwind-traders.co.uk', events: [{ eventAction: 'registration', eventDate: registered }] },
        { 'content-type': 'application/rdap+json' },
      );
    });
    ts = await startTestService({
      TAS_DNS_SERVERS: dns.server,
      TAS_RDAP_BASE_URL: `${rdap.baseUrl}/rdap/`,
      TAS_NETWORK_TIMEOUT_MS: '2000',
    });
  });
  afterAll(async () => {
    await ts?.stop();
    await dns?.close();
    await rdap?.close();
  });

  it('a company mailbox: mail run by a well-known provider, a consistent delegation and an old registration each support it', async () => {
    const r = await inquire(
      ts,
      about([{ type: 'EMAIL', value: 'jane@northwind-traders.co.uk' }], undefined, {
        tier_ceiling: 't1',
        stake: { kind: 'payment', amount: 5000, currency: 'GBP', deadline_ms: 8000 },
      }),
    );
    expect(r.status).toBe(200);
    expect(r.body.status).toBe('concluded');
    const supporting = r.body.findings.findings
      .filter((f: any) => f.disposition === 'supports')
      .map((f: any) => f.kind)
      .sort();
    expect(supporting).toEqual(expect.arrayContaining(['domain_age', 'domain_delegation', 'known_mail_provider']));
    expect(findingsOf(r.body, 'known_mail_provider')[0].statement).toMatch(/google.com, a well-known mail provider/);
    expect(r.body.assessment.score).toBeGreaterThan(70);
  });
});
