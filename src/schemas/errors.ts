import { z } from 'zod';
import { component, ScopeName, uuid } from './common.js';

/**
 * Error bodies (DESIGN.md 2.7). A 422 is always HTTPValidationError, with the
 * rule id as `type` for a rule refusal and `extra_forbidden` for an unknown
 * field; input values are never echoed. Every other error is an RFC 9457
 * problem document carrying the audit id of the call.
 */

export const ValidationIssue = component(
  'ValidationIssue',
  'One reason a request was refused: where (`loc`), why (`msg`) and a stable code or rule id (`type`).',
  z.strictObject({
    loc: z.array(z.union([z.string(), z.int()])).describe('Path to the offending input, for example `["body", "stake", "kind"]`.'),
    msg: z.string(),
    type: z.string().describe('A rule id (`I13`, ...) or a validation code (`extra_forbidden`, `missing`, ...).'),
    policy: z
      .strictObject({ policy_version: z.int().min(1), allowed: z.array(z.string()) })
      .optional()
      .describe(
        "Extension (issue 51): on an I13 or I14 refusal of a registered purpose or intent that the tenant's current policy leaves out, that policy's version and the values it allows.",
      ),
  }),
);

export const HTTPValidationError = component(
  'HTTPValidationError',
  'The request was refused (422). Do not retry it unchanged.',
  z.strictObject({ detail: z.array(ValidationIssue) }),
);

export const Problem = component(
  'Problem',
  'RFC 9457 problem details, served as application/problem+json.',
  z.strictObject({
    type: z.string().describe('URI identifying the problem type, `urn:tas:problem:<code>`.'),
    title: z.string(),
    status: z.int().min(400).max(599),
    detail: z.string(),
    audit_id: uuid.describe('Audit row written for this call; the same value as the X-Service-Audit-Id header.'),
    rule: z.string().optional().describe('Rule id, when a rule refused the call.'),
    missing_scope: ScopeName.optional().describe('On 403: the scope the key lacks.'),
    errors: z.array(ValidationIssue).optional().describe('Per-item reasons, when there are several.'),
    retry_after: z.int().min(0).optional().describe('On 429 and 503: the Retry-After header, in seconds.'),
    // The extension members the service sends (issue 16), each on the answers named.
    case_state: z
      .enum(['open', 'in_review', 'signed_off', 'closed'])
      .optional()
      .describe('On 409 from a case operation: the state that refused it.'),
    legal_hold: z.boolean().optional().describe('On 409 from a case operation: whether the case is on legal hold.'),
    max_bytes: z.int().min(0).optional().describe('On 413: the largest request body accepted, in bytes.'),
    budget: z
      .strictObject({ limit: z.number(), spent: z.number(), remaining: z.number() })
      .optional()
      .describe('On 409 from POST /v1/cases/{case_id}/expand (rule C03): the case budget, in check-cost units.'),
    estimated_cost: z.number().min(0).optional().describe('On 409 from an expansion (rule C03): what the hop would have cost.'),
    max_cost: z
      .number()
      .min(0)
      .optional()
      .describe("On 409 from an expansion (rule C03): the hop's own cap, when it was the one exceeded."),
    export_status: z
      .enum(['queued', 'building', 'ready', 'failed'])
      .optional()
      .describe('On 409 from a bundle download: the export is not ready.'),
  }),
);

/**
 * The problem types the service answers with (the same codes as
 * src/http/problems.ts). `type` is a URN: stable, and not mistaken for a page
 * we promise to serve.
 */
export const PROBLEM_TYPE_BASE = 'urn:tas:problem:';
export const PROBLEM_TYPES = {
  unauthorized: { status: 401, title: 'Unauthorized', when: 'No key, or a malformed, unknown, expired or revoked key.' },
  forbidden: {
    status: 403,
    title: 'Forbidden',
    when: 'A valid key without the scope (`missing_scope`), or a tenant the operation is not for.',
  },
  'not-found': { status: 404, title: 'Not Found', when: 'Unknown id; an id of another tenant or mode is answered identically.' },
  'method-not-allowed': { status: 405, title: 'Method Not Allowed', when: 'The path exists but not with this method; see `Allow`.' },
  conflict: {
    status: 409,
    title: 'Conflict',
    when: 'The resource is not in a state that allows this (for example export before sign-off).',
  },
  gone: { status: 410, title: 'Gone', when: 'An event cursor older than the retained stream: replay is impossible, not silently gapped.' },
  'payload-too-large': { status: 413, title: 'Payload Too Large', when: 'The request body exceeds the limit.' },
  'unsupported-media-type': { status: 415, title: 'Unsupported Media Type', when: 'A body that is not `application/json`.' },
  'rate-limited': { status: 429, title: 'Too Many Requests', when: 'Over the rate limit of the key; wait `Retry-After` seconds.' },
  'not-implemented': {
    status: 501,
    title: 'Not Implemented',
    when: 'Not answered by any operation today (every one is live); kept so that clients know the code.',
  },
  'engine-failed': { status: 502, title: 'Bad Gateway', when: 'The engine could not complete; retry once. `audit_id` names the attempt.' },
  unavailable: { status: 503, title: 'Service Unavailable', when: 'The node is draining or starting; retry after `Retry-After`.' },
} as const satisfies Record<string, { status: number; title: string; when: string }>;

export type ProblemSlug = keyof typeof PROBLEM_TYPES;

export function problemTypeUri(slug: ProblemSlug): string {
  return PROBLEM_TYPE_BASE + slug;
}

export type ValidationIssue = z.infer<typeof ValidationIssue>;
export type HTTPValidationError = z.infer<typeof HTTPValidationError>;
export type Problem = z.infer<typeof Problem>;
