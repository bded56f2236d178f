import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

/**
 * Checks what the service sends against the document it serves: every
 * answer's status must be documented for its operation, and its JSON body
 * must match the schema documented for that status and media type; every
 * event sent on a stream must match the EventEnvelope schema. Switched on by
 * `TAS_CHECK_RESPONSES` (the test suite runs with it, so a full run of the
 * suite is a full run of every operation and stream against the document);
 * off in production, where it would cost a validation per answer.
 *
 * A mismatch is reported, never sent differently: the caller logs it.
 */
export interface ResponseChecker {
  /** Violations of one answer; empty when it matches. */
  answer(operationId: string, status: number, contentType: string, body: string | Buffer): string[];
  /** Violations of one event envelope. */
  event(envelope: unknown): string[];
}

interface OperationRef {
  path: string;
  method: string;
}

const escapePointer = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

export function createResponseChecker(document: Record<string, unknown>): ResponseChecker {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  // ajv-formats ships CommonJS typings whose default export, imported as ESM, types as the module
  // object rather than the plugin function it is at run time.
  (addFormats as unknown as (a: Ajv2020) => void)(ajv);
  ajv.addSchema({ ...document, $id: 'tas:openapi' });
  const operations = new Map<string, OperationRef & { responses: Record<string, { $ref?: string; content?: Record<string, unknown> }> }>();
  for (const [path, item] of Object.entries(
    document.paths as Record<
      string,
      Record<string, { operationId?: string; responses?: Record<string, { content?: Record<string, unknown> }> }>
    >,
  )) {
    for (const [method, op] of Object.entries(item)) {
      if (op.operationId) operations.set(op.operationId, { path, method, responses: op.responses ?? {} });
    }
  }
  const shared = ((document.components as Record<string, unknown> | undefined)?.responses ?? {}) as Record<
    string,
    { content?: Record<string, unknown> }
  >;
  // A documented response is written out, or a $ref to a shared one (NotFound, ValidationError...).
  const responseOf = (
    op: OperationRef & { responses: Record<string, { $ref?: string; content?: Record<string, unknown> }> },
    status: number,
  ) => {
    const entry = op.responses[String(status)];
    if (!entry) return null;
    const name = entry.$ref?.match(/^#\/components\/responses\/(.+)$/)?.[1];
    if (name !== undefined)
      return shared[name] ? { response: shared[name], pointer: `/components/responses/${escapePointer(name)}` } : null;
    return { response: entry, pointer: `/paths/${escapePointer(op.path)}/${op.method}/responses/${status}` };
  };
  const compiled = new Map<string, ValidateFunction>();
  const validatorFor = (pointer: string): ValidateFunction => {
    let v = compiled.get(pointer);
    if (!v) {
      v = ajv.compile({ $ref: `tas:openapi#${pointer}` });
      compiled.set(pointer, v);
    }
    return v;
  };
  const errorsOf = (v: ValidateFunction) =>
    (v.errors ?? []).slice(0, 5).map((e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`);

  return {
    answer(operationId, status, contentType, body) {
      const op = operations.get(operationId);
      if (!op) return [];
      const found = responseOf(op, status);
      if (!found) return [`status ${status} is not documented for ${operationId}`];
      if (body.length === 0) return [];
      const mediaType = contentType.split(';')[0]!.trim();
      // A JSON document (application/json, problem+json), not a stream of them (application/x-ndjson).
      if (!mediaType.endsWith('json') || mediaType.endsWith('ndjson')) return [];
      if (!found.response.content?.[mediaType]) return [`${mediaType} is not documented for ${operationId} ${status}`];
      const pointer = `${found.pointer}/content/${escapePointer(mediaType)}/schema`;
      let parsed: unknown;
      try {
        parsed = JSON.parse(String(body));
      } catch {
        return [`${operationId} ${status}: the body is not JSON`];
      }
      const v = validatorFor(pointer);
      return v(parsed) ? [] : errorsOf(v).map((e) => `${operationId} ${status}: ${e}`);
    },
    event(envelope) {
      const v = validatorFor('/components/schemas/EventEnvelope');
      return v(envelope) ? [] : errorsOf(v).map((e) => `event ${(envelope as { type?: string })?.type ?? '?'}: ${e}`);
    },
  };
}
