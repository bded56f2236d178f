import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consistencyAnswer, createDnsChecks, type NameServer } from '../../src/checks/dnsChecks.js';
import type { CheckDefinition, CheckResult } from '../../src/checks/types.js';
import { RCODE, startDnsFixture, type DnsFixture } from './dnsFixture.js';
import { contextFor, verdict } from './support.js';

const ZONE = {
  'example.com': {
    A: ['192.0.2.10'],
    MX: [
      { exchange: 'mx1.example.com', priority: 10 },
      { exchange: 'mx2.example.com', priority: 20 },
    ],
    NS: ['ns1.example.net', 'ns2.example.net'],
  },
  'www.example.com': { AAAA: ['2001:db8::10'] },
  'two-mx.example': {
    MX: [
      { exchange: 'mx1.two-mx.example', priority: 10 },
      { exchange: 'mx2.two-mx.example', priority: 20 },
    ],
  },
  'nomail.example.org': { A: ['192.0.2.20'] },
  'example.org': { NS: ['ns1.example.net'] },
  'nullmx.example': { MX: [{ exchange: '.', priority: 0 }] },
  'parked.example.net': {},
  'example.net': { NS: ['ns1.example.net'] },
  'broken.example.com': { rcode: RCODE.SERVFAIL },
  // A domain no list knows whose mail goes to a throw-away inbox service's exchanger, and a listed one.
  'fresh-inbox.example': {
    MX: [
      { exchange: 'mx2.example.com', priority: 10 },
      { exchange: 'mail.mailinator.com', priority: 20 },
    ],
  },
  'mailinator.com': { MX: [{ exchange: 'mail.mailinator.com', priority: 10 }] },
  // Mail run by a well-known provider for a company's own domain; a consumer provider's own domain; a domain running its own mail.
  'acme-widgets.example': {
    MX: [
      { exchange: 'aspmx.l.google.com', priority: 1 },
      { exchange: 'alt1.aspmx.l.google.com', priority: 5 },
    ],
  },
  'quiet-shop.example': { MX: [{ exchange: 'mail.protonmail.ch', priority: 10 }] },
  'gmail.com': { MX: [{ exchange: 'gmail-smtp-in.l.google.com', priority: 5 }] },
  'google.com': { MX: [{ exchange: 'smtp.google.com', priority: 10 }] },
  // Name servers' own names, so a delegation to them is consistent; and a delegation to one that does not exist.
  'ns1.example.net': { A: ['192.0.2.53'] },
  'ns2.example.net': { AAAA: ['2001:db8::53'] },
  'lame.example': { NS: ['ns1.example.net', 'ns.gone.example'] },
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
    // (example.com itself is on the consumer provider list, whose exchangers are reported only.)
    ['an email domain with mail exchangers', 'dns_mx', 'EMAIL', 'jane@two-mx.example', 'supports', /publishes 2 mail exchangers/],
    ['an email domain without mail exchangers', 'dns_mx', 'EMAIL', 'jane@nomail.example.org', 'weakens', /publishes no mail exchanger/],
    ['an email domain with a null MX', 'dns_mx', 'EMAIL', 'jane@nullmx.example', 'weakens', /publishes no mail exchanger/],
    [
      'an unlisted email domain whose mail a throw-away service receives',
      'dns_mx',
      'EMAIL',
      'jane@fresh-inbox.example',
      'weakens',
      /receives its mail at mailinator.com, a throw-away inbox service/,
    ],
    [
      'a listed throw-away domain (already counted by disposable_email)',
      'dns_mx',
      'EMAIL',
      'jane@mailinator.com',
      'neutral',
      /the throw-away inbox service it is listed as/,
    ],
    ['an email domain that does not exist', 'dns_mx', 'EMAIL', 'jane@nowhere.example.com', 'weakens', /does not exist/],
    ['a host with an IPv4 address', 'dns_address', 'DOMAIN', 'example.com', 'supports', /resolves to an address/],
    ['a web host with only an IPv6 address', 'dns_address', 'URL', 'https://www.example.com/shop', 'supports', /www.example.com resolves/],
    ['a host that exists with no address', 'dns_address', 'DOMAIN', 'parked.example.net', 'weakens', /exists but resolves to no address/],
    ['a host that does not exist', 'dns_address', 'URL', 'http://ghost.example.com/', 'weakens', /does not exist/],
    [
      'a company domain whose mail a well-known provider runs',
      'dns_mx',
      'EMAIL',
      'jane@acme-widgets.example',
      'supports',
      /receives its mail at google.com, a well-known mail provider/,
    ],
    [
      'a company domain whose mail a mailbox provider runs',
      'dns_mx',
      'EMAIL',
      'jane@quiet-shop.example',
      'supports',
      /receives its mail at protonmail.ch, a well-known mail provider/,
    ],
    [
      "a consumer provider's own domain (says nothing of the holder)",
      'dns_mx',
      'EMAIL',
      'jane.doe.1987@gmail.com',
      'neutral',
      /consumer mailbox provider's/,
    ],
    ['a domain running its own mail at its own site', 'dns_mx', 'EMAIL', 'someone@google.com', 'supports', /publishes a mail exchanger/],
    [
      'a consistently delegated domain, asked for a sub-domain',
      'dns_ns',
      'URL',
      'https://www.example.com/',
      'supports',
      /example.com is delegated to 2 name servers, each of which resolves/,
    ],
    [
      'an email domain delegated to a single name server',
      'dns_ns',
      'EMAIL',
      'jane@nomail.example.org',
      'neutral',
      /example.org is delegated to a single name server/,
    ],
    [
      'a domain delegated to a name server that does not exist',
      'dns_ns',
      'DOMAIN',
      'lame.example',
      'neutral',
      /the name server ns.gone.example does not resolve/,
    ],
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

  it("given a well-known provider running a domain's mail, then that is its own kind, moderate", async () => {
    const result = await ask('dns_mx', 'EMAIL', 'jane@acme-widgets.example');
    expect(result.signals[0]).toMatchObject({
      kind: 'known_mail_provider',
      disposition: 'supports',
      strength: 'moderate',
      fact: 'host:acme-widgets.example',
    });
  });

  it('keeps resolver details out of absences', async () => {
    const result = await ask('dns_mx', 'EMAIL', 'jane@broken.example.com');
    expect(result.absences[0]!.reason).toBe('The DNS look-up failed.');
  });
});

describe('a delegation, consistent or not (pure)', () => {
  const ns = (...states: NameServer['resolves'][]) => states.map((resolves, i) => ({ host: `ns${i + 1}.dns.example`, resolves }));
  it.each([
    ['two name servers that resolve', ns('yes', 'yes'), 'supports'],
    ['four name servers that resolve', ns('yes', 'yes', 'yes', 'yes'), 'supports'],
    ['a single name server', ns('yes'), 'neutral'],
    ['one of two that does not exist', ns('yes', 'no'), 'neutral'],
    ['one of two not answered in time', ns('yes', 'unknown'), 'neutral'],
  ])('given %s, then the delegation %s', (_given, servers, disposition) => {
    const answer = consistencyAnswer('shop.example', servers);
    expect('disposition' in answer && answer.disposition).toBe(disposition);
  });
});

describe('DNS checks against a server that never answers', () => {
  let silent: DnsFixture;
  // Who waits on the next question the silent server is asked.
  let asked: ((name: string) => void) | undefined;
  beforeAll(async () => {
    silent = await startDnsFixture({}, { silent: true, onQuestion: (name) => asked?.(name) });
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
    // The caller gives up once the look-up is on the wire, waiting on an answer that never comes.
    const onTheWire = new Promise<string>((resolve) => (asked = resolve));
    const started = Date.now();
    const pending = check.run(contextFor('DOMAIN', 'example.com', { signal: controller.signal }));
    expect(await onTheWire).toBe('example.com');
    controller.abort();
    const result = await pending;
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
