import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { sql } from 'slonik';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, withTenant, type Db } from '../../src/platform/db/pool.js';
import { MAX_PREPARED, REPEATS_BEFORE_PREPARING, createStatementNamer } from '../../src/platform/db/preparedStatements.js';
import { cloneDatabase, ownerClient } from '../support/database.js';

describe('which statements run prepared', () => {
  it('given a text run fewer times than the threshold, then it stays unnamed, and from then on it has one name', () => {
    const namer = createStatementNamer();
    const names = Array.from({ length: REPEATS_BEFORE_PREPARING + 2 }, () => namer.nameFor('SELECT $1'));
    expect(names.slice(0, REPEATS_BEFORE_PREPARING - 1)).toEqual(Array(REPEATS_BEFORE_PREPARING - 1).fill(null));
    const named = names.slice(REPEATS_BEFORE_PREPARING - 1);
    expect(named[0]).toMatch(/^tas_[0-9a-f]{24}$/);
    expect(new Set(named).size).toBe(1);
  });

  it('given two texts, then they get two names', () => {
    const namer = createStatementNamer();
    const nameOf = (text: string) => Array.from({ length: REPEATS_BEFORE_PREPARING }, () => namer.nameFor(text)).at(-1);
    expect(nameOf('SELECT $1')).not.toBe(nameOf('SELECT $1 + 1'));
  });

  it('given more repeated texts than the cap, then the texts beyond it stay unnamed however often they run', () => {
    const namer = createStatementNamer();
    for (let i = 0; i < MAX_PREPARED + 5; i += 1)
      for (let r = 0; r < REPEATS_BEFORE_PREPARING + 3; r += 1) namer.nameFor(`SELECT ${i}, $1`);
    expect(namer.prepared()).toBe(MAX_PREPARED);
    expect(namer.nameFor(`SELECT ${MAX_PREPARED + 1}, $1`)).toBeNull();
  });
});

describe('prepared statements on a real connection', () => {
  let database: { url: string; drop: () => Promise<void> };
  let owner: pg.Client;
  let db: Db;
  const tenantA = randomUUID();
  const tenantB = randomUUID();

  beforeAll(async () => {
    database = await cloneDatabase();
    owner = await ownerClient(database.url);
    for (const [id, count] of [
      [tenantA, 2],
      [tenantB, 5],
    ] as const) {
      await owner.query(`INSERT INTO tenants (id, name) VALUES ($1, $2)`, [id, `prepared-${id}`]);
      await owner.query(
        `INSERT INTO entities (id, tenant_id, mode) SELECT gen_random_uuid(), $1, 'live' FROM generate_series(1, ${count})`,
        [id],
      );
    }
    db = await createDb(database.url, { maximumPoolSize: 1 });
  });

  afterAll(async () => {
    await db?.end();
    await owner?.end();
    await database?.drop();
  });

  it('given a statement repeated on one connection, then PostgreSQL holds it prepared and its answers stay right', async () => {
    const text = 'SELECT $1::int + 1 AS n';
    const answers: number[] = [];
    const prepared = await db.connect(async (connection) => {
      for (let i = 0; i < REPEATS_BEFORE_PREPARING + 2; i += 1)
        answers.push(await connection.oneFirst(sql.type(z.object({ n: z.number() }))`SELECT ${i}::int + 1 AS n`));
      return connection.anyFirst(
        sql.type(z.object({ statement: z.string() }))`SELECT statement FROM pg_prepared_statements WHERE name LIKE 'tas\\_%'`,
      );
    });
    expect(answers).toEqual([1, 2, 3, 4, 5]);
    expect(prepared.map((s) => s.replace(/\$\d+/g, '$1'))).toContain(text);
  });

  it("given a prepared statement that fails at run time, then the error is the query's and the connection goes on", async () => {
    const divide = (d: number) => db.oneFirst(sql.type(z.object({ q: z.number() }))`SELECT 10 / ${d}::int AS q`);
    for (let i = 0; i < REPEATS_BEFORE_PREPARING + 1; i += 1) expect(await divide(2)).toBe(5);
    await expect(divide(0)).rejects.toThrow(/division by zero/);
    expect(await divide(5)).toBe(2);
  });

  it('given the same prepared statement for two tenants in turn, then row-level security gives each its own rows', async () => {
    const count = (tenantId: string) =>
      withTenant(db, { tenantId, mode: 'live' }, (tx) =>
        tx.oneFirst(sql.type(z.object({ n: z.number() }))`SELECT count(*)::int AS n FROM entities WHERE mode = ${'live'}`),
      );
    const seen: number[] = [];
    for (let i = 0; i < REPEATS_BEFORE_PREPARING + 3; i += 1) seen.push(await count(tenantA), await count(tenantB));
    expect(seen).toEqual(
      Array(REPEATS_BEFORE_PREPARING + 3)
        .fill([2, 5])
        .flat(),
    );
  });
});
