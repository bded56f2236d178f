import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloneDatabase, ownerClient } from '../support/database.js';

/**
 * 000033 removes the rows the relay kept after carrying them out (before
 * 2026-11-26) and leaves the pending ones, which the relay and the sweep
 * still owe. Run here on a migrated database holding both kinds.
 */
let database: { url: string; drop: () => Promise<void> };
let owner: pg.Client;

beforeAll(async () => {
  database = await cloneDatabase();
  owner = await ownerClient(database.url);
});
afterAll(async () => {
  await owner?.end();
  await database?.drop();
});

describe('000033: the outbox rows kept by the old relay', () => {
  it('deletes the rows already carried out and keeps the pending ones', async () => {
    const tenantId = randomUUID();
    await owner.query(`INSERT INTO tenants (id, name) VALUES ($1, 'outbox-kept')`, [tenantId]);
    await owner.query(
      `
      INSERT INTO outbox (tenant_id, mode, kind, payload, dispatched_at)
      SELECT $1, 'live', 'publish', '{}', CASE WHEN g % 3 = 0 THEN NULL ELSE now() END FROM generate_series(1, 30) g`,
      [tenantId],
    );
    await owner.query(readFileSync(new URL('../../sql/000033_outbox_kept_rows_removed.sql', import.meta.url), 'utf8'));
    const { rows } = await owner.query(
      `SELECT count(*)::int AS n, count(*) FILTER (WHERE dispatched_at IS NULL)::int AS pending FROM outbox WHERE tenant_id = $1`,
      [tenantId],
    );
    expect(rows[0]).toEqual({ n: 10, pending: 10 });
  });
});
