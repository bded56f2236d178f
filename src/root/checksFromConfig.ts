import { getServers } from 'node:dns';
import type { Logger } from 'pino';
import { discoverChecks } from '../checks/registry.js';
import type { CheckDefinition } from '../checks/types.js';
import type { Config } from '../platform/config.js';
import { createModelRenderer } from '../reports/model.js';
import { isPublicHttpsTarget } from '../webhooks/targets.js';

/**
 * The settings that shape the checks and the report renderer
 * (docs/deploy.md), read once by the root: what each TAS_ setting means for
 * discovery is here, so the engine's wiring holds no configuration.
 */

/** TAS_DNS_SERVERS: `off` (the resolver's own), `system` (this host's), or a comma-separated list. */
function dnsServersOf(setting: string): { dnsServers?: string[] } {
  if (setting === 'off') return {};
  if (setting === 'system') return { dnsServers: getServers() };
  return {
    dnsServers: setting
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  };
}

export function discoverConfiguredChecks(config: Config, log: Logger): Promise<CheckDefinition[]> {
  return discoverChecks({
    ...dnsServersOf(config.TAS_DNS_SERVERS),
    ...(config.TAS_DNS_CANARY !== 'off' ? { dnsCanary: config.TAS_DNS_CANARY } : {}),
    ...(config.TAS_RDAP_BASE_URL !== 'off' ? { rdapBaseUrl: config.TAS_RDAP_BASE_URL } : {}),
    ...(config.TAS_PROVIDERS_FILE ? { providersFile: config.TAS_PROVIDERS_FILE } : {}),
    ...(config.TAS_POPULARITY_LIST ? { popularityFile: config.TAS_POPULARITY_LIST } : {}),
    ...(config.TAS_SANCTIONS_LIST ? { sanctionsFile: config.TAS_SANCTIONS_LIST } : {}),
    networkTimeoutMs: config.TAS_NETWORK_TIMEOUT_MS,
    // A redirect (RDAP's bootstrap service forwards to the registry) passes the webhooks' address guard.
    redirectGuard: isPublicHttpsTarget,
    // The operator learns of a failing dependency from the log; the id names the check, never a provider.
    onDependencyChange: (checkId, state) => {
      if (state === 'open') log.warn({ check: checkId }, "a network check's dependency is failing; it is not asked for 30 s");
      else log.info({ check: checkId }, "a network check's dependency answers again");
    },
  });
}

/** The report's model renderer when TAS_MODEL_ENDPOINT names one; none: the template alone. */
export function modelRendererFrom(config: Config, log: Logger) {
  if (!config.TAS_MODEL_ENDPOINT) return null;
  return createModelRenderer({
    endpoint: config.TAS_MODEL_ENDPOINT,
    ...(config.TAS_MODEL_API_KEY_ENV ? { apiKeyEnv: config.TAS_MODEL_API_KEY_ENV } : {}),
    timeoutMs: 10_000,
    promptVersion: 'report-prompt/1',
    onFailure: (reason) => log.warn({ reason }, 'model renderer fell back to the template'),
  });
}
