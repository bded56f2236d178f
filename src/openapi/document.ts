import type { CatalogueRow } from '../checks/catalogue.js';
import type { z } from 'zod';
import type { OperationSpec } from '../schemas/operation.js';
import { RULES } from '../platform/rules.js';
import { HTTPValidationError, Problem, PROBLEM_TYPES, problemTypeUri, type ProblemSlug } from '../schemas/errors.js';
import { EVENT_PAYLOADS, EventEnvelope, STREAM_EVENTS, WebhookEventType } from '../events/schemas.js';
import { infoDescription, TAG_DESCRIPTIONS } from './description.js';
import { AUDIT_HEADER, AUDIT_HEADER_REF, errorResponses, HEADER_COMPONENTS, responseComponents } from './responses.js';
import { compare, convertSchemas, SCHEMA_REF_PREFIX, schemaRefs, type ConvertedSchemas, type JsonSchema } from './schemaConversion.js';
import { REQUEST_EXAMPLES, RESPONSE_EXAMPLES } from './examples.js';

/**
 * The OpenAPI 3.1 document, generated from the same OperationSpec list the
 * router serves and the same zod schemas that validate requests, so what is
 * documented and what is served cannot drift apart. Pure and deterministic:
 * the same operations and build give the same JSON, byte for byte.
 */

export const OPENAPI_VERSION = '0.1.0a0';

/** Problem type URIs by code, for clients and tests. */
export const problemTypes: Readonly<Record<ProblemSlug, string>> = Object.fromEntries(
  (Object.keys(PROBLEM_TYPES) as ProblemSlug[]).map((slug) => [slug, problemTypeUri(slug)]),
) as Record<ProblemSlug, string>;

/**
 * `checks` is this deployment's catalogue of check kinds with their declared
 * strengths (src/checks/catalogue.ts), published as `x-check-catalogue`.
 */
export function buildOpenApiDocument(
  ops: readonly OperationSpec[],
  info: { build: string; checks?: readonly CatalogueRow[] },
): Record<string, unknown> {
  const roots: z.ZodType[] = [Problem, HTTPValidationError, EventEnvelope, ...Object.values(EVENT_PAYLOADS)];
  for (const op of ops) {
    if (op.body) roots.push(op.body);
    if (op.query) roots.push(op.query);
    if (op.success.schema) roots.push(op.success.schema);
  }
  const schemas = convertSchemas(roots);

  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of ops) {
    const item = (paths[op.path] ??= {});
    if (item[op.method]) throw new Error(`duplicate operation ${op.method.toUpperCase()} ${op.path}`);
    item[op.method] = operationObject(op, schemas);
  }
  const webhooks = webhookObjects();
  const responses = responseComponents();

  const tags = [...new Set([...ops.map((op) => op.tag), 'Webhooks'])].map((name) => ({
    name,
    description: TAG_DESCRIPTIONS[name] ?? name,
  }));

  return {
    openapi: '3.1.0',
    info: {
      title: 'Trust Assessment Service',
      version: OPENAPI_VERSION,
      description: infoDescription(info.build),
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
      'x-build': info.build,
    },
    servers: [{ url: '/', description: 'The server this document was fetched from.' }],
    'x-check-catalogue': info.checks ?? [],
    security: [{ bearerAuth: [] }],
    tags,
    paths,
    webhooks,
    components: {
      schemas: usedComponents(schemas.components, [paths, webhooks, responses]),
      responses,
      headers: HEADER_COMPONENTS,
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description: 'An API key: `tas_live_...` or `tas_test_...`, shown once when minted.',
        },
      },
    },
    'x-rules': { ...RULES },
    'x-problem-types': problemTypes,
  };
}

function operationObject(op: OperationSpec, schemas: ConvertedSchemas): Record<string, unknown> {
  const parameters = [...pathParameters(op), ...queryParameters(op, schemas), ...headerParameters(op)];
  const access = op.auth === 'open' ? 'No key needed.' : op.auth === 'key' ? 'Any valid key.' : `Requires scope \`${op.auth}\`.`;
  return {
    operationId: op.operationId,
    summary: op.summary,
    description: op.description ? `${op.description}\n\n${access}` : access,
    tags: [op.tag],
    security: op.auth === 'open' ? [] : [{ bearerAuth: [] }],
    ...(op.auth !== 'open' && op.auth !== 'key' ? { 'x-required-scope': op.auth } : {}),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(op.body
      ? {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: schemas.schemaFor(op.body), ...requestExample(op.operationId) } },
          },
        }
      : {}),
    ...(op.bytesBody
      ? {
          requestBody: {
            required: true,
            description: op.bytesBody.description,
            content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
          },
        }
      : {}),
    responses: { [String(op.success.status)]: successResponse(op, schemas), ...streamEndedResponse(op), ...errorResponses(op) },
  };
}

function pathParameters(op: OperationSpec): unknown[] {
  return Object.entries(op.params ?? {}).map(([name, format]) => ({
    name,
    in: 'path',
    required: true,
    description: format === 'uuid' ? `Id of the ${name.replace(/_id$/, '')} (uuid).` : `Id of the ${name.replace(/_id$/, '')}.`,
    schema: format === 'uuid' ? { type: 'string', format: 'uuid' } : { type: 'string', minLength: 1 },
  }));
}

function queryParameters(op: OperationSpec, schemas: ConvertedSchemas): unknown[] {
  if (!op.query) return [];
  const object = schemas.schemaFor(op.query);
  const required = new Set((object.required as string[] | undefined) ?? []);
  return Object.entries((object.properties ?? {}) as Record<string, JsonSchema>).map(([name, schema]) => {
    const { description, ...rest } = schema;
    return {
      name,
      in: 'query',
      required: required.has(name),
      ...(typeof description === 'string' ? { description } : {}),
      schema: rest,
    };
  });
}

const IDEMPOTENCY_HEADER = {
  name: 'Idempotency-Key',
  required: false,
  description:
    'Makes a retry safe: the same key with the same request gets the first answer again (with `Idempotent-Replayed: true`); ' +
    'with another request it is refused (rule I17); while the first is still running, 409 with Retry-After. 1-128 visible ASCII characters, per tenant, mode and operation.',
};

function headerParameters(op: OperationSpec): unknown[] {
  return [...(op.headers ?? []), ...(op.replayable ? [IDEMPOTENCY_HEADER] : [])].map((h) => ({
    name: h.name,
    in: 'header',
    required: h.required,
    description: h.description,
    schema: { type: 'string', maxLength: 128 },
  }));
}

/** SSE: a reconnect to a stream that has ended (the client holds its last event) gets 204, the standard signal to stop. */
function streamEndedResponse(op: OperationSpec): Record<string, unknown> {
  if (op.success.contentType !== 'text/event-stream') return {};
  return {
    204: {
      description: 'The stream has ended and the cursor is at its end: stop reconnecting.',
      headers: { [AUDIT_HEADER]: AUDIT_HEADER_REF },
    },
  };
}

function successResponse(op: OperationSpec, schemas: ConvertedSchemas): Record<string, unknown> {
  const headers = { [AUDIT_HEADER]: AUDIT_HEADER_REF };
  const type = op.success.contentType ?? 'application/json';
  if (op.success.status === 204) return { description: op.success.description, headers };
  if (type === 'text/event-stream') {
    const stream = streamOf(op.path);
    const events = stream ? STREAM_EVENTS[stream] : [];
    return {
      description: op.success.description,
      headers,
      content: {
        'text/event-stream': {
          schema: { type: 'string', description: 'Lines `event: <type>`, `id: <sequence>`, `data: <EventEnvelope as JSON>`.' },
          'x-events': Object.fromEntries(events.map((e) => [e, { $ref: SCHEMA_REF_PREFIX + e }])),
        },
      },
    };
  }
  if (type === 'text/html') {
    return { description: op.success.description, headers, content: { 'text/html': { schema: { type: 'string' } } } };
  }
  if (type === 'application/x-ndjson') {
    const schema = { type: 'string', description: 'One JSON document a line.' };
    return { description: op.success.description, headers, content: { 'application/x-ndjson': { schema } } };
  }
  if (type === 'application/gzip') {
    return {
      description: op.success.description,
      headers,
      content: { 'application/gzip': { schema: { type: 'string', contentMediaType: 'application/gzip' } } },
    };
  }
  const schema = op.success.schema ? schemas.schemaFor(op.success.schema) : {};
  return { description: op.success.description, headers, content: { [type]: { schema, ...responseExample(op.operationId) } } };
}

function streamOf(path: string): keyof typeof STREAM_EVENTS | null {
  const family = path.split('/')[2];
  if (family === 'inquiries') return 'inquiry';
  if (family === 'cases') return 'case';
  if (family === 'monitors') return 'monitor';
  return null;
}

/** OpenAPI 3.1 `webhooks`: what a registered endpoint receives, one entry per event type. */
function webhookObjects(): Record<string, unknown> {
  const signing = [
    ['webhook-id', 'Delivery id; the same on every retry, for de-duplication.'],
    ['webhook-timestamp', 'Unix seconds when the delivery was signed; reject ones too old.'],
    ['webhook-signature', 'Space-separated `v1,<base64 HMAC-SHA256>` over `id.timestamp.body` with the webhook secret.'],
  ] as const;
  const out: Record<string, unknown> = {};
  for (const type of WebhookEventType.options) {
    out[type] = {
      post: {
        operationId: `deliver${type}`,
        summary: `${type} delivery`,
        description: `An EventEnvelope with \`type\` ${type}. Answer 2xx within 10 s; anything else is retried on the published schedule (immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, with jitter; a longer \`Retry-After\` is honoured). 410 disables the endpoint.`,
        tags: ['Webhooks'],
        security: [],
        parameters: signing.map(([name, description]) => ({ name, in: 'header', required: true, description, schema: { type: 'string' } })),
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: `${SCHEMA_REF_PREFIX}EventEnvelope` } } } },
        responses: {
          '2XX': { description: 'Delivery accepted.' },
          '410': { description: 'Gone: the endpoint is disabled and receives nothing more.' },
          '4XX': { description: 'Delivery refused; retried on the published schedule.' },
        },
      },
    };
  }
  return out;
}

/** The named schemas the document references, directly or through each other, in id order. */
function usedComponents(all: Record<string, JsonSchema>, from: unknown[]): Record<string, JsonSchema> {
  const used = new Set<string>();
  const queue = [...schemaRefs(from)];
  while (queue.length > 0) {
    const id = queue.pop()!;
    if (used.has(id)) continue;
    used.add(id);
    const body = all[id];
    if (!body) throw new Error(`schema component ${id} is referenced but was not converted`);
    for (const ref of schemaRefs(body)) if (!used.has(ref)) queue.push(ref);
  }
  return Object.fromEntries([...used].sort(compare).map((id) => [id, all[id]!]));
}

/** The operation's request example (src/openapi/examples.ts), when it has one. */
function requestExample(operationId: string): { example?: unknown } {
  return Object.hasOwn(REQUEST_EXAMPLES, operationId) ? { example: REQUEST_EXAMPLES[operationId] } : {};
}

/** The operation's success example (src/openapi/examples.ts), when it has one. */
function responseExample(operationId: string): { example?: unknown } {
  return Object.hasOwn(RESPONSE_EXAMPLES, operationId) ? { example: RESPONSE_EXAMPLES[operationId] } : {};
}
