import { readFileSync } from 'node:fs';
import { z } from 'zod';

/**
 * The operator's description of HTTP providers: endpoint, auth and how the
 * answer maps to signals, with no code. Closed objects throughout, so a typo
 * in a key is an error at start-up rather than a silently ignored setting.
 *
 * `name` is for the operator's own records only. Nothing built from a
 * description carries it, validation refuses a description whose id, kind or
 * statements contain it, and errors raised here never quote it.
 */
const SNAKE_ID = /^[a-z][a-z0-9_]{1,62}$/;
const ENV_NAME = /^[A-Z_][A-Z0-9_]*$/;
const HEADER_NAME = /^[A-Za-z0-9-]+$/;
const ARTIFACT_TYPE = /^[A-Z][A-Z0-9_]*$/;
const STATUS_CODE = /^[1-5]\d\d$/;
const ORDERED_OPS = ['gt', 'lt', 'gte', 'lte'] as const;
const VALUELESS_OPS = ['exists', 'truthy'] as const;

const ruleSchema = z
  .strictObject({
    /** RFC 6901 pointer into the provider's JSON answer. */
    path: z.string().regex(/^(?:\/.*)?$/, 'must be a JSON pointer'),
    op: z.enum(['eq', 'neq', ...ORDERED_OPS, ...VALUELESS_OPS]),
    value: z.union([z.string(), z.number(), z.boolean(), z.null()]).optional(),
    disposition: z.enum(['supports', 'weakens', 'neutral']),
    /** The operator's neutral wording, shown as the signal's statement. */
    statement: z.string().trim().min(1).max(500),
  })
  .refine((rule) => (VALUELESS_OPS as readonly string[]).includes(rule.op) || rule.value !== undefined, {
    message: 'value is required for this op',
    path: ['value'],
  })
  .refine((rule) => !(ORDERED_OPS as readonly string[]).includes(rule.op) || typeof rule.value === 'number', {
    message: 'ordered comparisons need a numeric value',
    path: ['value'],
  });

const authSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('none') }),
  z.strictObject({ type: z.literal('bearer'), env: z.string().regex(ENV_NAME) }),
  z.strictObject({ type: z.literal('header'), env: z.string().regex(ENV_NAME), header: z.string().regex(HEADER_NAME) }),
]);

const requestSchema = z.strictObject({
  method: z.enum(['GET', 'POST']),
  /** `{value}` and `{normalised}` are replaced, URL-encoded. */
  url_template: z.string().regex(/^https?:\/\/\S+$/, 'must be an http(s) URL'),
  headers: z.record(z.string().regex(HEADER_NAME), z.string()).default({}),
  /** POST only: a flat JSON object whose string values may use the same placeholders. */
  body: z.record(z.string(), z.string()).optional(),
  auth: authSchema,
});

const providerSchema = z
  .strictObject({
    name: z.string().trim().min(3).max(200),
    id: z.string().regex(SNAKE_ID),
    kind: z.string().regex(SNAKE_ID),
    artifact_types: z.array(z.string().regex(ARTIFACT_TYPE)).min(1),
    // t0 means computed inline; anything reaching over the network is t1 or above.
    tier: z.enum(['t1', 't2']).default('t2'),
    provenance_class: z.string().regex(SNAKE_ID).default('third_party'),
    trust_band: z.enum(['high', 'medium', 'low']),
    // METHODOLOGY.md sections 7 and 8: the operator declares how diagnostic the provider's
    // supporting and weakening answers are. Moderate by default: no labelled corpus here
    // holds a provider's answers, and without a cited measurement section 8 allows at most moderate.
    strength: z
      .strictObject({
        supports: z.enum(['weak', 'moderate', 'strong']).default('moderate'),
        weakens: z.enum(['weak', 'moderate', 'strong']).default('moderate'),
      })
      .default({ supports: 'moderate', weakens: 'moderate' }),
    data_class: z.enum(['C0', 'C1', 'C2']),
    cost: z.number().nonnegative(),
    // A minute is already far beyond any inquiry deadline.
    timeout_ms: z.number().int().min(1).max(60_000),
    request: requestSchema,
    mapping: z.array(ruleSchema).min(1),
    on_status: z.record(z.string().regex(STATUS_CODE), z.enum(['no_data', 'refused', 'error', 'budget', 'timeout'])).default({}),
  })
  .superRefine((provider, ctx) => {
    const name = comparable(provider.name);
    const exposed = [provider.id, provider.kind, provider.provenance_class, ...provider.mapping.map((rule) => rule.statement)];
    if (exposed.some((text) => comparable(text).includes(name))) {
      ctx.addIssue({ code: 'custom', message: "the provider's name appears in its id, kind, provenance class or a statement" });
    }
  });

export const httpProvidersFileSchema = z.array(providerSchema).superRefine((providers, ctx) => {
  const seen = new Set<string>();
  providers.forEach((provider, index) => {
    if (seen.has(provider.id)) ctx.addIssue({ code: 'custom', path: [index, 'id'], message: 'duplicate provider id' });
    seen.add(provider.id);
  });
});

export type HttpProviderDescription = z.infer<typeof providerSchema>;
export type MappingRule = z.infer<typeof ruleSchema>;

/** Lower-case letters and digits only, so "Acme Secret-Intel" is caught as "acmesecretintel". */
function comparable(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
}

/**
 * Parses the description file's text. Errors name the offending path and
 * rule, never a value: JSON.parse's own messages quote the text around the
 * fault, which may be the provider's name.
 */
export function parseHttpProviders(text: string): HttpProviderDescription[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error('The HTTP providers file is not valid JSON.');
  }
  const parsed = httpProvidersFileSchema.safeParse(json);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((issue) => `${['providers', ...issue.path].join('.')}: ${issue.message}`);
  throw new Error(withoutNames(`The HTTP providers file is invalid: ${issues.join('; ')}`, json));
}

export function readHttpProvidersFile(filePath: string): HttpProviderDescription[] {
  return parseHttpProviders(readFileSync(filePath, 'utf8'));
}

/** Belt and braces: blanks any provider name that a schema message might have echoed. */
function withoutNames(message: string, json: unknown): string {
  if (!Array.isArray(json)) return message;
  let cleaned = message;
  for (const entry of json as unknown[]) {
    const name = typeof entry === 'object' && entry !== null ? (entry as { name?: unknown }).name : undefined;
    if (typeof name !== 'string' || name.trim() === '') continue;
    const escaped = name.trim().replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    cleaned = cleaned.replace(new RegExp(escaped, 'giu'), '[provider]');
  }
  return cleaned;
}
