import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloneDatabase, ownerClient } from '../support/database.js';
import {
  INTERPOLATED,
  callsOf,
  identifiersOf,
  literalsOf,
  ownershipOf,
  readsOf,
  writerOf,
  writesOf,
  type Ownership,
} from '../support/sqlWrites.js';

/**
 * A capability writes only its own tables (issue 49): docs/architecture.md
 * names the owner of every table and SQL function ("Who owns which table"),
 * and this test holds the code to it. It reads every string and template
 * literal of src/, actors/ and machines/ (slonik's sql`...` and node-postgres'
 * named statements alike) and the source of every function of the migrated
 * schema, and fails on
 *
 *   - a write (INSERT, UPDATE, DELETE, MERGE, TRUNCATE) to a table another
 *     owner owns, or to one the ownership table does not name;
 *   - a call from the code to another owner's SQL function (its writes are
 *     that owner's, and so must be the call);
 *   - a function that writes a table its owner does not own, and a trigger
 *     whose function writes a table the triggering table's owner does not own.
 *
 * A table named at run time (slonik's sql.identifier) counts as every table
 * its file names that way. SQL a function builds at run time (EXECUTE) is not
 * read.
 */

const ROOT = join(import.meta.dirname, '..', '..');
const ownership: Ownership = ownershipOf(readFileSync(join(ROOT, 'docs', 'architecture.md'), 'utf8'));

function codeFiles(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.ts$/.test(entry.name)) out.push(relative(ROOT, path));
    }
  };
  for (const top of ['src', 'actors', 'machines']) walk(join(ROOT, top));
  return out.sort();
}

interface Schema {
  tables: string[];
  functions: Map<string, string>;
  triggers: { table: string; fn: string }[];
}

async function schemaOf(client: pg.Client): Promise<Schema> {
  const tables = await client.query<{ name: string }>(`
    SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND NOT c.relispartition ORDER BY 1`);
  const functions = await client.query<{ name: string; source: string }>(`
    SELECT p.proname AS name, p.prosrc AS source FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
    WHERE n.nspname = 'public' AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = p.oid AND d.deptype = 'e')`);
  const triggers = await client.query<{ table: string; fn: string }>(`
    SELECT c.relname AS table, p.proname AS fn FROM pg_trigger t
    JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace JOIN pg_proc p ON p.oid = t.tgfoid
    WHERE n.nspname = 'public' AND NOT t.tgisinternal`);
  return {
    tables: tables.rows.map((r) => r.name),
    functions: new Map(functions.rows.map((r) => [r.name, r.source])),
    triggers: triggers.rows,
  };
}

/** What is wrong with one owner writing one table (null when it may). */
function wrongWrite(writer: string, table: string): string | null {
  const owner = ownership.tables.get(table);
  if (owner === undefined) return `writes ${table}, which docs/architecture.md's ownership table does not name`;
  return owner === writer ? null : `writes ${table}, owned by ${owner}`;
}

function codeViolations(functionNames: string[]): string[] {
  const out: string[] = [];
  for (const file of codeFiles()) {
    const source = readFileSync(join(ROOT, file), 'utf8');
    const writer = writerOf(file);
    for (const { line, text } of literalsOf(source, file)) {
      for (const { verb, table } of writesOf(text)) {
        const candidates = table === INTERPOLATED ? identifiersOf(source) : [table];
        if (candidates.length === 0) out.push(`${file}:${line} ${verb} a table named at run time that the file never names`);
        for (const candidate of candidates) {
          const wrong = wrongWrite(writer, candidate);
          if (wrong) out.push(`${file}:${line} ${verb}: ${wrong}`);
        }
      }
      for (const fn of callsOf(text, functionNames)) {
        const owner = ownership.functions.get(fn);
        if (owner !== undefined && owner !== writer) out.push(`${file}:${line} calls ${fn}(), owned by ${owner}`);
      }
    }
  }
  return out;
}

function schemaViolations(schema: Schema): string[] {
  const out: string[] = [];
  for (const [fn, source] of schema.functions) {
    const owner = ownership.functions.get(fn);
    if (owner === undefined) continue; // named in its own test below
    for (const { verb, table } of writesOf(source)) {
      const wrong = wrongWrite(owner, table);
      if (wrong) out.push(`function ${fn} (${owner}) ${verb}: ${wrong}`);
    }
  }
  for (const { table, fn } of schema.triggers) {
    const owner = ownership.tables.get(table);
    if (owner === undefined) continue;
    for (const { verb, table: written } of writesOf(schema.functions.get(fn) ?? '')) {
      const wrong = wrongWrite(owner, written);
      if (wrong) out.push(`trigger on ${table} (${owner}) runs ${fn}, which ${verb}: ${wrong}`);
    }
  }
  return out;
}

describe('reading SQL', () => {
  it('finds the writes, and not a lock, an upsert clause or a comment', () => {
    const found = writesOf(`
      -- INSERT INTO comments_are_not_read
      /* DELETE FROM nor_these */
      WITH moved AS (UPDATE ONLY public.monitors m SET state = 'closed' WHERE id = $1 RETURNING id)
      INSERT INTO "observations" (id) VALUES ($2)
        ON CONFLICT (id) DO UPDATE SET id = excluded.id;
      SELECT * FROM inquiries WHERE id = $3 FOR UPDATE;
      SELECT * FROM sessions FOR NO KEY UPDATE SKIP LOCKED;
      DELETE FROM ${INTERPOLATED} WHERE true;
      MERGE INTO entities e USING x ON true WHEN MATCHED THEN DO NOTHING;
      TRUNCATE TABLE outbox`);
    expect(found).toEqual([
      { verb: 'INSERT', table: 'observations' },
      { verb: 'UPDATE', table: 'monitors' },
      { verb: 'DELETE', table: INTERPOLATED },
      { verb: 'MERGE', table: 'entities' },
      { verb: 'TRUNCATE', table: 'outbox' },
    ]);
  });

  it('reads literals from the syntax tree, with interpolations marked, and never comments', () => {
    const texts = literalsOf(
      "// INSERT INTO a\nconst q = sql.unsafe`DELETE FROM ${t} WHERE id = ${id}`;\nconst n = { text: 'SELECT tas_x($1)' };",
      'f.ts',
    );
    expect(texts).toEqual([
      { line: 2, text: `DELETE FROM ${INTERPOLATED} WHERE id = ${INTERPOLATED}` },
      { line: 3, text: 'SELECT tas_x($1)' },
    ]);
    expect(callsOf(texts[1]!.text, ['tas_x', 'tas_y'])).toEqual(['tas_x']);
    expect(readsOf('SELECT a FROM material m JOIN "audit_log" l ON true, unnest($1) u WHERE x IS DISTINCT FROM y')).toEqual([
      'material',
      'audit_log',
      'y',
    ]);
  });

  it('parses the ownership tables of the document', () => {
    expect(ownership.tables.get('api_keys')).toBe('auth');
    expect(ownership.tables.get('webhook_endpoints')).toBe('webhooks');
    expect(ownership.functions.get('tas_inquiry_open')).toBe('inquiries');
    expect(writerOf('src/cases/export/keys.ts')).toBe('cases');
    expect(writerOf('actors/store.ts')).toBe('actors');
  });
});

/**
 * The case export reads the other capabilities' rows through their commands
 * (the ledger, testimony, material, the audit trail), so nothing under
 * src/cases/export names a table cases does not own. Names that are no table
 * of the ownership table (a column after IS DISTINCT FROM, a CTE) are not
 * counted.
 */
function caseExportReads(): string[] {
  const out: string[] = [];
  for (const file of codeFiles().filter((f) => f.startsWith('src/cases/export/'))) {
    for (const { line, text } of literalsOf(readFileSync(join(ROOT, file), 'utf8'), file)) {
      for (const table of readsOf(text)) {
        const owner = ownership.tables.get(table);
        if (owner !== undefined && owner !== 'cases') out.push(`${file}:${line} reads ${table}, owned by ${owner}`);
      }
    }
  }
  return out;
}

describe('who writes which table', () => {
  let drop: () => Promise<void>;
  let schema: Schema;

  beforeAll(async () => {
    const db = await cloneDatabase();
    drop = db.drop;
    const client = await ownerClient(db.url);
    try {
      schema = await schemaOf(client);
    } finally {
      await client.end();
    }
  });
  afterAll(async () => drop?.());

  it('names the owner of every table and every function of the schema, and nothing else', () => {
    expect([...ownership.tables.keys()].sort()).toEqual([...schema.tables].sort());
    expect([...ownership.functions.keys()].sort()).toEqual([...schema.functions.keys()].sort());
  });

  it("no code writes another owner's table or calls another owner's function", () => {
    expect(codeViolations([...schema.functions.keys()])).toEqual([]);
  });

  it("the case export reads no other capability's table", () => {
    expect(caseExportReads()).toEqual([]);
  });

  it('no function and no trigger writes a table its owner does not own', () => {
    expect(schemaViolations(schema)).toEqual([]);
  });
});
