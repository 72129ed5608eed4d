import { join } from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";
import { isoDay, isoMonth, isoOf } from "../../contract/time.ts";

// One formatter for an instant and one reader of the host's clock (docs/decisions.md, "One way for
// each job"): the lint rule refuses `.toISOString()` outside contract/time.ts and `Date.now` outside
// the places eslint.config.js lists with their reasons, in every source folder.

const ROOT = join(import.meta.dirname, "..", "..");
const CODE = [
  "export const a = (ms: number) => new Date(ms).toISOString();",
  "export const b = () => Date.now();",
  "export const c = { now: Date.now };",
].join("\n");

async function timeRules(file: string): Promise<string[]> {
  const [result] = await new ESLint({ cwd: ROOT }).lintText(CODE, { filePath: join(ROOT, file) });
  return result!.messages
    .filter((m) => m.ruleId === "no-restricted-properties")
    .map((m) => `${m.line}:${/^'([^']+)'/.exec(m.message)?.[1]}`);
}

describe("the time lint rule", () => {
  it("refuses toISOString and Date.now in every source folder", async () => {
    for (const folder of [
      "emulator/areas/example",
      "emulator/pipeline",
      "emulator/state",
      "contract",
      "chain",
      "fixtures",
      "scenarios",
      "harness",
      "conformance/checks",
      "shadow",
      "cli",
      "testing/deviations",
    ])
      expect(await timeRules(`${folder}/example.ts`), folder).toEqual(["1:toISOString", "2:Date.now", "3:Date.now"]);
  });

  it("lets the clock and the listed wall-clock readers read Date.now, and only contract/time.ts format", async () => {
    expect(await timeRules("emulator/clock/clock.ts")).toEqual(["1:toISOString"]);
    expect(await timeRules("conformance/runner.ts")).toEqual(["1:toISOString"]);
    expect(await timeRules("bench/example.ts")).toEqual(["1:toISOString"]);
    expect(await timeRules("contract/time.ts")).toEqual(["2:Date.now", "3:Date.now"]);
  });

  it("formats an instant as the wire writes it", () => {
    const t = Date.UTC(2026, 0, 15, 12, 0, 0, 7);
    expect([isoOf(t), isoMonth(t), isoDay(t)]).toEqual(["2026-01-15T12:00:00.007Z", "2026-01", "2026-01-15"]);
    expect(isoOf(0)).toBe("1970-01-01T00:00:00.000Z");
  });
});
