import type { OperationSpec } from '../schemas/operation.js';
import { PROBLEM_TYPES, problemTypeUri, type ProblemSlug } from '../schemas/errors.js';
import { SCHEMA_REF_PREFIX } from './schemaConversion.js';

/**
 * The error responses of the document: one reusable response per problem
 * type, and the rule deciding which of them each operation can answer.
 */

export const AUDIT_HEADER = 'X-Service-Audit-Id';
export const AUDIT_HEADER_REF = { $ref: '#/components/headers/AuditId' };
const RETRY_AFTER_REF = { $ref: '#/components/headers/RetryAfter' };
/** A fixed example audit id, so the document is byte-for-byte reproducible. */
const EXAMPLE_AUDIT_ID = '0193a5b0-7c1e-7d2a-9b3c-4d5e6f708192';

export const HEADER_COMPONENTS = {
  AuditId: {
    description: 'Id of the one audit row this call wrote, refused or not (also `audit_id` in problem bodies).',
    required: true,
    schema: { type: 'string', format: 'uuid' },
  },
  RetryAfter: {
    description: 'Seconds to wait before retrying.',
    required: true,
    schema: { type: 'integer', minimum: 0 },
  },
} as const;

interface ErrorResponse {
  name: string;
  slug: ProblemSlug;
  retryAfter?: boolean;
}

/** Status -> component response name and problem type. */
const ERRORS: Record<number, ErrorResponse> = {
  401: { name: 'Unauthorized', slug: 'unauthorized' },
  403: { name: 'Forbidden', slug: 'forbidden' },
  404: { name: 'NotFound', slug: 'not-found' },
  409: { name: 'Conflict', slug: 'conflict' },
  410: { name: 'Gone', slug: 'gone' },
  413: { name: 'PayloadTooLarge', slug: 'payload-too-large' },
  415: { name: 'UnsupportedMediaType', slug: 'unsupported-media-type' },
  429: { name: 'RateLimited', slug: 'rate-limited', retryAfter: true },
  502: { name: 'EngineFailed', slug: 'engine-failed' },
  503: { name: 'Unavailable', slug: 'unavailable', retryAfter: true },
};

export function responseComponents(): Record<string, unknown> {
  const out: Record<string, unknown> = {
    ValidationError: {
      description:
        'Refused: a field is missing, malformed or unknown (`extra_forbidden`), or a rule refused the call (`type` is the rule id). Do not retry unchanged.',
      headers: { [AUDIT_HEADER]: AUDIT_HEADER_REF },
      content: {
        'application/json': {
          schema: { $ref: `${SCHEMA_REF_PREFIX}HTTPValidationError` },
          example: { detail: [{ loc: ['body', 'purpose'], msg: 'Field required', type: 'missing' }] },
        },
      },
    },
  };
  for (const { name, slug, retryAfter } of Object.values(ERRORS)) {
    const problem = PROBLEM_TYPES[slug];
    out[name] = {
      description: `${problem.title}: ${problem.when}`,
      headers: { [AUDIT_HEADER]: AUDIT_HEADER_REF, ...(retryAfter ? { 'Retry-After': RETRY_AFTER_REF } : {}) },
      content: {
        'application/problem+json': {
          schema: { $ref: `${SCHEMA_REF_PREFIX}Problem` },
          example: {
            type: problemTypeUri(slug),
            title: problem.title,
            status: problem.status,
            detail: problem.when,
            audit_id: EXAMPLE_AUDIT_ID,
            ...(slug === 'forbidden' ? { missing_scope: 'admin' } : {}),
          },
        },
      },
    };
  }
  return out;
}

/** The error statuses an operation can answer, each as a `$ref` to its component response. */
export function errorResponses(op: OperationSpec): Record<string, unknown> {
  const keyed = op.auth !== 'open';
  const statuses: number[] = [];
  if (keyed) statuses.push(401);
  if (keyed && op.auth !== 'key') statuses.push(403);
  if (op.params) statuses.push(404);
  // Commands on an existing resource can meet it in the wrong state; an inquiry can meet its idempotency key in use (I17).
  // An Idempotency-Key retry can meet its first call still running.
  if ((op.method === 'post' && op.params) || op.operationId === 'createInquiry' || op.replayable) statuses.push(409);
  if (op.success.contentType === 'text/event-stream') statuses.push(410);
  if (op.body) statuses.push(413, 415);
  if (op.validation) statuses.push(422);
  if (keyed) statuses.push(429);
  if (keyed) statuses.push(502);
  statuses.push(503);
  // What the rules above cannot know: an operation names its other refusals itself.
  for (const extra of op.extraErrors ?? []) if (!statuses.includes(extra)) statuses.push(extra);
  statuses.sort((a, b) => a - b);

  const out: Record<string, unknown> = {};
  for (const status of statuses) {
    const name = status === 422 ? 'ValidationError' : ERRORS[status]?.name;
    if (name) out[String(status)] = { $ref: `#/components/responses/${name}` };
  }
  return out;
}
