import { describe, it, expect, beforeAll } from "vitest";
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";

// The public declarations are self-contained and small (issue 38): from each entry point of package.json
// `exports`, the .d.ts files its types reach (relative imports followed, packages named, as `tsc` loads
// them) never include the emulator's internals or the heavy packages behind them. A user's strict
// `tsc` of one file then loads about what msw alone loads (docs/benchmarks.md "Start-up").

const ROOT = join(import.meta.dirname, "..");
const DIST = join(ROOT, "dist");

/** Packages no public declaration may reach (hundreds of declaration files each, or not installed). */
const HEAVY = ["viem", "abitype", "ox", "zod", "hono", "@hono/node-server", "type-fest", "hardhat", "@x402/core"];
/** The internals: the services, the store and its records, the contract's zod schemas, the internal entry. */
const INTERNAL = [
  /^emulator\/index\.d\.ts$/,
  /^emulator\/config\.d\.ts$/,
  /^emulator\/app\.d\.ts$/,
  /^emulator\/chain-host\.d\.ts$/,
  /^emulator\/pipeline\/services\.d\.ts$/,
  /^emulator\/state\/(schema|store|slices)\.d\.ts$/,
  /^emulator\/areas\//,
  /^contract\/zod\.d\.ts$/,
];
/**
 * What an entry point may expose beyond that, and why (README "Types"): `./chain` is the chain gateway,
 * typed with viem for its users, who use viem; `./conformance` types a check's funded wallet with viem and
 * the webhook events with the contract's zod schemas.
 */
const EXPOSES: Record<string, { packages: string[]; internal: RegExp[] }> = {
  "./chain": { packages: ["viem", "abitype", "ox"], internal: [] },
  "./conformance": { packages: ["viem", "abitype", "ox", "zod"], internal: [/^contract\/zod\.d\.ts$/] },
};

interface Graph {
  files: string[];
  packages: Map<string, string>;
}

/** The declaration files `start` reaches and the packages they import (each with the first file importing it). */
function declarationGraph(start: string): Graph {
  const seen = new Set<string>();
  const packages = new Map<string, string>();
  const queue = [start];
  while (queue.length) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const text = readFileSync(file, "utf8");
    const specifiers = [...text.matchAll(/^\/\/\/\s*<reference\s+types="([^"]+)"/gm)].map((m) => m[1]!);
    // Doc comments quote imports (`import … from "cardos-emulator/conformance"`): only code counts.
    const code = text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
    for (const m of code.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)["']([^"']+)["']/g))
      specifiers.push(m[1]!);
    for (const spec of specifiers) {
      if (spec.startsWith(".")) {
        const target = join(dirname(file), spec).replace(/\.js$/, ".d.ts");
        expect(existsSync(target), `${relative(DIST, file)} imports ${spec}`).toBe(true);
        queue.push(target);
      } else if (!spec.startsWith("node:")) {
        const name = spec
          .split("/")
          .slice(0, spec.startsWith("@") ? 2 : 1)
          .join("/");
        if (!packages.has(name)) packages.set(name, relative(DIST, file));
      }
    }
  }
  return { files: [...seen].map((f) => relative(DIST, f)).sort(), packages };
}

const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
  exports: Record<string, string | { types?: string }>;
};
const entries = Object.entries(manifest.exports).flatMap(([name, target]) =>
  typeof target === "object" && target.types ? [{ name, types: join(ROOT, target.types) }] : [],
);

beforeAll(() => {
  // dist/ from the current sources (a no-op when it is fresh).
  const res = spawnSync(process.execPath, [join(ROOT, "scripts", "build.mjs")], { cwd: ROOT, encoding: "utf8" });
  expect(res.status, res.stdout + res.stderr).toBe(0);
}, 600_000);

describe("the public declarations", () => {
  it("cover every entry point with types", () => {
    expect(entries.map((e) => e.name)).toEqual([
      ".",
      "./chain",
      "./conformance",
      "./control",
      "./vitest",
      "./vitest/setup",
    ]);
  });

  for (const { name, types } of entries) {
    it(`of ${name} reach no heavy package and no internal module`, () => {
      const { files, packages } = declarationGraph(types);
      const exposes = EXPOSES[name] ?? { packages: [], internal: [] };
      const heavy = [...packages]
        .filter(([p]) => HEAVY.includes(p) && !exposes.packages.includes(p))
        .map(([p, from]) => `${p} (imported by ${from})`);
      expect(heavy).toEqual([]);
      const internal = files.filter(
        (f) => INTERNAL.some((re) => re.test(f)) && !exposes.internal.some((re) => re.test(f)),
      );
      expect(internal).toEqual([]);
    });
  }

  it("of the package's entry are a handful of files importing msw alone", () => {
    const root = entries.find((e) => e.name === ".")!;
    const { files, packages } = declarationGraph(root.types);
    expect([...packages.keys()]).toEqual(["msw"]);
    expect(files.length).toBeLessThanOrEqual(20);
    expect(files).toContain("emulator/public-types.d.ts");
  });
});
