import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { QUICK_INCLUDE, SLOW } from "../vitest.config.ts";

// `npm run test:quick` is the inner loop (≤ 60 s on 2 cores): a test file that starts a chain, a
// browser or a child process belongs in SLOW (vitest.config.ts), which only `npm test` runs.

const ROOT = join(import.meta.dirname, "..");
/** What makes a file slow, in the file or in a test-side module it imports. */
const SLOW_MARKERS =
  /\bchain: *(?:true|\{)|\b(?:useMystery|startMystery|useChain|startChain|spawn|spawnSync|execFile|execFileSync|fork)\(|playwright/;
const TEST_SIDE = ["test", "scenarios", "conformance"];

function globToRegExp(glob: string): RegExp {
  const body = glob
    .split("**/")
    .map((part) => part.replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, "[^/]*"))
    .join("(?:.*/)?");
  return new RegExp(`^${body}$`);
}

function* files(dir: string): Generator<string> {
  for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) yield* files(rel);
    else yield rel;
  }
}

/** The file and the test helpers (modules under test/) it reaches through relative imports. */
function closure(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  const text = readFileSync(join(ROOT, file), "utf8");
  for (const [, spec] of text.matchAll(/^(?:import|export)(?!\s+type\b)[^;]*?from\s+"(\.{1,2}\/[^"]+\.ts)"/gm)) {
    const target = relative(ROOT, resolve(ROOT, dirname(file), spec!));
    if (target.startsWith("test/") && existsSync(join(ROOT, target))) closure(target, seen);
  }
  return seen;
}

const slow = SLOW.map(globToRegExp);
const quick = TEST_SIDE.flatMap((d) => [...files(d)])
  .filter((f) => QUICK_INCLUDE.map(globToRegExp).some((r) => r.test(f)))
  .filter((f) => !slow.some((r) => r.test(f)))
  .filter((f) => f !== "test/test-split.test.ts"); // its markers are the ones above

describe("the quick/slow split of the test files", () => {
  it("no quick test file starts a chain, a browser or a child process", () => {
    expect(quick.length).toBeGreaterThan(50);
    const offenders = quick.filter((f) =>
      [...closure(f)].some((m) => SLOW_MARKERS.test(readFileSync(join(ROOT, m), "utf8"))),
    );
    expect(offenders).toEqual([]);
  });

  it("the check sees a chain started through a helper module", () => {
    expect([...closure("test/mystery/purchase.test.ts")]).toContain("test/mystery/helpers.ts");
    expect(SLOW_MARKERS.test(readFileSync(join(ROOT, "test/mystery/helpers.ts"), "utf8"))).toBe(true);
  });
});
