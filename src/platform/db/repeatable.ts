import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type pg from 'pg';

/**
 * Repeatable migrations: `sql/repeatable/<name>.sql`, each the whole
 * definition of one database function, written once and edited in place.
 * They run after every numbered migration, in name order, and again whenever
 * a file's checksum differs from the one recorded when it last ran, so a
 * fresh database and an upgraded one both end with the file's definition.
 * Each must therefore be idempotent (CREATE OR REPLACE, grants restated).
 * A numbered file that once defined the same function stays as it landed:
 * it is history, and the repeatable file replaces what it left.
 */
const REPEATABLE_DIR = fileURLToPath(new URL('../../../sql/repeatable/', import.meta.url));
const FILE_PATTERN = /^[a-z0-9_]+\.sql$/;

export interface RepeatableFile {
  name: string;
  sql: string;
  checksum: string;
}

export async function readRepeatables(dir = REPEATABLE_DIR): Promise<RepeatableFile[]> {
  const names = (await readdir(dir)).filter((n) => n.endsWith('.sql')).sort();
  const files: RepeatableFile[] = [];
  for (const name of names) {
    if (!FILE_PATTERN.test(name)) throw new Error(`repeatable migration file name does not match name.sql: ${name}`);
    const sql = await readFile(new URL(name, `file://${dir}`), 'utf8');
    files.push({ name, sql, checksum: createHash('sha256').update(sql).digest('hex') });
  }
  return files;
}

/** Applies every repeatable file whose checksum is not the one recorded, each in its own transaction; answers how many ran. */
export async function applyRepeatables(client: pg.Client, log: (msg: string) => void = () => {}): Promise<number> {
  await client.query(`CREATE TABLE IF NOT EXISTS schema_repeatables (
    name text PRIMARY KEY, checksum text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
  const recorded = new Map(
    (await client.query<{ name: string; checksum: string }>('SELECT name, checksum FROM schema_repeatables')).rows.map((r) => [
      r.name,
      r.checksum,
    ]),
  );
  let count = 0;
  for (const file of await readRepeatables()) {
    if (recorded.get(file.name) === file.checksum) continue;
    await client.query('BEGIN');
    try {
      await client.query(file.sql);
      await client.query(
        `INSERT INTO schema_repeatables (name, checksum) VALUES ($1, $2)
         ON CONFLICT (name) DO UPDATE SET checksum = EXCLUDED.checksum, applied_at = now()`,
        [file.name, file.checksum],
      );
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK');
      throw new Error(`repeatable migration ${file.name} failed: ${(error as Error).message}`, { cause: error });
    }
    log(`applied repeatable/${file.name}`);
    count += 1;
  }
  return count;
}
