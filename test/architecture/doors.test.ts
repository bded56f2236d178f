import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * A capability's index.ts is its door: it hands out commands and types, never
 * a store (issue 49). A store (store.ts, or a file named like *Store.ts) is
 * the capability's queries on its own tables; another capability that needs
 * a row read or written asks a command, which the owner keeps in its
 * commands module and may run in the caller's transaction. This test reads
 * every src/<folder>/index.ts (the syntax tree) and fails on any export,
 * of a value or a type, taken from a store module, and on a module the index
 * hands out that passes a store's export on in the same way.
 */

const SRC = join(import.meta.dirname, '..', '..', 'src');
const STORE_MODULE = /(^|\/)(store|\w*Store)\.js$/;

/** The relative modules an index file re-exports from (as .ts paths beside it). */
function exportedModules(source: string): string[] {
  const file = ts.createSourceFile('index.ts', source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  return file.statements.flatMap((s) =>
    ts.isExportDeclaration(s) && s.moduleSpecifier && ts.isStringLiteral(s.moduleSpecifier) && s.moduleSpecifier.text.startsWith('./')
      ? [s.moduleSpecifier.text.replace(/\.js$/, '.ts')]
      : [],
  );
}

/** The store exports of an index file, with what it takes from each. */
function storeExports(source: string): string[] {
  const file = ts.createSourceFile('index.ts', source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const out: string[] = [];
  for (const statement of file.statements) {
    if (!ts.isExportDeclaration(statement) || !statement.moduleSpecifier || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
    const from = statement.moduleSpecifier.text;
    if (!STORE_MODULE.test(from)) continue;
    const names =
      statement.exportClause && ts.isNamedExports(statement.exportClause)
        ? statement.exportClause.elements.map((e) => e.name.text).join(', ')
        : '*';
    out.push(`${names} from ${from}`);
  }
  return out;
}

/** The functions of store modules a module re-exports, each named with its store. */
function storeFunctions(source: string, read: (from: string) => string): string[] {
  const file = ts.createSourceFile('module.ts', source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const out: string[] = [];
  for (const statement of file.statements) {
    if (!ts.isExportDeclaration(statement) || statement.isTypeOnly || !statement.moduleSpecifier) continue;
    if (!ts.isStringLiteral(statement.moduleSpecifier) || !STORE_MODULE.test(statement.moduleSpecifier.text)) continue;
    const from = statement.moduleSpecifier.text.replace(/\.js$/, '.ts');
    const store = read(from);
    const names =
      statement.exportClause && ts.isNamedExports(statement.exportClause)
        ? statement.exportClause.elements.filter((e) => !e.isTypeOnly).map((e) => (e.propertyName ?? e.name).text)
        : ['*'];
    for (const name of names) {
      const isFunction = name === '*' || new RegExp(`export (async )?function ${name}\\b|export const ${name} = (async )?\\(`).test(store);
      if (isFunction) out.push(`${name} from ${statement.moduleSpecifier.text}`);
    }
  }
  return out;
}

describe('capability doors', () => {
  it('finds a store export, of a value or a type, and nothing else', () => {
    expect(
      storeExports(`
        // export { x } from './store.js';
        export { a, b } from './store.js';
        export type { T } from './chainStore.js';
        export * from '../other/store.js';
        export { c } from './commands.js';
        export { d } from './restore.js';`),
    ).toEqual(['a, b from ./store.js', 'T from ./chainStore.js', '* from ../other/store.js']);
  });

  it("finds a store's function passed on by a module the door hands out, and not a row's type or schema", () => {
    const store = 'export const Row = z.object({});\nexport async function findRow(tx) {}\nexport const rowInsert = (r) => sql``;';
    expect(
      storeFunctions(
        `export { Row, findRow, rowInsert as insert } from './store.js';\nexport type { RowT } from './store.js';\nexport { x } from './other.js';`,
        () => store,
      ),
    ).toEqual(['findRow from ./store.js', 'rowInsert from ./store.js']);
  });

  it('no index.ts hands out a store', () => {
    const found: string[] = [];
    for (const entry of readdirSync(SRC, { withFileTypes: true })) {
      const index = join(SRC, entry.name, 'index.ts');
      if (!entry.isDirectory()) continue;
      let source: string;
      try {
        source = readFileSync(index, 'utf8');
      } catch {
        continue;
      }
      for (const e of storeExports(source)) found.push(`src/${entry.name}/index.ts: ${e}`);
      // One step further: a module the door hands out does not pass a store's function on either
      // (a row's type or schema it may: those are shapes, not queries).
      for (const module of new Set(exportedModules(source))) {
        const dir = join(SRC, entry.name, dirname(module));
        for (const e of storeFunctions(readFileSync(join(SRC, entry.name, module), 'utf8'), (from) =>
          readFileSync(join(dir, from), 'utf8'),
        ))
          found.push(`src/${entry.name}/${module.replace(/^\.\//, '')} (handed out by index.ts): ${e}`);
      }
    }
    expect(found).toEqual([]);
  });
});
