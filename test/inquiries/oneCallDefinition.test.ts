import { readFile } from 'node:fs/promises';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../src/platform/db/migrate.js';
import { cloneDatabase, ownerClient } from '../support/database.js';

/**
 * tas_inquiry_open is defined in one file, sql/repeatable/tas_inquiry_open.sql
 * (src/platform/db/repeatable.ts): the live function is that file's, on a
 * fresh database (the migrated template) and on one upgraded from the day
 * 000110's definition was the live one, and an edit of the file is applied
 * by the next migration.
 */
const FILE = new URL('../../sql/repeatable/tas_inquiry_open.sql', import.meta.url);
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

const live = async () =>
  (await owner.query<{ def: string }>(`SELECT pg_get_functiondef('tas_inquiry_open(jsonb)'::regprocedure) AS def`)).rows[0]!.def;

/** The function's body as the file writes it, between its dollar quotes. */
async function bodyInFile(): Promise<string> {
  const text = await readFile(FILE, 'utf8');
  const [, body] = /AS \$\$([\s\S]*?)\$\$;/.exec(text) ?? [];
  return body!;
}

describe("the one call's function, defined in one place", () => {
  it("is the file's definition on a fresh database", async () => {
    const source = (await owner.query<{ src: string }>(`SELECT prosrc AS src FROM pg_proc WHERE proname = 'tas_inquiry_open'`)).rows;
    expect(source).toHaveLength(1);
    expect(source[0]!.src).toBe(await bodyInFile());
  });

  it('is the same on a database upgraded from an older definition, and an edited file is applied again', async () => {
    const fresh = await live();
    // The day 000110's function was the live one, before the repeatable file was ever applied.
    const day110 = await readFile(new URL('../../sql/000110_inquiry_open_in_one_call.sql', import.meta.url), 'utf8');
    await owner.query(day110.replace('CREATE FUNCTION tas_inquiry_open', 'CREATE OR REPLACE FUNCTION tas_inquiry_open'));
    await owner.query(`DELETE FROM schema_repeatables WHERE name = 'tas_inquiry_open.sql'`);
    expect(await live()).not.toBe(fresh);
    expect(await migrate(database.url)).toBe(1);
    expect(await live()).toBe(fresh);
    // Nothing changed: nothing is applied.
    expect(await migrate(database.url)).toBe(0);
    // A file whose checksum is not the recorded one is applied again.
    await owner.query(`UPDATE schema_repeatables SET checksum = 'an older edit' WHERE name = 'tas_inquiry_open.sql'`);
    expect(await migrate(database.url)).toBe(1);
    expect(await live()).toBe(fresh);
  });
});
