import { describe, it, expect } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ALL_CHECKS } from "./registry.ts";
import { checkTable, withCheckTable } from "./check-table.ts";

// docs/conformance.md lists every check as the registry declares it: a check added, or its needs or cost
// changed, without regenerating the table fails here. Fix with `npx tsx scripts/conformance-table.mts --write`.

const doc = readFileSync(join(import.meta.dirname, "..", "docs", "conformance.md"), "utf8");

describe("docs/conformance.md check table", () => {
  it("is exactly the one generated from the registry", () => {
    expect(withCheckTable(doc, checkTable(ALL_CHECKS))).toBe(doc);
  });

  it("names every check", () => {
    for (const c of ALL_CHECKS) expect(doc).toContain(`| \`${c.id}\` |`);
  });

  it("every emulator-only check says which power of the control plane it needs and what it does with it", () => {
    const bare = ALL_CHECKS.filter(
      (c) => c.mode === "emulator" && !(c.emulatorOnly && c.emulatorOnly.what.length > 10),
    );
    expect(bare.map((c) => c.id)).toEqual([]);
    expect(ALL_CHECKS.filter((c) => c.mode !== "emulator" && c.emulatorOnly).map((c) => c.id)).toEqual([]);
  });
});
