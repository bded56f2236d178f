import pg from 'pg';
import { migrate } from '../../src/db/migrate.js';

/**
 * Once per run: a migrated template database. Every test file clones it
 * (CREATE DATABASE ... TEMPLATE), which takes milliseconds instead of a
 * migration run, and gives each file a database of its own.
 */
export const TEMPLATE_DB = 'tas_test_template';
const ADMIN_URL = process.env.TEST_ADMIN_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export default async function setup(): Promise<void> {
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(`UPDATE pg_database SET datistemplate = false WHERE datname = $1`, [TEMPLATE_DB]);
    await admin.query(`DROP DATABASE IF EXISTS ${TEMPLATE_DB} WITH (FORCE)`);
  } finally {
    await admin.end();
  }
  const url = new URL(ADMIN_URL);
  url.pathname = `/${TEMPLATE_DB}`;
  await migrate(url.toString());
}
