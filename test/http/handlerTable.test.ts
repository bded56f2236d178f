import { describe, expect, it } from 'vitest';
import { assertEveryOperationHandled } from '../../src/edge/app.js';
import type { Handler } from '../../src/edge/handler.js';
import { OPERATIONS } from '../../src/schemas/operations.js';

/** Handlers are joined to operations by operationId, checked both ways when the app is built (issue 13). */
const handler: Handler = () => Promise.resolve({ status: 204 });

function completeTable(): Map<string, Handler> {
  return new Map(OPERATIONS.map((op) => [op.operationId, handler]));
}

describe('the handler table', () => {
  it('given a handler for every operation, then the app may start', () => {
    expect(() => assertEveryOperationHandled(completeTable())).not.toThrow();
  });

  it('given a handler under a misspelt operationId, then start-up fails naming it', () => {
    const table = completeTable();
    table.set('createInquiri', handler);
    expect(() => assertEveryOperationHandled(table)).toThrow(/a handler names no operation: createInquiri/);
  });

  it('given an operation without a handler, then start-up fails naming it', () => {
    const table = completeTable();
    table.delete('getInquiry');
    expect(() => assertEveryOperationHandled(table)).toThrow(/an operation has no handler: getInquiry/);
  });
});
