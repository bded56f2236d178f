import { z } from 'zod';

/**
 * Query strings. Values arrive as strings, so numbers are coerced; the
 * objects are closed like every other input, so a misspelt parameter is a
 * 422 rather than silently ignored.
 */

/** Cursor of an event stream: the `sequence` of the last event seen (opaque to clients). */
export const cursor = z.string().min(1).max(128);

export const AfterQuery = z.strictObject({
  after: cursor.optional().describe('Replay from after this event (its SSE id). `Last-Event-ID`, when sent, wins.'),
  ticket: z
    .string()
    .max(128)
    .optional()
    .describe(
      'For a browser EventSource, which cannot send an Authorization header: a one-time stream ticket from `POST .../events/tickets`.',
    ),
  access_token: z
    .string()
    .max(128)
    .optional()
    .describe(
      'Deprecated: an API key in the URL. Refused (401) unless the operator allows it (TAS_STREAM_ACCESS_TOKEN=allow); then answered with a `Deprecation` header. Use `ticket`.',
    ),
});

export const AuditQuery = z.strictObject({
  after: cursor.optional().describe('Continue after this audit_id.'),
  // 1000 rows is a page a client can hold and we can serve from one index scan.
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  // Filters (issue 18): every one given must hold.
  operation: z
    .string()
    .regex(/^[A-Za-z][A-Za-z0-9]{0,63}$/)
    .optional()
    .describe('Only calls of this operationId (e.g. createInquiry).'),
  status: z.coerce.number().int().min(100).max(599).optional().describe('Only calls answered with this HTTP status.'),
  key_id: z.uuid().optional().describe('Only calls made with this key.'),
  since: z.iso.datetime({ offset: true }).optional().describe('Only calls at or after this time.'),
  until: z.iso.datetime({ offset: true }).optional().describe('Only calls before this time.'),
});

export const ExportQuery = z.strictObject({
  format: z
    .enum(['bundle', 'bundle_with_bytes'])
    .default('bundle')
    .describe(
      "Evidentiary bundle: manifest of hashes, timeline, graph, assessments, audit excerpt, signature. `bundle_with_bytes` also carries, as `material/<sha256>`, the bytes of the case's material that retention kept (standard retention, not C2), up to 256 MiB.",
    ),
});

export const CloseCaseQuery = z.strictObject({
  finding: z.string().min(1).max(512).optional().describe('The finding the case closes with.'),
});

export const CloseSessionQuery = z.strictObject({
  reason: z.string().min(1).max(128).default('ended'),
});
