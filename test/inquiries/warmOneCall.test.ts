import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rehearsalPayload, warmOneCall } from '../../src/inquiries/oneCall.js';
import { createStatementPool, STATEMENT_POOL_APPLICATION, type StatementPool } from '../../src/platform/db/namedStatements.js';
import { ownerClient } from '../support/database.js';
import { serviceLoginUrl, startTestService, type TestService } from '../support/service.js';

/**
 * An edge warms its statement connections before it listens
 * (TAS_WARM_STATEMENTS): every connection runs the inquiry's one call once,
 * for a new subject of a tenant no one has, in a transaction rolled back.
 * The warm-up writes a whole new subject (so every statement of that path is
 * planned) and keeps none of it.
 */
let ts: TestService;
let owner: pg.Client;
let statements: StatementPool;
const POOL = 4;
const TABLES = ['entities', 'entity_identifiers', 'inquiries', 'actors', 'idempotency_keys', 'assessments', 'actor_events', 'outbox'];

beforeAll(async () => {
  ts = await startTestService({}, { workers: false });
  statements = createStatementPool(serviceLoginUrl(ts.dbUrl), { maximumPoolSize: POOL });
  owner = await ownerClient(ts.dbUrl);
});
afterAll(async () => {
  await statements?.end();
  await owner?.end();
  await ts?.stop();
});

async function rowCounts(): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of TABLES) counts[table] = Number((await owner.query(`SELECT count(*) FROM ${table}`)).rows[0].count);
  return counts;
}

describe('warming the statement connections', () => {
  it('given a rehearsal payload, then the function writes the whole new subject (answer written) before the rollback', async () => {
    await owner.query('BEGIN');
    try {
      const { rows } = await owner.query('SELECT tas_inquiry_open($1::jsonb) AS answer', [JSON.stringify(rehearsalPayload())]);
      expect(rows[0].answer.status).toBe('written');
    } finally {
      await owner.query('ROLLBACK');
    }
  });

  it('given a pool of four, then each of its four connections runs the call once and no row stays', async () => {
    const before = await rowCounts();
    expect(await warmOneCall(statements)).toBe(POOL);
    expect(await rowCounts()).toEqual(before);
    const backends = await owner.query(
      'SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1',
      [STATEMENT_POOL_APPLICATION],
    );
    expect(Number(backends.rows[0].count)).toBe(POOL);
  });

  it('given a pool that cannot reach PostgreSQL, then the warm-up answers 0 and throws nothing', async () => {
    const unreachable = createStatementPool('postgres://tas_app@127.0.0.1:1/none', { maximumPoolSize: 2, connectionTimeout: 300 });
    try {
      expect(await warmOneCall(unreachable)).toBe(0);
    } finally {
      await unreachable.end();
    }
  });
});
