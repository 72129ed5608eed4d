import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { tsFiles } from "./source-files.ts";
import { join, relative } from "node:path";
import ts from "typescript";

// The project's own tests assert an error's code, never only its status: a supertest
// `.expect(4xx)` must have the answer's `error` (or warehouse `code`) checked in the same statement
// or, when the answer is kept in a variable, later in the same block. Statements, not lines: the
// formatter may spread one call over several lines.

const ROOT = join(import.meta.dirname, "..");

const SAME_STATEMENT = /expectError|expectWarehouseError|\.body\.(error|code)\b/;

function codeChecked(v: string, rest: string): boolean {
  return new RegExp(
    [
      `${v}\\.body\\.(error|code)\\b`,
      `expectError\\(${v}\\b`,
      `expectWarehouseError(Answer)?\\(${v}\\b`,
      `${v}\\.body\\)\\.(toEqual|toMatchObject)\\(\\{[^;]*\\b(error|code):`,
    ].join("|"),
  ).test(rest);
}

/** A node's source with line breaks (and the indentation after them) removed: `a\n  .b` reads `a.b`. */
const flat = (node: ts.Node, source: ts.SourceFile) => node.getText(source).replace(/\s*\n\s*/g, "");

const isStatusExpect = (node: ts.Node): node is ts.CallExpression =>
  ts.isCallExpression(node) &&
  ts.isPropertyAccessExpression(node.expression) &&
  node.expression.name.text === "expect" &&
  node.arguments.length === 1 &&
  /^4\d\d$/.test(node.arguments[0]!.getText());

/** The name a statement keeps the answer in: `const v = await …` or `v = await …`. */
function keptIn(statement: ts.Statement): string | undefined {
  if (ts.isVariableStatement(statement)) {
    const [decl] = statement.declarationList.declarations;
    return decl && ts.isIdentifier(decl.name) ? decl.name.text : undefined;
  }
  if (ts.isExpressionStatement(statement) && ts.isBinaryExpression(statement.expression)) {
    const { left, operatorToken } = statement.expression;
    return operatorToken.kind === ts.SyntaxKind.EqualsToken && ts.isIdentifier(left) ? left.text : undefined;
  }
  return undefined;
}

/** Every `.expect(4xx)` whose statement and block never look at the answer's code. */
function offendersIn(path: string, text: string): string[] {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (isStatusExpect(node)) {
      let statement: ts.Node = node;
      while (!ts.isBlock(statement.parent) && !ts.isSourceFile(statement.parent)) statement = statement.parent;
      const siblings = (statement.parent as ts.Block | ts.SourceFile).statements;
      const after = siblings.slice(siblings.indexOf(statement as ts.Statement) + 1);
      const v = keptIn(statement as ts.Statement);
      const ok =
        SAME_STATEMENT.test(flat(statement, source)) ||
        (v !== undefined && codeChecked(v, after.map((s) => flat(s, source)).join(";")));
      if (!ok) {
        const at = (node.expression as ts.PropertyAccessExpression).name.getStart(source);
        const line = source.getLineAndCharacterOfPosition(at).line + 1;
        found.push(`${path}:${line}: ${flat(statement, source).slice(0, 120)}`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe("error assertions in the tests", () => {
  it("every supertest status assertion of a 4xx also checks the error code", () => {
    const all = [...tsFiles(join(ROOT, "test")), ...tsFiles(join(ROOT, "conformance"))];
    const offenders = all.flatMap((file) => {
      const text = readFileSync(file, "utf8");
      return /\.expect\(4\d\d\)/.test(text) ? offendersIn(relative(ROOT, file), text) : [];
    });
    expect(offenders).toEqual([]);
  });

  it("the check reads statements, however the formatter breaks them, and flags a status-only assertion", () => {
    const text = [
      "it('x', async () => {",
      "  const res = await api",
      "    .get('/a')",
      "    .expect(400);",
      "  expect(res.body).toMatchObject({",
      "    error: 'bad' });",
      "  expect(",
      "    (await api.get('/b').expect(409)).body",
      "      .error,",
      "  ).toBe('invalid_status');",
      "  await api.get('/c')",
      "    .expect(404);",
      "  const kept = await api.get('/d').expect(403);",
      "  expect(kept.status).toBe(403);",
      "});",
    ].join("\n");
    expect(offendersIn("t.ts", text)).toEqual([
      "t.ts:12: await api.get('/c').expect(404);",
      "t.ts:13: const kept = await api.get('/d').expect(403);",
    ]);
  });
});
