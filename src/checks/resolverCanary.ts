import { promises as dns } from 'node:dns';

/**
 * The resolver canary (issue 11). A DNS check's negative answer ("this domain
 * does not exist") is evidence only if the resolver tells the truth; a
 * resolver that is broken, filtered or hijacked would turn every subject into
 * a non-existent one. So before any DNS check gives weakening evidence, the
 * resolver must have answered a known-good name (TAS_DNS_CANARY, by default
 * `example.com`, which IANA keeps resolving) with an address within the last
 * CANARY_TTL_MS. When it has not, the check reports an absence instead, and
 * /healthz reports the resolver as degraded.
 */
const CANARY_TTL_MS = 30_000;

export type ResolverHealth = 'unchecked' | 'ok' | 'degraded';

/** How the resolver last answered the known-good name: right, wrongly (NXDOMAIN, SERVFAIL...), or not at all. */
export type CanaryAnswer = 'ok' | 'wrong' | 'silent';

export interface ResolverCanary {
  /** Whether the resolver answered the known-good name recently; asks it when the answer is stale. */
  trustworthy(): Promise<boolean>;
  /**
   * How the resolver last answered the known-good name, or null before its
   * first answer. Never waits: a stale answer is kept while a fresh one is
   * asked in the background.
   */
  lastAnswer(): CanaryAnswer | null;
  health(): ResolverHealth;
}

let latest: ResolverCanary | null = null;

/** The health of the canary the DNS checks use, for /healthz ('unchecked' with no DNS checks). */
export function resolverHealth(): ResolverHealth {
  return latest?.health() ?? 'unchecked';
}

// Codes for a resolver that did not answer at all, as opposed to one that answered wrongly.
const SILENCE = new Set<string>([dns.TIMEOUT, dns.CANCELLED, dns.CONNREFUSED]);

/**
 * The canary is asked once when it is made, so /healthz and the checks know
 * about a resolver that does not answer before the first inquiry pays for
 * it, and then again whenever its answer is older than CANARY_TTL_MS and a
 * check asks.
 */
export function createResolverCanary(opts: { servers: string[]; name: string; timeoutMs: number; now?: () => number }): ResolverCanary {
  const now = opts.now ?? Date.now;
  let checkedAt = -Infinity;
  let answer: CanaryAnswer | null = null;
  let inFlight: Promise<CanaryAnswer> | null = null;

  async function ask(): Promise<CanaryAnswer> {
    const resolver = new dns.Resolver({ timeout: opts.timeoutMs, tries: 1 });
    resolver.setServers(opts.servers);
    const timer = setTimeout(() => resolver.cancel(), opts.timeoutMs);
    try {
      return (await resolver.resolve4(opts.name)).length > 0 ? 'ok' : 'wrong';
    } catch (error) {
      return SILENCE.has((error as NodeJS.ErrnoException).code ?? '') ? 'silent' : 'wrong';
    } finally {
      clearTimeout(timer);
    }
  }

  const isFresh = () => answer !== null && now() - checkedAt < CANARY_TTL_MS;
  function refresh(): Promise<CanaryAnswer> {
    inFlight ??= ask().then((a) => {
      answer = a;
      checkedAt = now();
      inFlight = null;
      return a;
    });
    return inFlight;
  }

  const canary: ResolverCanary = {
    async trustworthy() {
      return (isFresh() ? answer : await refresh()) === 'ok';
    },
    lastAnswer() {
      if (!isFresh()) void refresh();
      return answer;
    },
    health: () => (answer === null ? 'unchecked' : answer === 'ok' ? 'ok' : 'degraded'),
  };
  latest = canary;
  void refresh();
  return canary;
}
