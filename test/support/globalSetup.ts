import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { migrate } from '../../src/db/migrate.js';
import { startPgBouncer } from '../../scripts/lib/pgbouncer.js';

/**
 * Once per run: a migrated template database. Every test file clones it
 * (CREATE DATABASE ... TEMPLATE), which takes milliseconds instead of a
 * migration run, and gives each file a database of its own. The template's
 * name is unique to the run, so overlapping runs never trip over each other.
 */
const ADMIN_URL = process.env.TEST_ADMIN_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export default async function setup(): Promise<() => Promise<void>> {
  const template = `tas_test_template_${randomBytes(4).toString('hex')}`;
  process.env.TAS_TEST_TEMPLATE = template;
  const url = new URL(ADMIN_URL);
  url.pathname = `/${template}`;
  await migrate(url.toString());
  // TAS_TEST_DB_POOLER=pgbouncer: every test service's logins go through one PgBouncer in
  // transaction pooling (test/support/service.ts), so the suite's flows run as behind a pooler.
  const bouncer = process.env.TAS_TEST_DB_POOLER === 'pgbouncer' ? await startPgBouncer({ poolSize: 5 }) : null;
  if (bouncer) process.env.TAS_TEST_PGBOUNCER_PORT = String(bouncer.port);
  return async () => {
    await bouncer?.stop();
    const admin = new pg.Client({ connectionString: ADMIN_URL });
    await admin.connect();
    try {
      await admin.query(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`);
    } finally {
      await admin.end();
    }
  };
}
