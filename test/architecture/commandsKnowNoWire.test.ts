import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { sourceFiles } from '../support/sourceFiles.js';

/**
 * Commands know no wire (issue 49 item 5): they take and return domain
 * values; a capability's routes map the wire both ways, build the addresses
 * an answer carries and set the headers its outcome calls for. This test
 * reads every file of every capability (a folder of src/ with an index.ts,
 * subfolders included) other than its wire files (routes.ts, *Routes.ts,
 * paths.ts, wire.ts, schemas.ts) and fails on
 *
 *   - a use of the public base, `publicUrl` (a dependency, a read, a
 *     parameter): an address under it is built by the wire files only;
 *   - a `Retry-After` header set: as a key of an object literal, as an
 *     element assigned to, or as the name handed to a `set`/`setHeader` call.
 *     Reading a receiver's header (webhooks) is not setting one.
 *
 * The syntax tree is read, so comments never count.
 */

const ROOT = join(import.meta.dirname, '..', '..');
const SRC = join(ROOT, 'src');
const WIRE_FILE = /^(routes|\w*Routes|paths|wire|schemas)\.ts$/;

/**
 * Known and explained, each with its reason. Each entry names the file and
 * what is found there, exactly.
 */
const EXPLAINED: { file: string; found: string; why: string }[] = [];

interface WireUse {
  line: number;
  found: 'publicUrl' | 'Retry-After';
}

/** The uses of the public base and the Retry-After headers set in one source file. */
function wireUses(source: string, path = 'module.ts'): WireUse[] {
  const file = ts.createSourceFile(path, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const out: WireUse[] = [];
  const at = (node: ts.Node) => file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1;
  const visit = (node: ts.Node) => {
    if (ts.isIdentifier(node) && node.text === 'publicUrl') out.push({ line: at(node), found: 'publicUrl' });
    if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && /^retry-after$/i.test(node.text) && setsHeader(node))
      out.push({ line: at(node), found: 'Retry-After' });
    ts.forEachChild(node, visit);
  };
  visit(file);
  return out;
}

function setsHeader(literal: ts.StringLiteral | ts.NoSubstitutionTemplateLiteral): boolean {
  const parent = literal.parent;
  if (ts.isPropertyAssignment(parent) && parent.name === literal) return true;
  if (ts.isElementAccessExpression(parent) && parent.argumentExpression === literal) {
    const outer = parent.parent;
    return ts.isBinaryExpression(outer) && outer.left === parent && outer.operatorToken.kind === ts.SyntaxKind.EqualsToken;
  }
  if (ts.isCallExpression(parent) && parent.arguments[0] === literal) {
    const callee = parent.expression;
    const name = ts.isPropertyAccessExpression(callee) ? callee.name.text : ts.isIdentifier(callee) ? callee.text : '';
    return /^(set|setHeader|append|appendHeader)$/.test(name);
  }
  return false;
}

function capabilityFiles(): string[] {
  return readdirSync(SRC, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(SRC, entry.name, 'index.ts')))
    .flatMap((entry) => sourceFiles(join(SRC, entry.name), (name) => /\.(ts|mts)$/.test(name) && !WIRE_FILE.test(name)));
}

describe('commands know no wire', () => {
  it('finds the public base and a Retry-After set, and not a comment, a string or a header read', () => {
    const found = wireUses(`
      // deps.publicUrl() in a comment; headers: { 'Retry-After': '5' }
      export interface Deps { publicUrl: () => string }
      const url = \`\${deps.publicUrl()}/v1/cases/\${id}/events\`;
      throw new ServiceProblem('rate-limited', 'wait', {}, { 'Retry-After': String(5) });
      headers['retry-after'] = '1';
      res.setHeader('Retry-After', '2');
      const wait = headerOf(res, 'retry-after');
      const said = 'publicUrl and Retry-After in a string';
      if (headers['Retry-After'] === '3') wait();
    `);
    expect(found).toEqual([
      { line: 3, found: 'publicUrl' },
      { line: 4, found: 'publicUrl' },
      { line: 5, found: 'Retry-After' },
      { line: 6, found: 'Retry-After' },
      { line: 7, found: 'Retry-After' },
    ]);
  });

  it('no capability file but its wire files uses the public base or sets Retry-After', () => {
    const files = capabilityFiles();
    expect(files.length).toBeGreaterThan(50);
    const found: string[] = [];
    const explainedSeen = new Set<string>();
    for (const path of files) {
      const name = relative(ROOT, path);
      for (const use of wireUses(readFileSync(path, 'utf8'), path)) {
        const explained = EXPLAINED.find((e) => e.file === name && e.found === use.found);
        if (explained) explainedSeen.add(explained.file);
        else found.push(`${name}:${use.line}: ${use.found}`);
      }
    }
    expect(found).toEqual([]);
    // An exception that no longer holds is taken off the list.
    expect(EXPLAINED.map((e) => e.file).filter((f) => !explainedSeen.has(f))).toEqual([]);
  });
});
