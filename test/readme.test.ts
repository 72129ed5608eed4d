import { describe, it, expect } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { controlRoutes } from "../emulator/app.ts";
import { SCENARIOS } from "../scenarios/registry.ts";

// The README is part of the product: it must list every control-plane route and every scenario.
const readme = readFileSync(join(import.meta.dirname, "..", "README.md"), "utf8");

describe("README", () => {
  it("documents every control-plane route", () => {
    const missing = controlRoutes
      .filter((r) => !readme.includes(`\`/_emulator${r.path}\``))
      .map((r) => `${r.method} /_emulator${r.path}`);
    expect(missing).toEqual([]);
  });
  it("lists every scenario", () => {
    expect(SCENARIOS.filter((s) => !readme.includes(`\`${s.name}\``)).map((s) => s.name)).toEqual([]);
  });
  it("gives the two quick-start commands", () => {
    expect(readme).toContain("npm install && npx emulator");
    expect(readme).toContain("npm install && npm test");
  });
});
