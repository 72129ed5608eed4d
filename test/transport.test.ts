import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { tsFiles } from "./source-files.ts";
import { join, relative } from "node:path";
import ts from "typescript";

// One way for the tests to talk HTTP: supertest — `request(emu.url)`, or `request(url)` for an emulator in
// another process, a shadow proxy, a webhook receiver, the chain's JSON-RPC. A test never calls `fetch(…)` or
// `x.fetch(…)` itself, except where that fetch is what the test is about (ALLOWED, with the reason). Handing a
// fetch to another client (`fetch: emu.fetch` for the suite, the official SDK, a scenario) gives that client its
// transport and is no call; nor is a wrapper that forwards its own `(input, init)`, nor code a browser page runs
// (`page.evaluate(…)`).

const ROOT = join(import.meta.dirname, "..");

const ALLOWED: Readonly<Record<string, string>> = {
  "test/http/in-process.test.ts": "the subject is emu.fetch itself (in-process, no socket)",
  "test/unit/route-table.test.ts": "the subject is the route table plugged into Hono's own fetch",
};

const isFetchCallee = (e: ts.Expression) =>
  (ts.isIdentifier(e) && e.text === "fetch") || (ts.isPropertyAccessExpression(e) && e.name.text === "fetch");

/** `(input, init) => e.fetch(input, init)`: a transport handed to another client, forwarding its own arguments. */
function forwards(call: ts.CallExpression): boolean {
  let fn: ts.Node = call.parent;
  while (fn && !ts.isArrowFunction(fn) && !ts.isFunctionExpression(fn) && !ts.isFunctionDeclaration(fn)) fn = fn.parent;
  if (!fn) return false;
  const params = (fn as ts.SignatureDeclaration).parameters.map((p) => p.name.getText());
  const args = call.arguments.map((a) => a.getText());
  return args.length > 0 && args.every((a, i) => a === params[i]);
}

/** Code passed to a browser page (`page.evaluate(() => fetch(…))`) runs there, not in the test. */
function inBrowser(node: ts.Node): boolean {
  for (let n: ts.Node | undefined = node.parent; n; n = n.parent)
    if (ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression) && n.expression.name.text === "evaluate")
      return true;
  return false;
}

export function directFetches(path: string, text: string): string[] {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) && isFetchCallee(node.expression) && !forwards(node) && !inBrowser(node)) {
      const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
      found.push(`${path}:${line}: ${node.getText(source).replace(/\s+/g, " ").slice(0, 100)}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe("one test transport", () => {
  it("no test calls fetch itself, outside the files whose subject is that fetch", () => {
    // test/ whole (helpers too), and every test file beside the code it tests.
    const beside = ["conformance", "scenarios", "harness", "shadow", "emulator", "chain", "contract", "testing"];
    const all = [
      ...tsFiles(join(ROOT, "test")),
      ...beside.flatMap((dir) => tsFiles(join(ROOT, dir)).filter((f) => f.endsWith(".test.ts"))),
    ];
    const offenders = all.flatMap((file) => {
      const rel = relative(ROOT, file);
      const text = readFileSync(file, "utf8");
      return rel in ALLOWED || !/fetch\(/.test(text) ? [] : directFetches(rel, text);
    });
    expect(offenders).toEqual([]);
  });

  it("flags direct calls, and lets a forwarded transport and browser code pass", () => {
    const text = [
      "const a = await fetch(`${emu.url}/api/v1/health`);",
      "const b = await emu.fetch('/api/v1/health', { headers });",
      "const via = (input, init) => e.fetch(input, init);",
      "await runSuite(checks, { fetch: emu.fetch });",
      "await page.evaluate(() => fetch('/api/v1/health'));",
      "const c = (path) => e.fetch(path, { headers });",
    ].join("\n");
    expect(directFetches("t.ts", text)).toEqual([
      "t.ts:1: fetch(`${emu.url}/api/v1/health`)",
      "t.ts:2: emu.fetch('/api/v1/health', { headers })",
      "t.ts:6: e.fetch(path, { headers })",
    ]);
  });
});
