import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloneDatabase, ownerClient } from '../support/database.js';

/**
 * 000034 stores the large JSON values compressed with lz4 rather than pglz,
 * where the server has lz4 (this machine's PostgreSQL does). An assessment's
 * findings are the largest value an inquiry writes.
 */
let database: { url: string; drop: () => Promise<void> };
let owner: pg.Client;
let lz4Available = false;

beforeAll(async () => {
  database = await cloneDatabase();
  owner = await ownerClient(database.url);
  try {
    await owner.query(`CREATE TEMP TABLE lz4_probe (v text COMPRESSION lz4)`);
    lz4Available = true;
  } catch {
    lz4Available = false;
  }
});
afterAll(async () => {
  await owner?.end();
  await database?.drop();
});

describe('000034: large JSON values compressed with lz4', () => {
  it("sets lz4 on the columns that hold an inquiry's large values", async () => {
    const { rows } = await owner.query<{ col: string; method: string }>(`
      SELECT attrelid::regclass || '.' || attname AS col, attcompression AS method FROM pg_attribute
      WHERE (attrelid, attname) IN (('assessments'::regclass, 'findings'), ('assessments'::regclass, 'inputs'),
        ('idempotency_keys'::regclass, 'response'), ('actor_events'::regclass, 'payload'), ('outbox'::regclass, 'payload'),
        ('actors'::regclass, 'snapshot'), ('inquiries'::regclass, 'request'))
      ORDER BY 1`);
    expect(rows).toHaveLength(7);
    // 'l' is lz4; '' is the server's default (pglz), which a server without lz4 keeps.
    for (const row of rows) expect(row.method, row.col).toBe(lz4Available ? 'l' : '');
  });
});
