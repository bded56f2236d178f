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

export interface ResolverCanary {
  /** Whether the resolver answered the known-good name recently; asks it when the answer is stale. */
  trustworthy(): Promise<boolean>;
  health(): ResolverHealth;
}

let latest: ResolverCanary | null = null;

/** The health of the canary the DNS checks use, for /healthz ('unchecked' with no DNS checks). */
export function resolverHealth(): ResolverHealth {
  return latest?.health() ?? 'unchecked';
}

export function createResolverCanary(opts: { servers: string[]; name: string; timeoutMs: number; now?: () => number }): ResolverCanary {
  const now = opts.now ?? Date.now;
  let checkedAt = -Infinity;
  let healthy: boolean | null = null;
  let inFlight: Promise<boolean> | null = null;

  async function ask(): Promise<boolean> {
    const resolver = new dns.Resolver({ timeout: opts.timeoutMs, tries: 1 });
    resolver.setServers(opts.servers);
    const timer = setTimeout(() => resolver.cancel(), opts.timeoutMs);
    try {
      return (await resolver.resolve4(opts.name)).length > 0;
    } catch {
      return false;
    } finally {
      clearTimeout(timer);
    }
  }

  const canary: ResolverCanary = {
    async trustworthy() {
      if (healthy !== null && now() - checkedAt < CANARY_TTL_MS) return healthy;
      inFlight ??= ask().then((ok) => {
        healthy = ok;
        checkedAt = now();
        inFlight = null;
        return ok;
      });
      return inFlight;
    },
    health: () => (healthy === null ? 'unchecked' : healthy ? 'ok' : 'degraded'),
  };
  latest = canary;
  return canary;
}
