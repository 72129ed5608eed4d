import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

// What an in-process emulator without a chain never needs stays out of its import (docs/benchmarks.md,
// "Start-up"): the x402 packages load with the first top-up's kit, and faker through its English
// locale's entry, not its index (which loads every locale). Static imports are what a plain
// `import("cardos-emulator")` evaluates, so no source file may import those at module level.
// Beyond that, walking the static imports from the package's entry (issue 38 goal 1): viem and the
// chain's modules load with the first chain (chain/index.ts `startChain`, chain/viem-late.ts), Hardhat
// with the chain's provider, the OpenAPI writer and yaml with the first document or world file, the
// node server with the first listener.

const ROOT = join(import.meta.dirname, "..", "..");
const LAZY: [RegExp, string][] = [
  [/^@x402\//, "import it in the x402 kit (emulator/areas/credits/x402.ts)"],
  [/^@faker-js\/faker$/, 'import "@faker-js/faker/locale/en" (fixtures/catalog/faker.ts)'],
];

function sources(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) sources(path, out);
    else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts")) out.push(path);
  }
  return out;
}

/** Module-level imports that bring a value (not `import type`, not only `type` specifiers), as [specifier, line]. */
function valueImports(code: string): [string, number][] {
  const out: [string, number][] = [];
  for (const m of code.matchAll(/^import\s+(type\s+)?([\s\S]*?)\s*from\s*"([^"]+)"/gm)) {
    if (m[1]) continue;
    const names = /^\{([\s\S]*)\}$/.exec(m[2]!.trim());
    const onlyTypes = names?.[1]!.split(",").every((n) => !n.trim() || /^type\s/.test(n.trim()));
    if (!onlyTypes) out.push([m[3]!, code.slice(0, m.index).split("\n").length]);
  }
  for (const m of code.matchAll(/^import\s+"([^"]+)"/gm)) out.push([m[1]!, code.slice(0, m.index).split("\n").length]);
  return out;
}

/** What the package's entry must not reach through static imports, with where it loads instead. */
const NOT_AT_IMPORT: [RegExp, string][] = [
  [/^viem($|\/)/, "pure helpers from chain/evm.ts, the rest through chain/viem-late.ts"],
  [/^hardhat($|\/)/, "required by chain/provider.ts when a chain starts"],
  [/^@x402\//, "the x402 kit (emulator/areas/credits/x402.ts)"],
  [/^@faker-js\/faker$/, "the English locale's entry"],
  [/^yaml$/, "on the first YAML document or world file"],
  [/^@hono\/node-server$/, "on the first listener (emulator/pipeline/listen.ts)"],
  [/^\.\/(chain\/(start|emulator-chain|deploy)|emulator\/openapi\/document)\.ts$/, "loaded on first use"],
];

/** Every module `import("cardos-emulator")` evaluates: static value imports and re-exports, from the entry. */
function reached(entry: string): Map<string, [string, number][]> {
  const seen = new Map<string, [string, number][]>();
  const todo = [entry];
  while (todo.length) {
    const file = todo.pop()!;
    if (seen.has(file)) continue;
    const code = readFileSync(file, "utf8");
    const specs = [...valueImports(code), ...valueReExports(code)];
    seen.set(file, specs);
    for (const [spec] of specs) if (spec.startsWith(".")) todo.push(resolve(dirname(file), spec));
  }
  return seen;
}

/** `export * from` and `export { a } from` (not `export type`, not only `type` specifiers), as [specifier, line]. */
function valueReExports(code: string): [string, number][] {
  const out: [string, number][] = [];
  for (const m of code.matchAll(/^export\s+(type\s+)?(\*|\{[\s\S]*?\})\s*from\s*"([^"]+)"/gm)) {
    if (m[1]) continue;
    const names = /^\{([\s\S]*)\}$/.exec(m[2]!.trim());
    const onlyTypes = names?.[1]!.split(",").every((n) => !n.trim() || /^type\s/.test(n.trim()));
    if (!onlyTypes) out.push([m[3]!, code.slice(0, m.index).split("\n").length]);
  }
  return out;
}

describe("lazy imports", () => {
  it("tells value imports from type imports", () => {
    const code = [
      'import type { A } from "@x402/core/types";',
      'import { type B, type C } from "@x402/core/server";',
      'import { x402Facilitator } from "@x402/core/facilitator";',
      'import {\n  type D,\n  decode,\n} from "@x402/core/http";',
      'import * as all from "@faker-js/faker";',
    ].join("\n");
    expect(valueImports(code)).toEqual([
      ["@x402/core/facilitator", 3],
      ["@x402/core/http", 4],
      ["@faker-js/faker", 8],
    ]);
  });

  it("no module of the package imports x402 or faker's index at module level", () => {
    const found: string[] = [];
    for (const dir of ["emulator", "fixtures", "contract", "chain"])
      for (const file of sources(join(ROOT, dir)))
        for (const [spec, line] of valueImports(readFileSync(file, "utf8")))
          for (const [pattern, instead] of LAZY)
            if (pattern.test(spec)) found.push(`${relative(ROOT, file)}:${line} imports ${spec}: ${instead}`);
    expect(found).toEqual([]);
  });

  it("the package's entry reaches none of viem, Hardhat, x402, faker's index, yaml, the node server, the chain's start or the OpenAPI writer", () => {
    const graph = reached(join(ROOT, "emulator", "index.ts"));
    const found: string[] = [];
    for (const [file, specs] of graph) {
      const own = `./${relative(ROOT, file)}`;
      for (const [pattern, instead] of NOT_AT_IMPORT)
        if (pattern.test(own)) found.push(`${own} is reached: ${instead}`);
      for (const [spec, line] of specs)
        for (const [pattern, instead] of NOT_AT_IMPORT)
          if (pattern.test(spec)) found.push(`${relative(ROOT, file)}:${line} imports ${spec}: ${instead}`);
    }
    expect(found).toEqual([]);
    // The walk follows the entry: the area modules and the chain's barrel are reached.
    expect(graph.has(join(ROOT, "emulator", "app.ts"))).toBe(true);
    expect(graph.has(join(ROOT, "chain", "index.ts"))).toBe(true);
  });

  it("the package's import builds no schema and no route: zod, Hono, msw and the emulator's modules load with the first create", () => {
    // emulator/public.ts loads emulator/index.ts inside createEmulator (issue 38 goal 1): what the import
    // evaluates is the entry's few values, and no module of it can build a zod schema or a route spec.
    const graph = reached(join(ROOT, "emulator", "public.ts"));
    const found: string[] = [];
    const HEAVY = /^(zod|hono|msw|@hono\/|viem|hardhat|@faker-js\/)($|\/)/;
    for (const [file, specs] of graph) {
      const own = relative(ROOT, file);
      if (/^(emulator\/(index|app|config|msw)\.ts|emulator\/areas\/|contract\/(index|zod)\.ts)/.test(own))
        found.push(`${own} is reached`);
      for (const [spec, line] of specs) if (HEAVY.test(spec)) found.push(`${own}:${line} imports ${spec}`);
    }
    expect(found).toEqual([]);
    // The walk is the entry's: its values' modules are reached, and only a few.
    expect(graph.has(join(ROOT, "emulator", "entry-values.ts"))).toBe(true);
    expect(graph.size).toBeLessThan(30);
  });
});
