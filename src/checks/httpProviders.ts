import { absent, defineCheck, type Answer, type CheckInfo, type SignalAnswer } from './evidence.js';
import { readHttpProvidersFile, type HttpProviderDescription, type MappingRule } from './httpProviderSchema.js';
import { fetchJson, isServiceFailure, type HttpJsonOutcome } from './httpJson.js';
import { createDependencyBreaker, SKIPPED } from './dependencyBreaker.js';
import { resolvePointer } from './jsonPointer.js';
import type { CheckDiscoveryConfig } from './registry.js';
import type { AbsenceKind, CheckDefinition, NormalisedPresentation } from './types.js';

/**
 * Operator-configured HTTP providers as checks. The provider's answer is
 * read inside the check and reduced to the operator's own statements through
 * the mapping rules; the raw payload, the URL and the provider's name never
 * leave it. Every failure is an absence with fixed, neutral wording.
 */
export type { HttpProviderDescription } from './httpProviderSchema.js';
export { parseHttpProviders } from './httpProviderSchema.js';

/** What a check keeps of a description: everything but the operator's name for the provider. */
type Described = Omit<HttpProviderDescription, 'name'>;

export interface HttpProviderDeps {
  /** Where auth secrets are read from, at each run (default: process.env). */
  env?: Record<string, string | undefined>;
  /** Told, by the check's id (never the provider's name), when a provider's breaker opens or closes. */
  onDependencyChange?: (checkId: string, state: 'open' | 'closed') => void;
}

// A provider's verdict is a small JSON object; anything past 256 KiB is a fault or an attack on our memory.
const MAX_PROVIDER_BYTES = 262_144;

const STATUS_REASONS: Record<AbsenceKind, string> = {
  no_data: 'The provider has no record of this value.',
  refused: 'The provider refused the request.',
  budget: "The provider's usage allowance is exhausted.",
  error: 'The provider answered with an error.',
  timeout: 'The provider did not answer in time.',
  unregistered: 'The provider is not available.',
};

function fillTemplate(template: string, presentation: NormalisedPresentation, encode: (text: string) => string): string {
  return template.replace(/\{(value|normalised)\}/g, (_, field: 'value' | 'normalised') => encode(presentation[field]));
}

type RequestDescription = HttpProviderDescription['request'];

/** Request headers with the secret added, or null when the secret is not set. */
function headersFor(request: RequestDescription, env: Record<string, string | undefined>): Record<string, string> | null {
  const headers: Record<string, string> = { accept: 'application/json', ...request.headers };
  if (request.method === 'POST' && !Object.keys(headers).some((header) => header.toLowerCase() === 'content-type')) {
    headers['content-type'] = 'application/json';
  }
  const { auth } = request;
  if (auth.type === 'none') return headers;
  const secret = env[auth.env];
  if (secret === undefined || secret === '') return null;
  if (auth.type === 'bearer') headers.authorization = `Bearer ${secret}`;
  else headers[auth.header] = secret;
  return headers;
}

function bodyFor(request: RequestDescription, presentation: NormalisedPresentation): string | undefined {
  if (request.method !== 'POST' || request.body === undefined) return undefined;
  // Values go into JSON as they are: JSON.stringify does the escaping a URL needed encodeURIComponent for.
  const filled = Object.entries(request.body).map(([key, template]) => [key, fillTemplate(template, presentation, (text) => text)]);
  return JSON.stringify(Object.fromEntries(filled));
}

function asNumber(found: unknown): number | null {
  if (typeof found === 'number' && Number.isFinite(found)) return found;
  // Providers often quote numbers ("score": "87"); a numeric string is read as its number.
  if (typeof found === 'string' && /^-?\d+(?:\.\d+)?$/.test(found.trim())) return Number(found);
  return null;
}

export function ruleMatches(rule: MappingRule, document: unknown): boolean {
  const found = resolvePointer(document, rule.path);
  if (rule.op === 'exists') return found !== undefined;
  if (rule.op === 'truthy') return Boolean(found);
  if (found === undefined) return false;
  if (rule.op === 'eq') return found === rule.value;
  if (rule.op === 'neq') return found !== rule.value;
  const actual = asNumber(found);
  const expected = rule.value as number;
  if (actual === null) return false;
  switch (rule.op) {
    case 'gt':
      return actual > expected;
    case 'lt':
      return actual < expected;
    case 'gte':
      return actual >= expected;
    case 'lte':
      return actual <= expected;
  }
}

function mapAnswer(description: Described, document: unknown): Answer[] {
  const matched = description.mapping.filter((rule) => ruleMatches(rule, document));
  if (matched.length === 0) return [absent('no_data', "The provider's answer held nothing about this value.")];
  return matched.map((rule): SignalAnswer => ({ disposition: rule.disposition, statement: rule.statement }));
}

function failureAnswer(description: Described, outcome: Exclude<HttpJsonOutcome, { status: 'ok' }>): Answer {
  switch (outcome.status) {
    case 'timeout':
      return absent('timeout', STATUS_REASONS.timeout);
    case 'http_error': {
      const kind = description.on_status[String(outcome.httpStatus)] ?? 'error';
      return absent(kind, STATUS_REASONS[kind]);
    }
    case 'unreadable':
      return absent('error', "The provider's answer could not be read.");
    case 'unreachable':
      return absent('error', 'The provider could not be reached.');
  }
}

function infoOf(description: Described): CheckInfo {
  return {
    id: description.id,
    kind: description.kind,
    artifactTypes: description.artifact_types,
    tier: description.tier,
    runs: 'worker',
    cost: description.cost,
    timeoutMs: description.timeout_ms,
    provenanceClass: description.provenance_class,
    trustBand: description.trust_band,
    dataClass: description.data_class,
    looksAt: "the operator-configured provider's answer about the value",
    declares: [
      {
        disposition: 'supports',
        strength: description.strength.supports,
        reason: "Declared by the operator in the provider's description.",
      },
      { disposition: 'weakens', strength: description.strength.weakens, reason: "Declared by the operator in the provider's description." },
      { disposition: 'neutral', reason: 'Reported only.' },
    ],
  };
}

const PROVIDER_SKIPPED = 'The provider has been failing to answer, so it was not asked.';

function providerCheck(description: Described, deps: HttpProviderDeps): CheckDefinition {
  // One breaker per provider: an outage costs two inquiries the timeout, not every one (src/checks/dependencyBreaker.ts).
  const onChange = deps.onDependencyChange;
  const provider = createDependencyBreaker(onChange ? { onChange: (state) => onChange(description.id, state) } : {});
  const check = defineCheck(infoOf(description), async ({ presentation, signal }) => {
    const headers = headersFor(description.request, deps.env ?? process.env);
    if (headers === null) return absent('error', 'The provider check is missing its credentials.');
    const outcome = await provider.call(
      () =>
        fetchJson({
          url: fillTemplate(description.request.url_template, presentation, encodeURIComponent),
          method: description.request.method,
          headers,
          body: bodyFor(description.request, presentation),
          // Following a redirect would carry a custom auth header to wherever it points.
          redirect: 'error',
          timeoutMs: description.timeout_ms,
          maxBytes: MAX_PROVIDER_BYTES,
          signal,
        }),
      isServiceFailure,
      signal,
    );
    if (outcome === SKIPPED) return absent('error', PROVIDER_SKIPPED);
    return outcome.status === 'ok' ? mapAnswer(description, outcome.body) : failureAnswer(description, outcome);
  });
  return { ...check, unreachableReason: () => (provider.open() ? PROVIDER_SKIPPED : null) };
}

export function createHttpProviderChecks(descriptions: readonly HttpProviderDescription[], deps: HttpProviderDeps = {}): CheckDefinition[] {
  // The name is dropped here so that no check, closure or error can ever reach it.
  return descriptions.map(({ name: _operatorLabel, ...described }) => providerCheck(described, deps));
}

export function loadHttpProviders(filePath: string, deps: HttpProviderDeps = {}): CheckDefinition[] {
  return createHttpProviderChecks(readHttpProvidersFile(filePath), deps);
}

/** Discovery entry: providers exist only when the operator configured a description file. */
export function createChecks(config: CheckDiscoveryConfig): CheckDefinition[] {
  if (config.providersFile === undefined) return [];
  return loadHttpProviders(config.providersFile, config.onDependencyChange ? { onDependencyChange: config.onDependencyChange } : {});
}
