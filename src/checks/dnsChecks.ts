import { promises as dns, type MxRecord } from 'node:dns';
import { describeType } from './artifactTypes.js';
import { PUBLIC_FACT, absenceFor, absent, defineCheck, neutral, supports, weakens, type Answer, type CheckInfo } from './evidence.js';
import { isDisposableDomain } from './emailDomains.js';
import { ESTABLISHED_SITE_SOURCES, isEstablishedSite, isFreeMailHost, siteOf } from './establishedSites.js';
import { createResolverCanary, type ResolverCanary } from './resolverCanary.js';
import { asciiHost, hostOf, viewHost } from './hosts.js';
import { DEFAULT_NETWORK_TIMEOUT_MS } from './networkDefaults.js';
import type { CheckDiscoveryConfig } from './registry.js';
import type { CheckContext, CheckDefinition } from './types.js';

/**
 * DNS look-ups through the operator's resolver:
 * - `dns_mx` (mail_exchanger): whether an email's domain can receive mail at all,
 *   whether a throw-away inbox service receives it (disposable_mail_exchanger),
 *   and whether a well-known mail provider does (known_mail_provider);
 * - `dns_address` (domain_resolves): whether a site's host resolves to an address;
 * - `dns_ns` (domain_delegation): whether the registrable domain is delegated,
 *   and consistently (two or more name servers whose names resolve).
 * A name that does not exist, or a mail domain without mail exchangers, is
 * evidence against; a look-up that cannot finish is an absence, never evidence.
 * Each run uses its own Resolver so that cancelling it on abort stops only its own queries.
 */
export interface DnsCheckConfig {
  /** Resolver addresses as `host` or `host:port` (IPv6 as `[addr]:port`). */
  servers: string[];
  timeoutMs: number;
  /** A name that must resolve before any negative answer counts (src/checks/resolverCanary.ts); none: no canary. */
  canaryName?: string;
}

type Lookup<T> = { status: 'found'; records: T[] } | { status: 'nxdomain' | 'nodata' | 'timeout' | 'error' };

async function lookup<T>(config: DnsCheckConfig, signal: AbortSignal, query: (resolver: dns.Resolver) => Promise<T[]>): Promise<Lookup<T>> {
  // One try: retrying inside the deadline only delays the timeout absence.
  const resolver = new dns.Resolver({ timeout: config.timeoutMs, tries: 1 });
  resolver.setServers(config.servers);
  const deadline = AbortSignal.any([signal, AbortSignal.timeout(config.timeoutMs)]);
  if (deadline.aborted) return { status: 'timeout' };
  const cancel = (): void => resolver.cancel();
  deadline.addEventListener('abort', cancel, { once: true });
  try {
    const records = await query(resolver);
    return records.length > 0 ? { status: 'found', records } : { status: 'nodata' };
  } catch (error) {
    if (deadline.aborted) return { status: 'timeout' };
    return { status: statusOfCode((error as NodeJS.ErrnoException).code) };
  } finally {
    deadline.removeEventListener('abort', cancel);
  }
}

function statusOfCode(code: string | undefined): 'nxdomain' | 'nodata' | 'timeout' | 'error' {
  switch (code) {
    case dns.NOTFOUND:
      return 'nxdomain';
    case dns.NODATA:
      return 'nodata';
    case dns.TIMEOUT:
    case dns.CANCELLED:
      return 'timeout';
    default:
      return 'error';
  }
}

function failure(status: 'timeout' | 'error'): Answer {
  return status === 'timeout' ? absent('timeout', 'The DNS look-up did not answer in time.') : absent('error', 'The DNS look-up failed.');
}

/** The name a DNS check asks about, or an absence saying why there is none. */
function nameToQuery(ctx: CheckContext, registrableOnly: boolean): string | Answer {
  const host = hostOf(ctx.presentation);
  const what = describeType(ctx.presentation.type);
  if (host === null) return absent('no_data', `The ${what} has no host name to look up.`);
  const view = viewHost(host);
  if (view.isIp) return absent('no_data', `The ${what} names an IP address, so there is no name to look up.`);
  if (!registrableOnly) return host;
  return view.registrable ?? absent('no_data', `The ${what} has no registrable domain to look up.`);
}

type NetworkFields = 'id' | 'kind' | 'artifactTypes' | 'trustBand' | 'looksAt' | 'declares' | 'judges' | 'sources';

function networkInfo(config: DnsCheckConfig, info: Pick<CheckInfo, NetworkFields>): CheckInfo {
  return {
    ...info,
    tier: 't1',
    runs: 'worker',
    cost: 0,
    timeoutMs: config.timeoutMs,
    provenanceClass: 'third_party',
    dataClass: PUBLIC_FACT,
  };
}

function count(n: number, one: string, many: string): string {
  return n === 1 ? one : `${n} ${many}`;
}

function mailExchangerAnswer(name: string, result: Lookup<MxRecord>): Answer {
  if (result.status === 'timeout' || result.status === 'error') return failure(result.status);
  if (result.status === 'nxdomain') return weakens(`The email domain ${name} does not exist.`);
  // RFC 7505 "null MX": a single exchanger named "." declares that the domain accepts no mail.
  const records = result.status === 'found' ? result.records : [];
  const exchangers = records.filter((record) => record.exchange !== '' && record.exchange !== '.');
  if (exchangers.length === 0) return weakens(`The email domain ${name} publishes no mail exchanger, so it cannot receive mail.`);
  const throwaway = throwawayExchanger(exchangers);
  if (throwaway !== null) {
    // A listed throw-away domain is already counted by the disposable_email check: its exchanger is the same fact.
    return throwawayDomainOf(name) !== null
      ? neutral(`The email domain ${name} receives its mail at ${throwaway}, the throw-away inbox service it is listed as.`)
      : weakens(`The email domain ${name} receives its mail at ${throwaway}, a throw-away inbox service.`, {
          kind: 'disposable_mail_exchanger',
        });
  }
  // A consumer provider's domain receives mail for anyone who opens a mailbox there: its exchangers say nothing of the holder.
  const ascii = asciiHost(name);
  if (ascii !== null && isFreeMailHost(ascii, viewHost(ascii).registrable)) {
    return neutral(`The email domain ${name} is a consumer mailbox provider's, whose mail exchangers say nothing of a mailbox's holder.`);
  }
  const provider = knownMailProvider(name, exchangers);
  if (provider !== null)
    return supports(`The email domain ${name} receives its mail at ${provider}, a well-known mail provider.`, {
      kind: 'known_mail_provider',
    });
  return supports(`The email domain ${name} publishes ${count(exchangers.length, 'a mail exchanger', 'mail exchangers')}.`);
}

/**
 * The site of the first exchanger run by a well-known mail provider for
 * someone else's domain, or null: an exchanger whose site is an established
 * one (src/checks/establishedSites.ts: google.com, outlook.com, zoho.com...)
 * or a mailbox provider's own (protonmail.ch, gmx.net; email-providers). The
 * domain's owner has an account there that receives its mail, set up with
 * the provider. A domain whose exchangers are its own site's runs its own
 * mail: that is the plain answer, not a provider's.
 */
function knownMailProvider(name: string, exchangers: MxRecord[]): string | null {
  const ascii = asciiHost(name);
  const ownSite = ascii === null ? null : siteOf(viewHost(ascii));
  for (const { exchange } of exchangers) {
    const host = asciiHost(exchange);
    if (host === null) continue;
    const view = viewHost(host);
    const site = siteOf(view);
    if (site === null || site === ownSite) continue;
    if (isEstablishedSite(site) || isFreeMailHost(site, view.registrable)) return site;
  }
  return null;
}

/** The registrable domain of a listed throw-away inbox domain (or a host below one) that `host` names, else null. */
function throwawayDomainOf(host: string): string | null {
  const ascii = asciiHost(host);
  if (ascii === null) return null;
  const registrable = viewHost(ascii).registrable;
  return isDisposableDomain(ascii, registrable) ? (registrable ?? ascii) : null;
}

/**
 * The registrable domain of the first exchanger run by a throw-away inbox
 * service, or null. Such services take mail for hundreds of domains that no
 * list has caught up with yet, and point them all at their own exchangers
 * (`mx.<service>`), so the exchanger names the service when the domain does not.
 */
function throwawayExchanger(exchangers: MxRecord[]): string | null {
  for (const { exchange } of exchangers) {
    const service = throwawayDomainOf(exchange);
    if (service !== null) return service;
  }
  return null;
}

function addressAnswer(name: string, v4: Lookup<string>, v6: Lookup<string>): Answer {
  if (v4.status === 'found' || v6.status === 'found') return supports(`The host ${name} resolves to an address.`);
  if (v4.status === 'nxdomain' || v6.status === 'nxdomain') return weakens(`The host ${name} does not exist.`);
  if (v4.status === 'nodata' && v6.status === 'nodata') return weakens(`The host ${name} exists but resolves to no address.`);
  return failure(v4.status === 'timeout' || v6.status === 'timeout' ? 'timeout' : 'error');
}

function delegationAnswer(name: string, result: Lookup<string>, servers: readonly NameServer[]): Answer {
  switch (result.status) {
    case 'timeout':
    case 'error':
      return failure(result.status);
    case 'found':
      return consistencyAnswer(name, servers);
    case 'nxdomain':
      return weakens(`The domain ${name} does not exist.`);
    case 'nodata':
      return weakens(`The domain ${name} is not delegated to any name server.`);
  }
}

/** A name server the domain is delegated to, and whether its own name resolves to an address. */
export interface NameServer {
  host: string;
  resolves: 'yes' | 'no' | 'unknown';
}

// RFC 1034 section 4.1 and RFC 2182 section 5: a zone has at least two name servers, so one failing does not take it down.
const MIN_NAME_SERVERS = 2;
// The name servers asked about; beyond four a delegation's consistency is already plain, and each costs two look-ups.
const MAX_NAME_SERVERS_ASKED = 4;

/**
 * A consistent delegation: at least two name servers (RFC 1034 4.1,
 * RFC 2182), each of whose names resolves to an address, so the domain can
 * be looked up at all. That supports: someone keeps the domain's DNS. A
 * single name server, or one whose name does not exist (a lame delegation,
 * the mark of an abandoned or dropped domain's leftovers), is reported
 * only: registries and parking services leave such delegations on domains
 * of every kind. Name servers that could not be asked in time leave the
 * delegation reported only too, never an absence: the delegation itself
 * was seen.
 */
export function consistencyAnswer(name: string, servers: readonly NameServer[]): Answer {
  const n = count(servers.length, 'a name server', 'name servers');
  if (servers.length < MIN_NAME_SERVERS)
    return neutral(`The domain ${name} is delegated to a single name server, fewer than the two the DNS requires.`);
  const lame = servers.find((s) => s.resolves === 'no');
  if (lame !== undefined) return neutral(`The domain ${name} is delegated to ${n}, but the name server ${lame.host} does not resolve.`);
  if (servers.some((s) => s.resolves === 'unknown'))
    return neutral(`The domain ${name} is delegated to ${n}, which could not all be checked in time.`);
  return supports(`The domain ${name} is delegated to ${n}, each of which resolves.`);
}

async function nameServers(config: DnsCheckConfig, signal: AbortSignal, result: Lookup<string>): Promise<NameServer[]> {
  if (result.status !== 'found') return [];
  const hosts = [...new Set(result.records.map((r) => r.toLowerCase().replace(/\.$/, '')))].sort();
  const asked = await Promise.all(
    hosts.slice(0, MAX_NAME_SERVERS_ASKED).map(async (host): Promise<NameServer> => {
      const [v4, v6] = await Promise.all([
        lookup(config, signal, (resolver) => resolver.resolve4(host)),
        lookup(config, signal, (resolver) => resolver.resolve6(host)),
      ]);
      if (v4.status === 'found' || v6.status === 'found') return { host, resolves: 'yes' };
      const missing = (s: Lookup<string>['status']) => s === 'nxdomain' || s === 'nodata';
      return { host, resolves: missing(v4.status) && missing(v6.status) ? 'no' : 'unknown' };
    }),
  );
  // Servers beyond those asked count by their number only: present, not checked.
  return [...asked, ...hosts.slice(MAX_NAME_SERVERS_ASKED).map((host) => ({ host, resolves: 'yes' as const }))];
}

function mailExchangerCheck(config: DnsCheckConfig): CheckDefinition {
  const info = networkInfo(config, {
    id: 'dns_mx',
    kind: 'mail_exchanger',
    artifactTypes: ['EMAIL'],
    trustBand: 'medium',
    judges: 'host',
    looksAt: "the email domain's MX records in the DNS (and whether a throw-away service or a well-known mail provider runs them)",
    sources: ESTABLISHED_SITE_SOURCES,
    declares: [
      {
        disposition: 'supports',
        strength: 'moderate',
        reason: 'A mail exchanger present is a real but modest indicator: a domain set up to receive mail.',
      },
      {
        kind: 'known_mail_provider',
        disposition: 'supports',
        strength: 'moderate',
        reason:
          'Mail run by a well-known provider for the domain is an account set up with that provider; at most moderate, as no corpus here holds a look-up (section 8).',
      },
      {
        disposition: 'weakens',
        strength: 'moderate',
        reason: "A domain that cannot receive mail cannot be the subject's real mailbox, but DNS errors happen.",
      },
      {
        kind: 'disposable_mail_exchanger',
        disposition: 'weakens',
        strength: 'strong',
        reason: 'Mail handled by a throw-away inbox service makes the address a disposable inbox, as surely as a listed domain.',
        cited:
          "the same fact as disposable_email's listing (a throw-away inbox service receives the mail), whose measured ratio supports strong",
      },
      {
        disposition: 'neutral',
        reason:
          "A listed throw-away domain's own exchanger repeats what the disposable check already counted; a consumer provider's exchangers say nothing of a mailbox's holder.",
      },
    ],
  });
  return defineCheck(info, async (ctx) => {
    const name = nameToQuery(ctx, false);
    if (typeof name !== 'string') return name;
    return mailExchangerAnswer(name, await lookup(config, ctx.signal, (resolver) => resolver.resolveMx(name)));
  });
}

function addressCheck(config: DnsCheckConfig): CheckDefinition {
  const info = networkInfo(config, {
    id: 'dns_address',
    kind: 'domain_resolves',
    artifactTypes: ['DOMAIN', 'URL'],
    trustBand: 'low',
    judges: 'host',
    looksAt: "the host's A and AAAA records in the DNS",
    declares: [
      { disposition: 'supports', strength: 'weak', reason: 'Nearly every presented host resolves, good or bad.' },
      { disposition: 'weakens', strength: 'moderate', reason: 'A host that does not exist or resolves nowhere cannot be a working site.' },
    ],
  });
  return defineCheck(info, async (ctx) => {
    const name = nameToQuery(ctx, false);
    if (typeof name !== 'string') return name;
    const [v4, v6] = await Promise.all([
      lookup(config, ctx.signal, (resolver) => resolver.resolve4(name)),
      lookup(config, ctx.signal, (resolver) => resolver.resolve6(name)),
    ]);
    return addressAnswer(name, v4, v6);
  });
}

function delegationCheck(config: DnsCheckConfig): CheckDefinition {
  const info = networkInfo(config, {
    id: 'dns_ns',
    kind: 'domain_delegation',
    artifactTypes: ['EMAIL', 'DOMAIN', 'URL'],
    trustBand: 'low',
    judges: 'domain',
    looksAt: "the registrable domain's NS delegation in the DNS",
    declares: [
      {
        disposition: 'supports',
        strength: 'weak',
        reason:
          'A consistent delegation (two or more name servers that resolve) is kept DNS, but most registered domains, good or bad, have one.',
      },
      { disposition: 'weakens', strength: 'moderate', reason: 'A domain that does not exist or is not delegated cannot be in real use.' },
      {
        disposition: 'neutral',
        reason: 'A single or lame name server is left on domains of every kind (parked, dropped, registry defaults).',
      },
    ],
  });
  return defineCheck(info, async (ctx) => {
    const name = nameToQuery(ctx, true);
    if (typeof name !== 'string') return name;
    const result = await lookup(config, ctx.signal, (resolver) => resolver.resolveNs(name));
    return delegationAnswer(name, result, await nameServers(config, ctx.signal, result));
  });
}

export function createDnsChecks(config: DnsCheckConfig): CheckDefinition[] {
  if (config.servers.length === 0) throw new Error('createDnsChecks needs at least one resolver address');
  // setServers validates the addresses; doing it once here fails at start-up rather than on every look-up.
  new dns.Resolver().setServers(config.servers);
  const checks = [mailExchangerCheck(config), addressCheck(config), delegationCheck(config)];
  if (config.canaryName === undefined) return checks;
  const canary = createResolverCanary({ servers: config.servers, name: config.canaryName, timeoutMs: config.timeoutMs });
  return checks.map((check) => guardedByCanary(check, canary));
}

/**
 * A resolver whose last answer to the known-good name was wrong (NXDOMAIN,
 * SERVFAIL...) or silence is not asked at all: its answers about the subject
 * are no evidence either way, and a silent one would make every look-up wait
 * out the network timeout (2 s by default). The check reports an absence
 * instead, and the plan answers it on the request path (src/assessment/plan.ts).
 * Before the canary's first answer the look-up runs, and a weakening answer
 * then stands only once the canary has answered right.
 */
const UNUSABLE_RESOLVER: Readonly<Record<'wrong' | 'silent', string>> = {
  wrong: 'The resolver did not answer a known-good name correctly, so no look-up was made.',
  silent: 'The resolver is not answering a known-good name, so no look-up was made.',
};

function unusableReason(canary: ResolverCanary): string | null {
  const last = canary.lastAnswer();
  return last === 'wrong' || last === 'silent' ? UNUSABLE_RESOLVER[last] : null;
}

function guardedByCanary(check: CheckDefinition, canary: ResolverCanary): CheckDefinition {
  return {
    ...check,
    unreachableReason: () => unusableReason(canary),
    async run(ctx) {
      const unusable = unusableReason(canary);
      if (unusable !== null) return { signals: [], absences: [absenceFor(ctx, 'error', unusable)] };
      const result = await check.run(ctx);
      if (!result.signals.some((s) => s.disposition === 'weakens') || (await canary.trustworthy())) return result;
      return {
        signals: result.signals.filter((s) => s.disposition !== 'weakens'),
        absences: [
          ...result.absences,
          absenceFor(
            ctx,
            'error',
            'The resolver did not answer a known-good name correctly, so its negative answers are not taken as evidence.',
          ),
        ],
      };
    },
  };
}

/** Discovery entry: DNS checks exist only when resolvers are configured. */
export function createChecks(config: CheckDiscoveryConfig): CheckDefinition[] {
  if (config.dnsServers === undefined || config.dnsServers.length === 0) return [];
  return createDnsChecks({
    servers: config.dnsServers,
    timeoutMs: config.networkTimeoutMs ?? DEFAULT_NETWORK_TIMEOUT_MS,
    ...(config.dnsCanary ? { canaryName: config.dnsCanary } : {}),
  });
}
