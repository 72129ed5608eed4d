import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BIN } from "./launch.ts";

// Other files the CLI writes (OpenAPI --out, conformance --report / --bundle):
// a path that cannot be written is refused in one line, before any work is
// done (a conformance run takes minutes), never a stack trace at the end.

async function run(args: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (d) => (stdout += d));
  child.stderr!.on("data", (d) => (stderr += d));
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  return { code, stdout, stderr };
}

describe("output files the CLI writes", () => {
  it("openapi --out into a missing folder, or a file as the folder: one line, exit 2; a good path is written whole", async () => {
    const d = mkdtempSync(join(tmpdir(), "emu-out-"));
    writeFileSync(join(d, "plain"), "x");
    for (const [out, reason] of [
      [join(d, "missing", "api.json"), /its folder does not exist/],
      [join(d, "plain", "api.json"), /a part of its path is not a folder/],
      [d, /is a folder/],
    ] as const) {
      const r = await run(["openapi", "--out", out]);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(
        new RegExp(`^emulator: --out ${out.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}: cannot write it \\(`),
      );
      expect(r.stderr).toMatch(reason);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
    const good = join(d, "api.json");
    const r = await run(["openapi", "--out", good]);
    expect(r.code).toBe(0);
    expect(JSON.parse(readFileSync(good, "utf8")).openapi).toMatch(/^3\.1/);
  });

  it("conformance --report / --bundle to an unwritable path is refused before the suite runs", async () => {
    const d = mkdtempSync(join(tmpdir(), "emu-out-"));
    const r = await run(["conformance", "--report", `json=${join(d, "missing", "r.json")}`]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/^emulator: --report .*missing\/r\.json: cannot write it \(its folder does not exist\)/);
    expect(r.stderr).not.toContain("starting an in-process emulator");
    const b = await run(["conformance", "--certify", "--bundle", join(d, "missing", "c.json")]);
    expect(b.code, b.stderr).toBe(2);
    expect(b.stderr).toMatch(/^emulator: --bundle .*missing\/c\.json: cannot write it \(its folder does not exist\)/);
    expect(b.stderr).not.toContain("starting an in-process emulator");
  });

  it("conformance --verify with a torn or foreign bundle, or a bad request log line: one line, exit 2", async () => {
    const d = mkdtempSync(join(tmpdir(), "emu-out-"));
    const cases: Array<[string, string, RegExp]> = [
      ["torn.json", "{torn", /^emulator: --verify .*torn\.json: not JSON \(is it a certification bundle\?\)\n/],
      [
        "null.json",
        "null",
        /^emulator: --verify .*null\.json: not a certification bundle \(expected a JSON object\)\n/,
      ],
    ];
    for (const [name, text, message] of cases) {
      writeFileSync(join(d, name), text);
      const r = await run(["conformance", "--verify", join(d, name)]);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
    writeFileSync(join(d, "b.json"), "{}");
    writeFileSync(join(d, "log.jsonl"), '{"request_id":"a"}\n{oops\n');
    const r = await run(["conformance", "--verify", join(d, "b.json"), "--request-log", join(d, "log.jsonl")]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/^emulator: --request-log .*log\.jsonl: line 2 is not a JSON object\n/);
  });
});
