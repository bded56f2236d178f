import type { z } from 'zod';

/**
 * One operation of the contract, described once. The router registers it, the
 * validator parses with its schemas and the OpenAPI document is generated from
 * it, so what is documented and what is served cannot drift apart.
 */
export type Scope =
  | 'inquiries'
  | 'findings'
  | 'observations'
  | 'outcomes'
  | 'material'
  | 'cases'
  | 'monitors'
  | 'sessions'
  | 'entities'
  | 'registry'
  | 'admin';

export const NON_ADMIN_SCOPES: readonly Scope[] = [
  'inquiries',
  'findings',
  'observations',
  'outcomes',
  'material',
  'cases',
  'monitors',
  'sessions',
  'entities',
  'registry',
];
export const ALL_SCOPES: readonly Scope[] = [...NON_ADMIN_SCOPES, 'admin'];

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface OperationSpec {
  operationId: string;
  method: HttpMethod;
  /** OpenAPI path template, e.g. `/v1/inquiries/{inquiry_id}`. */
  path: string;
  tag: string;
  summary: string;
  description?: string;
  /** `open`: no key (only /healthz, /openapi.json, /docs); `key`: any valid key; otherwise the scope required. */
  auth: 'open' | 'key' | Scope;
  /** Path parameters and their format; `uuid` ones are checked before the handler runs. */
  params?: Record<string, 'uuid' | 'string'>;
  /** Closed object schema of the query string (values arrive as strings; use z.coerce where needed). */
  query?: z.ZodObject;
  /** Closed request body schema; its presence means the operation takes a JSON body. */
  body?: z.ZodType;
  /**
   * The operation takes raw bytes (PUT), streamed to the handler; documented as application/octet-stream.
   * `maxBytes` is the most the stream may carry: the edge reads it here and answers 413 past it.
   */
  bytesBody?: { description: string; maxBytes: number };
  /** Extra request headers documented (e.g. X-Purpose). */
  headers?: { name: string; required: boolean; description: string }[];
  success: {
    status: 200 | 201 | 202 | 204;
    description: string;
    /** JSON schema of the body; omitted for 204 and for SSE. */
    schema?: z.ZodType;
    /** Default application/json. */
    contentType?: 'application/json' | 'text/event-stream' | 'text/html' | 'application/gzip' | 'application/x-ndjson';
  };
  /**
   * Takes the Idempotency-Key header (src/edge/replay.ts): a POST that creates
   * and whose answer carries no secret (a secret is shown once, never kept).
   */
  replayable?: true;
  /** Error statuses beyond those the document derives from the operation's shape (src/openapi/responses.ts). */
  extraErrors?: (403 | 404 | 409 | 410 | 413)[];
  /** Whether the operation can answer 422 HTTPValidationError (SPEC: all but registry, policy list and health). */
  validation: boolean;
}
