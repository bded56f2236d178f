import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStatementPool, type StatementPool } from '../../src/platform/db/namedStatements.js';
import { cloneDatabase } from '../support/database.js';
import { serviceLoginUrl } from '../support/service.js';

/**
 * The named-statement pool keeps the connections it opened (issue 37): a new
 * backend's first call of tas_inquiry_open costs it 150-250 ms, so a pool
 * that closed idle connections after a few seconds made every burst at a
 * moderate rate pay that again. Here the idle timeout is 50 ms: connections
 * opened by three concurrent calls must still be the ones answering after
 * ten times that long.
 */
let database: { url: string; drop: () => Promise<void> };
let pool: StatementPool;

beforeAll(async () => {
  database = await cloneDatabase();
  pool = createStatementPool(serviceLoginUrl(database.url), { idleTimeout: 50, maximumPoolSize: 3 });
});

afterAll(async () => {
  await pool?.end();
  await database?.drop();
});

const PID = { name: 'test_backend_pid', text: 'SELECT pg_backend_pid() AS pid, pg_sleep(0.05)' };

async function threeAtOnce(): Promise<number[]> {
  const rows = await Promise.all([1, 2, 3].map(() => pool.run<{ pid: number }>(PID, [])));
  return rows.map((r) => r[0]!.pid).sort((a, b) => a - b);
}

describe('the named-statement pool', () => {
  it('keeps its connections past the idle timeout: the same backends answer after a pause', async () => {
    const first = await threeAtOnce();
    expect(new Set(first).size).toBe(3);
    await new Promise((r) => setTimeout(r, 500));
    expect(await threeAtOnce()).toEqual(first);
  });
});
