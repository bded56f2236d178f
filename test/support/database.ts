import { randomBytes } from 'node:crypto';
import pg from 'pg';

const ADMIN_URL = process.env.TEST_ADMIN_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
function templateDb(): string {
  const name = process.env.TAS_TEST_TEMPLATE;
  if (!name) throw new Error('TAS_TEST_TEMPLATE is not set: run the tests through vitest (its globalSetup migrates the template)');
  return name;
}

/** A fresh database cloned from the migrated template; dropped by the returned function. */
export async function cloneDatabase(): Promise<{ url: string; name: string; drop: () => Promise<void> }> {
  const name = `tas_test_${randomBytes(6).toString('hex')}`;
  await adminQuery(`CREATE DATABASE ${name} TEMPLATE ${templateDb()}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    drop: async () => {
      await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

export async function adminQuery(text: string, values: unknown[] = []): Promise<pg.QueryResult> {
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  try {
    return await admin.query(text, values);
  } finally {
    await admin.end();
  }
}

/** A raw connection to a test database as its owner (for assertions that look behind the API). */
export async function ownerClient(url: string): Promise<pg.Client> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  return c;
}
