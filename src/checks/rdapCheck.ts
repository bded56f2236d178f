import { PUBLIC_FACT, absent, defineCheck, neutral, supports, weakens, type Answer } from './evidence.js';
import { hostOf, viewHost, type HostView } from './hosts.js';
import { fetchJson, isServiceFailure, type HttpJsonOutcome, type RedirectGuard } from './httpJson.js';
import {
  createDependencyBreaker,
  createReachabilityProbe,
  SKIPPED,
  type DependencyBreaker,
  type ProbeAnswer,
  type ReachabilityProbe,
} from './dependencyBreaker.js';
import { DEFAULT_NETWORK_TIMEOUT_MS } from './networkDefaults.js';
import type { CheckDiscoveryConfig } from './registry.js';
import type { CheckDefinition, NormalisedPresentation } from './types.js';

/**
 * How long ago the registrable domain was registered, from the registration
 * event of its RDAP record (RFC 9083). Most abusive domains are used within
 * weeks of registration, so a domain younger than 90 days weakens; one older
 * than two years has outlived most abuse and supports. The fact stated is the
 * domain's age, which is observed now: dating it at the registration would let
 * the methodology's half-life erase exactly the old domains it should credit.
 */
export interface RdapCheckConfig {
  /** RDAP service base, e.g. `https://rdap.example.net`; requests go to `${baseUrl}/domain/${domain}`. */
  baseUrl: string;
  timeoutMs: number;
  /**
   * Approves each redirect the service answers with (the composition root
   * passes the outbound address guard: https, public addresses only). Without
   * it a redirect is not followed and the look-up reports an absence.
   */
  redirectGuard?: RedirectGuard;
  /** Told when a registry's breaker opens or closes, with the top-level domain it serves. */
  onRegistryChange?: (tld: string, state: 'open' | 'closed') => void;
  /**
   * Ask the service whether it answers at all, at once and then every 30 s
   * while the check is used (discovery turns it on): while it does not, no
   * look-up is planned or made. Told when that changes.
   */
  probe?: { onChange?: (state: 'open' | 'closed') => void };
}

const DAY_MS = 86_400_000;
const YOUNG_DOMAIN_DAYS = 90;
const ESTABLISHED_DOMAIN_DAYS = 730;
// An RDAP domain answer with its entities is a few kilobytes; a megabyte is already a broken or hostile server.
const MAX_RDAP_BYTES = 1_048_576;

/** The registration date in an RDAP domain object, or null when it has none. */
export function registrationDate(body: unknown): Date | null {
  if (typeof body !== 'object' || body === null) return null;
  const events = (body as { events?: unknown }).events;
  if (!Array.isArray(events)) return null;
  for (const event of events as unknown[]) {
    if (typeof event !== 'object' || event === null) continue;
    const { eventAction, eventDate } = event as { eventAction?: unknown; eventDate?: unknown };
    if (eventAction !== 'registration' || typeof eventDate !== 'string') continue;
    const date = new Date(eventDate);
    if (!Number.isNaN(date.getTime())) return date;
  }
  return null;
}

function ageAnswer(domain: string, registered: Date, now: Date): Answer {
  const days = Math.max(0, Math.floor((now.getTime() - registered.getTime()) / DAY_MS));
  const day = registered.toISOString().slice(0, 10);
  const observedAt = now;
  if (days < YOUNG_DOMAIN_DAYS) {
    return weakens(`The domain ${domain} was registered ${days} ${days === 1 ? 'day' : 'days'} ago, on ${day}.`, { observedAt });
  }
  if (days > ESTABLISHED_DOMAIN_DAYS) {
    return supports(`The domain ${domain} was registered more than two years ago, on ${day}.`, { observedAt });
  }
  return neutral(`The domain ${domain} was registered ${days} days ago, on ${day}.`, { observedAt });
}

function failureAnswer(outcome: Exclude<HttpJsonOutcome, { status: 'ok' }>): Answer {
  switch (outcome.status) {
    case 'timeout':
      return absent('timeout', 'The registration registry did not answer in time.');
    case 'http_error':
      return outcome.httpStatus === 404
        ? absent('no_data', 'The registration registry has no record of the domain.')
        : absent('error', 'The registration registry answered with an error.');
    case 'unreadable':
      return absent('error', "The registration registry's answer could not be read.");
    case 'unreachable':
      return absent('error', 'The registration registry could not be reached.');
  }
}

const RDAP_CHECK_ID = 'rdap_domain_age';

/** The RDAP service's health for /healthz, from the deployment's own checks: degraded while any registry's breaker is open. */
export function registryHealthOf(checks: readonly CheckDefinition[]): 'unchecked' | 'ok' | 'degraded' {
  const rdap = checks.find((check) => check.id === RDAP_CHECK_ID);
  return rdap?.dependencyHealth?.() ?? 'unchecked';
}

/** The registrable domain an RDAP look-up asks about, or null when there is none. */
function registrableOf(presentation: NormalisedPresentation): HostView | null {
  const host = hostOf(presentation);
  const view = host === null ? null : viewHost(host);
  return view === null || view.registrable === null || !view.isIcann ? null : view;
}

/**
 * One breaker per top-level domain: each is served by its own registry
 * behind the redirector, and one registry failing or rate-limiting (a 429
 * from one TLD's registry) must not stop the look-ups of every other.
 * Bounded: only ICANN suffixes reach it.
 */
function registryBreakers(onChange?: RdapCheckConfig['onRegistryChange']) {
  const byTld = new Map<string, DependencyBreaker>();
  const tldOf = (view: HostView) => view.suffix!.slice(view.suffix!.lastIndexOf('.') + 1);
  return {
    for(view: HostView): DependencyBreaker {
      const tld = tldOf(view);
      let breaker = byTld.get(tld);
      if (breaker === undefined) {
        breaker = createDependencyBreaker(onChange ? { onChange: (state) => onChange(tld, state) } : {});
        byTld.set(tld, breaker);
      }
      return breaker;
    },
    isOpen: (view: HostView) => byTld.get(tldOf(view))?.open() ?? false,
    anyOpen: () => [...byTld.values()].some((breaker) => breaker.open()),
  };
}

const REGISTRY_SKIPPED = 'The registration registry has been failing to answer, so it was not asked.';
const SERVICE_UNREACHABLE = 'The registration registry cannot be reached, so it was not asked.';

/**
 * The probe's question: does the RDAP service answer HTTP at all? It asks
 * the RDAP help query (RFC 9082 3.1.6) without following a redirect, so one
 * slow registry behind a redirector is not mistaken for the service: any
 * answer below 500 is an answer; no connection, no answer within the network
 * timeout, or a server error is down.
 */
export async function askService(base: string, timeoutMs: number): Promise<ProbeAnswer> {
  try {
    const response = await fetch(`${base}/help`, {
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
      headers: { accept: 'application/rdap+json' },
    });
    await response.body?.cancel().catch(() => undefined);
    return response.status >= 500 ? 'down' : 'up';
  } catch {
    return 'down';
  }
}

export function createRdapCheck(config: RdapCheckConfig): CheckDefinition {
  const base = config.baseUrl.replace(/\/+$/, '');
  // Per check instance: the plan and the worker of one process share them (src/checks/dependencyBreaker.ts).
  const registries = registryBreakers(config.onRegistryChange);
  const service: ReachabilityProbe | null = config.probe
    ? createReachabilityProbe({
        ask: () => askService(base, config.timeoutMs),
        ...(config.probe.onChange ? { onChange: config.probe.onChange } : {}),
      })
    : null;
  const serviceDown = () => service?.lastAnswer() === 'down';
  const check = defineCheck(
    {
      id: RDAP_CHECK_ID,
      kind: 'domain_age',
      judges: 'domain',
      looksAt: "the domain's registration date in the registry's RDAP record",
      declares: [
        {
          disposition: 'weakens',
          strength: 'moderate',
          reason:
            'A domain registered days ago is the hallmark of phishing and throw-away fraud; a network look-up no corpus here can hold, so at most moderate.',
        },
        {
          disposition: 'supports',
          strength: 'moderate',
          reason: 'An old domain is a real but modest indicator: old domains are also bought or hijacked.',
        },
        { disposition: 'neutral', reason: 'A domain between three months and two years old says little either way.' },
      ],
      artifactTypes: ['EMAIL', 'DOMAIN', 'URL'],
      tier: 't1',
      runs: 'worker',
      cost: 0,
      timeoutMs: config.timeoutMs,
      provenanceClass: 'third_party',
      trustBand: 'high',
      dataClass: PUBLIC_FACT,
    },
    async ({ presentation, signal, now }) => {
      const view = registrableOf(presentation);
      if (view === null) return absent('no_data', 'There is no registered domain to look up.');
      if (serviceDown()) return absent('error', SERVICE_UNREACHABLE);
      const url = `${base}/domain/${encodeURIComponent(view.registrable!)}`;
      const outcome = await registries.for(view).call(
        () =>
          fetchJson({
            url,
            headers: { accept: 'application/rdap+json, application/json' },
            redirect: config.redirectGuard ?? 'error',
            timeoutMs: config.timeoutMs,
            maxBytes: MAX_RDAP_BYTES,
            signal,
          }),
        isServiceFailure,
        signal,
      );
      if (outcome === SKIPPED) return absent('error', REGISTRY_SKIPPED);
      if (outcome.status !== 'ok') return failureAnswer(outcome);
      const registered = registrationDate(outcome.body);
      return registered === null
        ? absent('no_data', 'The registration record gives no registration date.')
        : ageAnswer(view.registrable!, registered, now);
    },
  );
  return {
    ...check,
    unreachableReason(presentation) {
      // Nothing registrable is answered by the check itself (no_data), never as the service's absence.
      if (serviceDown()) return registrableOf(presentation) === null ? null : SERVICE_UNREACHABLE;
      // Asked of every planned look-up: the value is read only while some registry is being left alone.
      if (!registries.anyOpen()) return null;
      const view = registrableOf(presentation);
      return view !== null && registries.isOpen(view) ? REGISTRY_SKIPPED : null;
    },
    dependencyHealth: () => (serviceDown() || registries.anyOpen() ? 'degraded' : 'ok'),
  };
}

/** Discovery entry: the RDAP check exists only when an RDAP service is configured. */
export function createChecks(config: CheckDiscoveryConfig): CheckDefinition[] {
  if (config.rdapBaseUrl === undefined) return [];
  const onChange = config.onDependencyChange;
  return [
    createRdapCheck({
      baseUrl: config.rdapBaseUrl,
      timeoutMs: config.networkTimeoutMs ?? DEFAULT_NETWORK_TIMEOUT_MS,
      ...(config.redirectGuard ? { redirectGuard: config.redirectGuard } : {}),
      ...(onChange ? { onRegistryChange: (tld: string, state: 'open' | 'closed') => onChange(`${RDAP_CHECK_ID} (.${tld})`, state) } : {}),
      probe: onChange ? { onChange: (state) => onChange(RDAP_CHECK_ID, state) } : {},
    }),
  ];
}
