import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";
// @ts-expect-error plain ESM script without types
import { folderOf, LAYERS, violations } from "../scripts/layers.mjs";

// The dependency rule of docs/architecture.md: every import points to the
// same layer or a lower one, areas meet only through each other's index.ts,
// and no files import each other in a circle.

const check = violations as (root: string) => string[];

describe("architecture", () => {
  it("the project's import graph has no upward arrow, no reach into another area, no cycle", () => {
    expect(check(join(__dirname, ".."))).toEqual([]);
  });

  it("the check catches each kind of violation (a synthetic tree)", () => {
    const root = mkdtempSync(join(tmpdir(), "layers-"));
    const file = (path: string, text: string) => {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    };
    file("emulator/state/store.ts", 'import { x } from "../pipeline/errors.ts";\n'); // model → pipeline: upward
    file("emulator/pipeline/errors.ts", "export const x = 1;\n");
    file("emulator/areas/a/rules.ts", 'import { y } from "../b/internal.ts";\n'); // into another area
    file("emulator/areas/b/internal.ts", 'import { z } from "./other.ts";\nexport const y = 1;\n');
    file("emulator/areas/b/other.ts", 'import { y } from "./internal.ts";\nexport const z = y;\n'); // a cycle
    file("emulator/areas/b/index.ts", 'export { y } from "./internal.ts";\n');
    file("conformance/check.ts", 'import { y } from "../emulator/areas/b/index.ts";\n'); // the oracle importing what it judges
    const found = check(root);
    expect(
      found.some((v) => v.startsWith("emulator/state/store.ts (model) imports emulator/pipeline/errors.ts (pipeline)")),
    ).toBe(true);
    expect(found.some((v) => v.includes('reaches into area "b"'))).toBe(true);
    expect(
      found.some((v) => v.startsWith("import cycle: emulator/areas/b/internal.ts → emulator/areas/b/other.ts")),
    ).toBe(true);
    expect(
      found.some((v) =>
        v.startsWith("conformance/check.ts imports emulator/areas/b/index.ts: conformance/ judges by contract/"),
      ),
    ).toBe(true);
    expect(found).toHaveLength(4);
  });

  it("folders show the layers: walking the layers top to bottom never climbs back to a higher folder", () => {
    const rank = folderOf as (path: string) => number | null;
    const order = (LAYERS as Array<{ paths: string[] }>).flatMap((l) => l.paths.map(rank));
    expect(order).not.toContain(null);
    expect(order).toEqual([...order].sort((a, b) => (a as number) - (b as number)));
  });

  it("an import that climbs from one top-level folder to a higher one fails", () => {
    const root = mkdtempSync(join(tmpdir(), "folders-"));
    mkdirSync(join(root, "harness"), { recursive: true });
    mkdirSync(join(root, "shadow"), { recursive: true });
    writeFileSync(join(root, "harness/out.ts"), 'import { x } from "../shadow/cli.ts";\n');
    writeFileSync(join(root, "shadow/cli.ts"), "export const x = 1;\n");
    expect(check(root)).toContain("harness/out.ts imports shadow/cli.ts: folder shadow/ stands above harness/");
  });
});

// The chain behind one gateway (docs/architecture.md "State, time, events, chain"): chain/ owns
// send-and-wait, and an area reaches viem's clients only through its chain-io.ts.
describe("the chain gateway", () => {
  const ROOT = join(__dirname, "..");
  const sources = (dir: string) =>
    (readdirSync(join(ROOT, dir), { recursive: true }) as string[])
      .filter((f) => f.endsWith(".ts") && !f.includes("generated"))
      .map((f) => ({ path: `${dir}/${f}`, text: readFileSync(join(ROOT, dir, f), "utf8") }));
  const all = ["chain", "emulator", "harness", "scenarios", "conformance", "shadow"].flatMap(sources);

  it("waits for a receipt by one policy: chain/send.ts's waitForReceipt (it ends when the chain was taken back), never viem's waitForTransactionReceipt", () => {
    expect(all.filter((f) => f.text.includes("waitForTransactionReceipt(")).map((f) => f.path)).toEqual([]);
    expect(all.filter((f) => /export async function waitForReceipt\b/.test(f.text)).map((f) => f.path)).toEqual([
      "chain/send.ts",
    ]);
  });

  it("defines chainOf once", () => {
    const defs = all.filter((f) => /(const|function)\s+chainOf\b/.test(f.text)).map((f) => f.path);
    expect(defs).toEqual(["emulator/pipeline/chain.ts"]);
  });

  it("areas call viem's clients only in their chain-io.ts", () => {
    const direct = all
      .filter((f) => f.path.startsWith("emulator/areas/") && !f.path.endsWith("/chain-io.ts"))
      .flatMap((f) =>
        f.text
          .split("\n")
          .flatMap((line, i) => (/\b(publicClient|walletClientFor)\b/.test(line) ? [`${f.path}:${i + 1}`] : [])),
      );
    expect(direct).toEqual([]);
  });

  it("an area imports from viem only its pure helpers outside chain-io.ts (the lint rule of eslint.config.js)", async () => {
    const code = [
      'import { createPublicClient, encodeFunctionData, getAddress } from "viem";',
      'import { privateKeyToAccount } from "viem/accounts";',
      "export const used = [createPublicClient, encodeFunctionData, getAddress, privateKeyToAccount];",
    ].join("\n");
    const refused = async (file: string) => {
      const [result] = await new ESLint({ cwd: ROOT }).lintText(code, { filePath: join(ROOT, file) });
      return result!.messages
        .filter((m) => m.ruleId === "no-restricted-imports")
        .map((m) => `${m.line}:${/^'([^']+)'/.exec(m.message)?.[1]}`);
    };
    expect(await refused("emulator/areas/mystery/example.ts")).toEqual(["1:createPublicClient", "2:viem/accounts"]);
    expect(await refused("emulator/areas/instant/purchases/example.ts")).toEqual([
      "1:createPublicClient",
      "2:viem/accounts",
    ]);
    expect(await refused("emulator/areas/mystery/chain-io.ts")).toEqual([]);
  });
});

// Time only from services.clock (docs/architecture.md): an area reads the virtual clock, or the host's
// wall time through clock.wall(), so a test that moves or fakes the clock moves every area with it.
describe("time", () => {
  it("no area reads the host's clock directly (Date.now)", () => {
    const ROOT = join(__dirname, "..");
    const dir = join(ROOT, "emulator/areas");
    const direct = (readdirSync(dir, { recursive: true }) as string[])
      .filter((f) => f.endsWith(".ts"))
      .filter((f) => /\bDate\.now\(/.test(readFileSync(join(dir, f), "utf8")))
      .map((f) => `emulator/areas/${f}`);
    expect(direct).toEqual([]);
  });
});

// Areas seed their partner facts (docs/architecture.md "Where an area's files go", the seed row): an area copies
// what it needs of fixtures/mystery into its slice once, in its seed module, and its rules and formatters read the
// slice. A formatter importing the fixtures would read them at every answer, past what the state says.
describe("partner facts", () => {
  it("no file under emulator/areas/ but an area's seed.ts imports fixtures/mystery", () => {
    const ROOT = join(__dirname, "..");
    const dir = join(ROOT, "emulator/areas");
    const FIXTURES = /(?:\bfrom\s*|\bimport\s*\(\s*)["'][^"']*\/fixtures\/mystery(?:\/[^"']*)?["']/;
    const importing = (readdirSync(dir, { recursive: true }) as string[])
      .filter((f) => f.endsWith(".ts") && FIXTURES.test(readFileSync(join(dir, f), "utf8")))
      .map((f) => `emulator/areas/${f}`)
      .sort();
    // The seed modules do import them: the search finds what it looks for.
    expect(importing).toEqual(["emulator/areas/instant/seed.ts", "emulator/areas/mystery/seed.ts"]);
  });
});
