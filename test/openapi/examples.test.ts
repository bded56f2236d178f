import { describe, expect, it } from 'vitest';
import { REQUEST_EXAMPLES, RESPONSE_EXAMPLES } from '../../src/openapi/examples.js';
import { OPERATIONS } from '../../src/schemas/operations.js';

/**
 * Every operation that takes a JSON body shows a request example in the
 * document (issue 16), and every example is a body the service accepts: it
 * is parsed with the operation's own schema, the one the validator uses.
 */
const withBody = OPERATIONS.filter((op) => op.body !== undefined);

describe('request examples', () => {
  it('every operation with a JSON body has one, and no example names an operation without a body', () => {
    expect(withBody.filter((op) => !Object.hasOwn(REQUEST_EXAMPLES, op.operationId)).map((op) => op.operationId)).toEqual([]);
    const bodied = new Set(withBody.map((op) => op.operationId));
    expect(Object.keys(REQUEST_EXAMPLES).filter((id) => !bodied.has(id))).toEqual([]);
  });

  it.each(withBody.map((op) => [op.operationId, op] as const))('the example of %s parses with its body schema', (_id, op) => {
    const parsed = op.body!.safeParse(REQUEST_EXAMPLES[op.operationId]);
    expect(parsed.success ? [] : parsed.error.issues).toEqual([]);
  });
});

describe('response examples', () => {
  const shown = OPERATIONS.filter((op) => Object.hasOwn(RESPONSE_EXAMPLES, op.operationId));

  // The document itself and the operator's /healthz (free-form by design) are the only JSON answers without one.
  const EXEMPT = ['getOpenApi', 'getHealthz'];

  it('every operation that answers JSON has one, and none names an operation that does not', () => {
    const json = OPERATIONS.filter(
      (op) => op.success.schema !== undefined && (op.success.contentType ?? 'application/json') === 'application/json',
    );
    expect(
      json
        .filter((op) => !EXEMPT.includes(op.operationId) && !Object.hasOwn(RESPONSE_EXAMPLES, op.operationId))
        .map((op) => op.operationId),
    ).toEqual([]);
    expect(Object.keys(RESPONSE_EXAMPLES).filter((id) => !json.some((op) => op.operationId === id))).toEqual([]);
  });

  it.each(shown.map((op) => [op.operationId, op] as const))('the success example of %s parses with its response schema', (_id, op) => {
    const parsed = op.success.schema!.safeParse(RESPONSE_EXAMPLES[op.operationId]);
    expect(parsed.success ? [] : parsed.error.issues).toEqual([]);
  });
});
