import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloneDatabase, ownerClient } from '../support/database.js';

/**
 * The velocity probe keeps one generic plan per connection (000031), made at
 * the connection's first inquiry, often on an empty table. Planned there, it
 * walked the primary key (id, tenant_id) on its second column: every
 * inquiry of every tenant, read again by each later inquiry, for as long as
 * the connection lived (issue 37: 351 heap pages per inquiry after 320 of
 * them). 000080 leaves it one way in, the GIN index on tenant and value.
 * Here one connection plans it on the empty table, the table grows to
 * thousands of inquiries of two tenants without an ANALYZE, and the same
 * connection's next probe still touches a few pages and counts only its own
 * tenant's.
 */
const ROWS = 3000;
let database: { url: string; drop: () => Promise<void> };
let owner: pg.Client;
const tenant = randomUUID();
const other = randomUUID();

const probe = `SELECT * FROM tas_presentation_velocity(ARRAY['EMAIL', 'PHONE'], ARRAY['user17@example.org', '+44207'])`;

beforeAll(async () => {
  database = await cloneDatabase();
  owner = await ownerClient(database.url);
  await owner.query(`ALTER TABLE inquiries SET (autovacuum_enabled = false)`);
  await owner.query(`INSERT INTO tenants (id, name) VALUES ($1, 'young'), ($2, 'other')`, [tenant, other]);
  await owner.query(`SELECT set_config('tas.tenant_id', $1, false), set_config('tas.mode', 'live', false)`, [tenant]);
});

afterAll(async () => {
  await owner?.end();
  await database?.drop();
});

const insert = (tenantId: string, prefix: string) =>
  owner.query(
    `
    INSERT INTO inquiries (id, tenant_id, mode, status, intent, purpose, request, principal)
    SELECT md5($2 || g)::uuid, $1, 'live', 'concluded', 'onboarding', 'fraud_prevention',
      jsonb_build_object('presentations', jsonb_build_array(
        jsonb_build_object('type', 'EMAIL', 'value', 'user' || g || '@example.org', 'normalised', 'user' || g || '@example.org'),
        jsonb_build_object('type', 'PHONE', 'value', '+4420' || (g % 100), 'normalised', '+4420' || (g % 100)))),
      'key:young'
    FROM generate_series(1, ${ROWS}) g`,
    [tenantId, prefix],
  );

describe('the velocity probe planned on an empty table', () => {
  it('still probes the index once the table holds thousands of inquiries, and counts its own tenant only', async () => {
    // The connection's first call plans the statement on the empty table.
    expect((await owner.query(probe)).rows.map((r: { last_day: number }) => r.last_day)).toEqual([0, 0]);
    await insert(tenant, 'i');
    await insert(other, 'o');
    const { rows } = await owner.query(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${probe}`);
    const plan = (rows[0] as { 'QUERY PLAN': [{ Plan: { 'Shared Hit Blocks': number; 'Shared Read Blocks': number } }] })['QUERY PLAN'][0]
      .Plan;
    // A walk of the key reads every one of the 6,000 rows (hundreds of pages); the probe a few dozen.
    expect(plan['Shared Hit Blocks'] + plan['Shared Read Blocks']).toBeLessThan(60);
    const counts = await owner.query(probe);
    expect(counts.rows).toEqual([
      { type: 'EMAIL', normalised: 'user17@example.org', last_hour: 1, last_day: 1 },
      { type: 'PHONE', normalised: '+44207', last_hour: ROWS / 100, last_day: ROWS / 100 },
    ]);
  });
});
