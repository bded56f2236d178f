import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { applyRepeatables } from './repeatable.js';

/**
 * Forward-only migrations from `sql/NNNNNN_description.sql`. Each file runs in
 * its own transaction under a session advisory lock, so two processes starting
 * at once apply each file exactly once. A landed file is never edited: its
 * checksum is recorded and a changed file stops the migrator. A function
 * defined whole in one file is a repeatable migration instead (repeatable.ts),
 * applied after them and again whenever its file changes.
 */
const MIGRATIONS_DIR = fileURLToPath(new URL('../../../sql/', import.meta.url));
const FILE_PATTERN = /^(\d{6})_[a-z0-9_]+\.sql$/;
// Any constant works; it only has to be the same for every process of this service.
const ADVISORY_LOCK_KEY = 7_401_355_21;

export interface MigrationFile {
  id: number;
  name: string;
  sql: string;
  checksum: string;
}

export async function readMigrations(dir = MIGRATIONS_DIR): Promise<MigrationFile[]> {
  const names = (await readdir(dir)).filter((n) => n.endsWith('.sql')).sort();
  const files: MigrationFile[] = [];
  for (const name of names) {
    const match = FILE_PATTERN.exec(name);
    if (!match) throw new Error(`migration file name does not match NNNNNN_description.sql: ${name}`);
    const sql = await readFile(new URL(name, `file://${dir}`), 'utf8');
    files.push({ id: Number(match[1]), name, sql, checksum: createHash('sha256').update(sql).digest('hex') });
  }
  return files;
}

/** Creates the database named in the URL when it does not exist (connecting to `postgres` to do so). */
export async function ensureDatabase(databaseUrl: string): Promise<boolean> {
  const url = new URL(databaseUrl);
  const dbName = decodeURIComponent(url.pathname.slice(1));
  url.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: url.toString(), connectionTimeoutMillis: 5000 });
  await admin.connect();
  try {
    const found = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [dbName]);
    if (found.rowCount) return false;
    await admin.query(`CREATE DATABASE ${pg.escapeIdentifier(dbName)}`);
    return true;
  } catch (error) {
    // Another process created it between our check and our CREATE.
    if ((error as { code?: string }).code === '42P04') return false;
    throw error;
  } finally {
    await admin.end();
  }
}

/** `upTo`: apply only the files numbered up to it (a test that starts from the schema of an earlier day). */
export async function migrate(databaseUrl: string, log: (msg: string) => void = () => {}, opts: { upTo?: number } = {}): Promise<number> {
  await ensureDatabase(databaseUrl);
  const files = await readMigrations();
  const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [ADVISORY_LOCK_KEY]);
    await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      id integer PRIMARY KEY, name text NOT NULL, checksum text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now())`);
    const applied = new Map<number, string>();
    for (const row of (await client.query<{ id: number; checksum: string }>('SELECT id, checksum FROM schema_migrations')).rows) {
      applied.set(row.id, row.checksum);
    }
    let count = 0;
    for (const file of files) {
      if (opts.upTo !== undefined && file.id > opts.upTo) break;
      const landed = applied.get(file.id);
      if (landed !== undefined) {
        if (landed !== file.checksum) throw new Error(`migration ${file.name} was edited after it was applied`);
        continue;
      }
      await applyOne(client, file);
      log(`applied ${file.name}`);
      count += 1;
    }
    // The functions defined in one place each (sql/repeatable/): today's schema, so not when stopping at an earlier day.
    if (opts.upTo === undefined) count += await applyRepeatables(client, log);
    return count;
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [ADVISORY_LOCK_KEY]).catch(() => undefined);
    await client.end();
  }
}

async function applyOne(client: pg.Client, file: MigrationFile): Promise<void> {
  await client.query('BEGIN');
  try {
    await client.query(file.sql);
    await client.query('INSERT INTO schema_migrations (id, name, checksum) VALUES ($1, $2, $3)', [file.id, file.name, file.checksum]);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    throw new Error(`migration ${file.name} failed: ${(error as Error).message}`, { cause: error });
  }
}
