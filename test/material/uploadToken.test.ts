import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Db } from '../../src/platform/db/pool.js';
import { receiveUpload } from '../../src/material/upload.js';
import { ServiceProblem } from '../../src/platform/problems.js';
import { countingDb } from '../support/countingDb.js';
import { cloneDatabase } from '../support/database.js';
import { serviceLoginUrl } from '../support/service.js';

/**
 * Issue 40: a malformed upload token is refused with 404 before any
 * database work. A tenant part of 36 dashes used to reach PostgreSQL's uuid
 * cast and come back as a 502.
 */
let database: Awaited<ReturnType<typeof cloneDatabase>>;
let pool: Db;
beforeAll(async () => {
  database = await cloneDatabase();
  pool = await createDb(serviceLoginUrl(database.url), { maximumPoolSize: 1 });
});
afterAll(async () => {
  await pool?.end();
  await database?.drop();
});

const SECRET = 'A'.repeat(43);
async function* nothing(): AsyncIterable<Buffer> {}

describe('a malformed upload token', () => {
  it.each([
    ['36 dashes for the tenant', `${'-'.repeat(36)}.test.${SECRET}`],
    ['a tenant that is not a uuid', `${'0'.repeat(36)}.live.${SECRET}`],
    ['an unknown mode', `0b0e0d2c-95a4-4d7c-9a53-4b7ad0c0ffee.prod.${SECRET}`],
    ['a short secret', '0b0e0d2c-95a4-4d7c-9a53-4b7ad0c0ffee.test.abc'],
    ['nothing like a token', 'nonsense'],
  ])('given %s, then 404 and no transaction was opened', async (_name, token) => {
    const counted = countingDb(pool, 'transaction');
    const refusal = await receiveUpload(counted.db, 'mat_x', token, nothing(), () => new Date()).catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(ServiceProblem);
    expect((refusal as ServiceProblem).status).toBe(404);
    expect(counted.calls()).toBe(0);
  });
});
