import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { INVARIANTS, SEQUENCES } from "../contract/invariants/index.ts";
import { ALL_CHECKS } from "./registry.ts";
import { WIRE_RULES } from "./wire.ts";
import { RULES, checkerExists, coverageLine } from "./rules.ts";

// The rule inventory's own rules: every rule has a checker that exists (or says why none can be), and every
// check, wire rule and invariant cites an inventory rule; docs/conformance.md prints the coverage line.

describe("rule inventory", () => {
  it("gives every rule a checker that exists, or an explicit reason it cannot be checked", () => {
    const ids = RULES.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    const bad = RULES.flatMap((r) =>
      Array.isArray(r.checkedBy)
        ? r.checkedBy.length === 0
          ? [`${r.id}: no checker`]
          : r.checkedBy.filter((c) => !checkerExists(c)).map((c) => `${r.id}: ${c} does not exist`)
        : (r.checkedBy as { not_checkable: string }).not_checkable
          ? []
          : [`${r.id}: not_checkable without a reason`],
    );
    expect(bad).toEqual([]);
  });

  it("every check, wire rule and invariant cites an inventory rule", () => {
    const cited = new Set(RULES.flatMap((r) => (Array.isArray(r.checkedBy) ? r.checkedBy : [])));
    const checkers = [
      ...ALL_CHECKS.map((c) => c.id),
      ...Object.keys(WIRE_RULES).map((k) => `wire:${k}`),
      ...[...INVARIANTS, ...SEQUENCES].map((i) => `invariant:${i.id}`),
    ];
    expect(checkers.filter((c) => !cited.has(c))).toEqual([]);
  });

  it("docs/conformance.md prints the coverage line", () => {
    const line = coverageLine();
    console.log(`rule inventory: ${line}`);
    expect(readFileSync(new URL("../docs/conformance.md", import.meta.url), "utf8")).toContain(`(${line})`);
  });
});
