import { describe, expect, it } from 'vitest';
import { classifyError } from '../../src/edge/errorMapping.js';

/**
 * Every way PostgreSQL or Redis says it is away maps to 503 unavailable with
 * Retry-After (seen under `npm run bench:faults`); anything else is 502.
 */
describe('classifyError', () => {
  it.each([
    ['a dropped PostgreSQL connection', Object.assign(new Error('Connection terminated unexpectedly'), { name: 'Error' })],
    ['a terminated backend', new Error('Backend has been terminated unexpectedly.')],
    ['a reset socket', Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' })],
    ['Redis without its offline queue', new Error("Stream isn't writeable and enableOfflineQueue options is false")],
    [
      'ioredis giving up a command',
      Object.assign(new Error('Reached the max retries per request limit (which is 1).'), { name: 'MaxRetriesPerRequestError' }),
    ],
    ['a wrapped cause', new Error('query failed', { cause: Object.assign(new Error('x'), { code: '57P01' }) })],
  ])('%s is 503 with Retry-After', (_what, error) => {
    const problem = classifyError(error);
    expect(problem.code).toBe('unavailable');
    expect(problem.headers['Retry-After']).toBeTruthy();
  });

  it('a bug is 502', () => {
    expect(classifyError(new TypeError('x is undefined')).code).toBe('engine-failed');
  });
});
