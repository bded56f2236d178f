import ts from 'typescript';

/**
 * Finds HTTP status literals where they stand for a status, in one file's
 * syntax tree (comments never count); test/architecture/statusLiterals.test.ts
 * says which and why.
 */

const STATUS_NAME = /status/i;
const STATUS_CALLEE = /status|^audit(InTx|Row|Now)$|^writeNow$/i;
const SQL_STATUS = /\bstatus\w*\s*=\s*([1-5]\d\d)\b/gi;

export interface Finding {
  line: number;
  text: string;
}

const isStatusNumber = (node: ts.Node): node is ts.NumericLiteral =>
  ts.isNumericLiteral(node) && /^[1-5]\d\d$/.test(node.text) && Number(node.text) >= 100;

function nameOf(node: ts.Node): string | null {
  if (ts.isIdentifier(node) || ts.isPrivateIdentifier(node)) return node.text;
  if (ts.isStringLiteral(node)) return node.text;
  if (ts.isPropertyAccessExpression(node)) return node.name.text;
  if (ts.isElementAccessExpression(node) && ts.isStringLiteral(node.argumentExpression)) return node.argumentExpression.text;
  return null;
}

const parse = (source: string, fileName: string) => ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);

/**
 * The parameter names of the named functions and methods a file declares
 * (function declarations, arrow functions bound to a name, methods and their
 * signatures in interfaces), so that a call elsewhere can be read by them.
 */
export function parameterNames(source: string | ts.SourceFile, fileName = 'file.ts'): Map<string, string[]> {
  const file = typeof source === 'string' ? parse(source, fileName) : source;
  const params = new Map<string, string[]>();
  const add = (name: ts.Node | undefined, list: ts.NodeArray<ts.ParameterDeclaration>) => {
    const key = name ? nameOf(name) : null;
    if (key !== null)
      params.set(
        key,
        list.map((p) => p.name.getText(file)),
      );
  };
  const collect = (node: ts.Node): void => {
    if (ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node) || ts.isMethodSignature(node)) add(node.name, node.parameters);
    if ((ts.isVariableDeclaration(node) || ts.isPropertyAssignment(node) || ts.isPropertySignature(node)) && node.name !== undefined) {
      const value = ts.isPropertySignature(node) ? node.type : node.initializer;
      if (value && (ts.isArrowFunction(value) || ts.isFunctionExpression(value) || ts.isFunctionTypeNode(value)))
        add(node.name, value.parameters);
    }
    ts.forEachChild(node, collect);
  };
  collect(file);
  return params;
}

/**
 * The status literals in one file's code, by line. `known` adds the
 * parameter names of functions declared in other files (parameterNames).
 */
export function statusLiterals(source: string, fileName = 'file.ts', known: Map<string, string[]> = new Map()): Finding[] {
  const file = parse(source, fileName);
  const found: Finding[] = [];
  const at = (node: ts.Node, text: string) => found.push({ line: file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1, text });

  const params = new Map([...parameterNames(file), ...known]);

  const visit = (node: ts.Node): void => {
    if (ts.isPropertyAssignment(node) && isStatusNumber(node.initializer) && STATUS_NAME.test(nameOf(node.name) ?? ''))
      at(node, node.getText(file));
    if (ts.isVariableDeclaration(node) && node.initializer && isStatusNumber(node.initializer) && STATUS_NAME.test(node.name.getText(file)))
      at(node, node.getText(file));
    if (
      ts.isBinaryExpression(node) &&
      node.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
      isStatusNumber(node.right) &&
      STATUS_NAME.test(nameOf(node.left) ?? '')
    )
      at(node, node.getText(file));
    if (ts.isCallExpression(node)) {
      const callee = nameOf(node.expression) ?? '';
      const own = params.get(callee);
      node.arguments.forEach((arg, i) => {
        if (!isStatusNumber(arg)) return;
        if (STATUS_CALLEE.test(callee) || STATUS_NAME.test(own?.[i] ?? '')) at(arg, `${callee}(... ${arg.text} ...)`);
      });
    }
    if (ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node)) {
      for (const m of node.text.matchAll(SQL_STATUS)) at(node, m[0]);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}
