import ts from 'typescript';

/**
 * Reads which tables a piece of SQL writes, which functions it calls, and
 * who owns what (the tables of docs/architecture.md, "Who owns which
 * table"). Pure functions; test/architecture/tableOwnership.test.ts applies
 * them to the code and the migrated schema.
 */

/** A placeholder where a template literal interpolates a value (a table named at run time, a fragment, a parameter). */
export const INTERPOLATED = '__interpolated__';

export interface SqlText {
  line: number;
  text: string;
}

export interface SqlWrite {
  verb: 'INSERT' | 'UPDATE' | 'DELETE' | 'MERGE' | 'TRUNCATE';
  /** The table's name, lower case, without schema; INTERPOLATED when the name is not literal. */
  table: string;
}

const NAME = `(?:"?[A-Za-z_][\\w$]*"?\\.)?("?[A-Za-z_][\\w$]*"?|${INTERPOLATED})`;
const WRITES: [SqlWrite['verb'], RegExp][] = [
  ['INSERT', new RegExp(`\\bINSERT\\s+INTO\\s+${NAME}`, 'gi')],
  // `UPDATE t SET`, `UPDATE ONLY t AS x SET`; never `DO UPDATE SET` nor `FOR UPDATE`, which name no table.
  ['UPDATE', new RegExp(`\\bUPDATE\\s+(?:ONLY\\s+)?${NAME}(?:\\s+(?:AS\\s+)?(?!SET\\b)[A-Za-z_]\\w*)?\\s+SET\\b`, 'gi')],
  ['DELETE', new RegExp(`\\bDELETE\\s+FROM\\s+(?:ONLY\\s+)?${NAME}`, 'gi')],
  ['MERGE', new RegExp(`\\bMERGE\\s+INTO\\s+${NAME}`, 'gi')],
  ['TRUNCATE', new RegExp(`\\bTRUNCATE\\s+(?:TABLE\\s+)?(?:ONLY\\s+)?${NAME}`, 'gi')],
];

/** SQL without its comments, so that a sentence in one never reads as a statement. */
export function withoutComments(sql: string): string {
  return sql.replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/--[^\n]*/g, ' ');
}

const unquote = (name: string) => name.replace(/"/g, '').toLowerCase();

/** Every table a piece of SQL writes (a `SELECT ... FOR UPDATE` locks, and writes nothing). */
export function writesOf(sql: string): SqlWrite[] {
  const text = withoutComments(sql);
  const out: SqlWrite[] = [];
  for (const [verb, pattern] of WRITES) {
    for (const match of text.matchAll(pattern)) {
      const name = match[1]!;
      if (verb === 'UPDATE' && /^set$/i.test(name)) continue;
      out.push({ verb, table: name === INTERPOLATED ? INTERPOLATED : unquote(name) });
    }
  }
  return out;
}

/** The tables a piece of SQL reads by name (after FROM or JOIN); a function call or a subquery there is not a table. */
export function readsOf(sql: string): string[] {
  const text = withoutComments(sql);
  const out: string[] = [];
  for (const match of text.matchAll(new RegExp(`\\b(?:FROM|JOIN)\\s+(?:ONLY\\s+)?${NAME}(?![\\w$"])(?!\\s*\\()`, 'gi'))) {
    if (match[1] !== INTERPOLATED) out.push(unquote(match[1]!));
  }
  return out;
}

/** The names of the given functions a piece of SQL calls. */
export function callsOf(sql: string, functions: Iterable<string>): string[] {
  const text = withoutComments(sql);
  return [...functions].filter((name) => new RegExp(`\\b${name}\\s*\\(`, 'i').test(text));
}

/**
 * Every string and template literal of a TypeScript file (the syntax tree,
 * so comments never count), an interpolation standing as INTERPOLATED, with
 * the line it starts on. Slonik's sql`...`, sql.fragment`...`,
 * sql.type(...)`...` and sql.unsafe`...` are template literals, and the
 * named statements of node-postgres are strings.
 */
export function literalsOf(source: string, fileName: string): SqlText[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const out: SqlText[] = [];
  const lineOf = (node: ts.Node) => file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1;
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
      out.push({ line: lineOf(node), text: node.text });
    } else if (ts.isTemplateExpression(node)) {
      const text = [node.head.text, ...node.templateSpans.map((span) => span.literal.text)].join(INTERPOLATED);
      out.push({ line: lineOf(node), text });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return out;
}

/**
 * The tables a file names with slonik's sql.identifier(['name']): what an
 * interpolated table in that file can be.
 */
export function identifiersOf(source: string): string[] {
  return [...source.matchAll(/sql\.identifier\(\[\s*'([A-Za-z_]\w*)'\s*\]\)/g)].map((m) => m[1]!.toLowerCase());
}

export interface Ownership {
  tables: Map<string, string>;
  functions: Map<string, string>;
}

/**
 * The owners named in docs/architecture.md's section "Who owns which
 * table": each row of its tables is `| \`name\` | owner |`, and the table's
 * header says whether the names are tables or SQL functions.
 */
export function ownershipOf(markdown: string): Ownership {
  const section = markdown.split(/^## /m).find((s) => s.startsWith('Who owns which table'));
  if (!section) throw new Error('docs/architecture.md has no section "Who owns which table"');
  const ownership: Ownership = { tables: new Map(), functions: new Map() };
  let current: Map<string, string> | null = null;
  for (const line of section.split('\n')) {
    const header = /^\|\s*(table|SQL function)\s*\|\s*owner\s*\|/.exec(line);
    if (header) current = header[1] === 'table' ? ownership.tables : ownership.functions;
    const row = /^\|\s*`([a-z_][a-z0-9_]*)`\s*\|\s*([a-z]+)\s*\|\s*$/.exec(line);
    if (!row || !current) continue;
    if (current.has(row[1]!)) throw new Error(`${row[1]} is named twice in the ownership tables`);
    current.set(row[1]!, row[2]!);
  }
  return ownership;
}

/** Who a file of the code speaks for: its capability folder, the actor runtime, or a top-level folder of src/. */
export function writerOf(path: string): string {
  const match = /^src\/([^/]+)\//.exec(path) ?? /^(actors|machines)\//.exec(path);
  if (!match) throw new Error(`${path} is outside src/, actors/ and machines/`);
  return match[1]!;
}
