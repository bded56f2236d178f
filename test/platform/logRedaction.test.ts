import { Writable } from 'node:stream';
import pino from 'pino';
import { sql } from 'slonik';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Db } from '../../src/platform/db/pool.js';
import { createLogger } from '../../src/platform/logger.js';
import { cloneDatabase } from '../support/database.js';

/**
 * Issue 40: slonik's errors carry the statement's values (and PostgreSQL
 * quotes the input in its messages and details), so a logged database error
 * could write a secret to the log. Real errors from a real PostgreSQL, logged
 * through the service's own logger: the secret appears nowhere in the line,
 * and the line still says what failed.
 */
const SECRET = 'tas_live_SECRETsecretSECRETsecret0123456789abcdefXYZ';
let database: Awaited<ReturnType<typeof cloneDatabase>>;
let db: Db;
beforeAll(async () => {
  database = await cloneDatabase();
  db = await createDb(database.url, { maximumPoolSize: 1 });
  await db.query(sql.unsafe`CREATE TABLE log_probe (v text)`);
});
afterAll(async () => {
  await db?.end();
  await database?.drop();
});

function capture() {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, cb) {
      lines.push(String(chunk));
      cb();
    },
  });
  return { log: createLogger('info', sink), lines };
}

async function failure(run: () => Promise<unknown>): Promise<Error> {
  try {
    await run();
  } catch (error) {
    return error as Error;
  }
  throw new Error('the statement did not fail');
}

describe('a database error in the log', () => {
  it.each([
    ['an input that is not a uuid (quoted in the message)', () => db.one(sql.unsafe`SELECT ${SECRET}::uuid AS id`)],
    [
      'a row that does not match its declared shape (the row and the values kept on the error)',
      () => db.one(sql.type(z.object({ n: z.number() }))`SELECT ${SECRET}::text AS n`),
    ],
    [
      'a row that returned nothing (the values kept on the error)',
      () => db.one(sql.unsafe`SELECT 1 FROM log_probe WHERE v = ${`${SECRET}-missing`}`),
    ],
  ])('given %s, then the logged line has no trace of the secret, and says what failed', async (_name, run) => {
    const error = await failure(run);
    // What pino's own error serializer would write carries the secret: otherwise this test would prove nothing.
    expect(JSON.stringify(pino.stdSerializers.err(error))).toContain(SECRET.slice(0, 20));
    const { log, lines } = capture();
    log.error({ err: error }, 'statement failed');
    log.flush?.();
    const line = lines.join('');
    expect(line).toContain('statement failed');
    expect(line).toContain('"type":');
    expect(line).not.toContain(SECRET.slice(0, 20));
  });
});
