import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDnsChecks } from '../../src/checks/dnsChecks.js';
import type { CheckDefinition, CheckResult } from '../../src/checks/types.js';
import { RCODE, startDnsFixture, type DnsFixture } from './dnsFixture.js';
import { contextFor, verdict } from './support.js';

const ZONE = {
  'example.com': { A: ['192.0.2.10'], MX: [{ exchange: 'mx1.example.com', priority: 10 }, { exchange: 'mx2.example.com', priority: 20 }], NS: ['ns1.example.net', 'ns2.example.net'] },
  'www.example.com': { AAAA: ['2001:db8::10'] },
  'nomail.example.org': { A: ['192.0.2.20'] },
  'example.org': { NS: ['ns1.example.net'] },
  'nullmx.example': { MX: [{ exchange: '.', priority: 0 }] },
  'parked.example.net': {},
  'example.net': { NS: ['ns1.example.net'] },
  'broken.example.com': { rcode: RCODE.SERVFAIL },
  // A domain no list knows whose mail goes to a throw-away inbox service's exchanger, and a listed one.
  'fresh-inbox.example': { MX: [{ exchange: 'mx2.example.com', priority: 10 }, { exchange: 'mail.mailinator.com', priority: 20 }] },
  'mailinator.com': { MX: [{ exchange: 'mail.mailinator.com', priority: 10 }] },
};

function byId(checks: CheckDefinition[], id: string): CheckDefinition {
  const found = checks.find((check) => check.id === id);
  if (!found) throw new Error(`no check ${id}`);
  return found;
}

describe('DNS checks against a loopback DNS server', () => {
  let fixture: DnsFixture;
  let checks: CheckDefinition[];
  const ask = (id: string, type: string, value: string): Promise<CheckResult> =>
    Promise.resolve(byId(checks, id).run(contextFor(type, value)));

  beforeAll(async () => {
    fixture = await startDnsFixture(ZONE);
    checks = createDnsChecks({ servers: [fixture.server], timeoutMs: 2000 });
  });
  afterAll(() => fixture.close());

  it.each([
    ['an email domain with mail exchangers', 'dns_mx', 'EMAIL', 'jane@example.com', 'supports', /publishes 2 mail exchangers/],
    ['an email domain without mail exchangers', 'dns_mx', 'EMAIL', 'jane@nomail.example.org', 'weakens', /publishes no mail exchanger/],
    ['an email domain with a null MX', 'dns_mx', 'EMAIL', 'jane@nullmx.example', 'weakens', /publishes no mail exchanger/],
    ['an unlisted email domain whose mail a throw-away service receives', 'dns_mx', 'EMAIL', 'jane@fresh-inbox.example', 'weakens', /receives its mail at mailinator.com, a throw-away inbox service/],
    ['a listed throw-away domain (already counted by disposable_email)', 'dns_mx', 'EMAIL', 'jane@mailinator.com', 'neutral', /the throw-away inbox service it is listed as/],
    ['an email domain that does not exist', 'dns_mx', 'EMAIL', 'jane@nowhere.example.com', 'weakens', /does not exist/],
    ['a host with an IPv4 address', 'dns_address', 'DOMAIN', 'example.com', 'supports', /resolves to an address/],
    ['a web host with only an IPv6 address', 'dns_address', 'URL', 'https://www.example.com/shop', 'supports', /www.example.com resolves/],
    ['a host that exists with no address', 'dns_address', 'DOMAIN', 'parked.example.net', 'weakens', /exists but resolves to no address/],
    ['a host that does not exist', 'dns_address', 'URL', 'http://ghost.example.com/', 'weakens', /does not exist/],
    ['a delegated domain, asked for a sub-domain', 'dns_ns', 'URL', 'https://www.example.com/', 'supports', /example.com is delegated to 2 name servers/],
    ['an email domain that is delegated', 'dns_ns', 'EMAIL', 'jane@nomail.example.org', 'supports', /example.org is delegated to a name server/],
    ['a domain that does not exist', 'dns_ns', 'DOMAIN', 'unregistered.example', 'weakens', /does not exist/],
  ])('given %s, when %s runs, then it %s', async (_given, id, type, value, disposition, statement) => {
    const result = await ask(id, type, value);
    expect(result.absences).toEqual([]);
    expect(result.signals).toHaveLength(1);
    expect(result.signals[0]).toMatchObject({ disposition, provenance_class: 'third_party', about: value });
    expect(result.signals[0]!.statement).toMatch(statement);
  });

  it.each([
    ['a server failure', 'dns_mx', 'EMAIL', 'jane@broken.example.com', 'absence:error'],
    ['an IP host', 'dns_address', 'URL', 'http://192.0.2.1/', 'absence:no_data'],
    ['no host at all', 'dns_mx', 'EMAIL', 'jane', 'absence:no_data'],
  ])('given %s, when %s runs, then it is an %s', async (_given, id, type, value, expected) => {
    expect(verdict(await ask(id, type, value))).toBe(expected);
  });

  it('keeps resolver details out of absences', async () => {
    const result = await ask('dns_mx', 'EMAIL', 'jane@broken.example.com');
    expect(result.absences[0]!.reason).toBe('The DNS look-up failed.');
  });
});

describe('DNS checks against a server that never answers', () => {
  let silent: DnsFixture;
  beforeAll(async () => {
    silent = await startDnsFixture({}, { silent: true });
  });
  afterAll(() => silent.close());

  it.each(['dns_mx', 'dns_ns'])('given no answer, when %s runs, then a timeout absence at its timeout', async (id) => {
    const check = byId(createDnsChecks({ servers: [silent.server], timeoutMs: 150 }), id);
    const started = Date.now();
    const result = await check.run(contextFor('EMAIL', 'jane@example.com'));
    expect(verdict(result)).toBe('absence:timeout');
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it("given the caller aborts, then the look-up is cancelled before the check's own timeout", async () => {
    const check = byId(createDnsChecks({ servers: [silent.server], timeoutMs: 10_000 }), 'dns_address');
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const started = Date.now();
    const result = await check.run(contextFor('DOMAIN', 'example.com', { signal: controller.signal }));
    expect(verdict(result)).toBe('absence:timeout');
    expect(Date.now() - started).toBeLessThan(2000);
  });
});

describe('createDnsChecks', () => {
  it('refuses an empty or malformed resolver list at creation', () => {
    expect(() => createDnsChecks({ servers: [], timeoutMs: 100 })).toThrow();
    expect(() => createDnsChecks({ servers: ['not a resolver'], timeoutMs: 100 })).toThrow();
  });
});
