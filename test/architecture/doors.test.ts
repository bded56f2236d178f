import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * A capability's index.ts is its door: it hands out commands and types, never
 * a store (issue 49). A store (store.ts, or a file named like *Store.ts) is
 * the capability's queries on its own tables; another capability that needs
 * a row read or written asks a command, which the owner keeps in its
 * commands module and may run in the caller's transaction. This test reads
 * every src/<folder>/index.ts (the syntax tree) and fails on any export,
 * of a value or a type, taken from a store module.
 */

const SRC = join(import.meta.dirname, '..', '..', 'src');
const STORE_MODULE = /(^|\/)(store|\w*Store)\.js$/;

/** The modules an index file re-exports from, with what it takes from each. */
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
    }
    expect(found).toEqual([]);
  });
});
