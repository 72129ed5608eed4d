import { describe, it, expect } from "vitest";
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { verifyBundle, type CertificationBundle } from "./certify.ts";

// The whole suite over real HTTP against a second emulator process, as a
// partner would run it against a remote URL.

const BIN = join(import.meta.dirname, "..", "bin", "emulator.js");

function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

/** A second emulator process (`--json`, no chain) and its ready line: its URL and the fixture key of a kind. */
async function startTarget(args: string[]) {
  const target = spawn(process.execPath, [BIN, "--json", "--port", "0", "--no-chain", ...args], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  try {
    const line = JSON.parse(
      await new Promise<string>((resolve) => createInterface({ input: target.stdout! }).once("line", resolve)),
    ) as { url: string; keys: { kind: string; key: string }[] };
    const key = (kind: string) => line.keys.find((k) => k.kind === kind)!.key;
    return { target, url: line.url, key };
  } catch (err) {
    target.kill("SIGINT");
    throw err;
  }
}

describe("conformance over real HTTP", () => {
  it("passes against a separately started emulator, writes reports and a verifiable certification bundle", async () => {
    const { target, url, key } = await startTarget(["--clock", "manual"]);
    try {
      const partner = key("partner");
      const tenant = key("tenant");
      const dir = mkdtempSync(join(tmpdir(), "conformance-"));
      const res = await run([
        "conformance",
        "--base-url",
        url,
        "--partner-key",
        partner,
        "--tenant-key",
        tenant,
        "--profile",
        "pipeline",
        "--profile",
        "catalog",
        "--certify",
        "--bundle",
        join(dir, "bundle.json"),
        "--report",
        `junit=${join(dir, "r.xml")}`,
        "--report",
        `json=${join(dir, "r.json")}`,
        "--report",
        `md=${join(dir, "r.md")}`,
        "--report",
        `html=${join(dir, "r.html")}`,
      ]);
      expect(res.code, res.stdout + res.stderr).toBe(0);
      expect(res.stdout).toContain("profile");
      expect(res.stderr).toMatch(/\[\s*1\/\d+\]/);
      const bundle = JSON.parse(readFileSync(join(dir, "bundle.json"), "utf8")) as CertificationBundle;
      expect(bundle).toMatchObject({
        passed: true,
        target_url: url,
        key_kinds: ["partner", "tenant"],
        mode: "emulator",
      });
      expect(JSON.stringify(bundle)).not.toContain(partner);
      expect(await verifyBundle(bundle)).toEqual({ ok: true, problems: [] });
      expect((await verifyBundle({ ...bundle, passed: false })).ok).toBe(false);
      expect(readFileSync(join(dir, "r.xml"), "utf8")).toContain("<testsuites");
      expect(JSON.parse(readFileSync(join(dir, "r.json"), "utf8")).results.length).toBe(bundle.results.length);
      expect(readFileSync(join(dir, "r.md"), "utf8")).toContain("| Check |");
      expect(readFileSync(join(dir, "r.html"), "utf8")).toContain('<h2 id="profile-catalog">catalog</h2>');
      // The service's side: the CLI verifies the bundle against this suite's checks digest.
      const verified = await run(["conformance", "--verify", join(dir, "bundle.json")]);
      expect(verified.code, verified.stdout).toBe(0);
      expect(verified.stdout).toContain("bundle verified");
    } finally {
      target.kill("SIGINT");
    }
  });

  it("read-only mode against the same kind of target: control-plane checks are not applicable, and --certify refuses", async () => {
    const { target, url, key } = await startTarget([]);
    try {
      const partner = key("partner");
      const dir = mkdtempSync(join(tmpdir(), "conformance-"));
      const res = await run([
        "conformance",
        "--base-url",
        url,
        "--partner-key",
        partner,
        "--mode",
        "read-only",
        "--profile",
        "pipeline",
        "--certify",
        "--bundle",
        join(dir, "b.json"),
      ]);
      expect(res.code).toBe(1);
      expect(res.stderr).toContain("did not");
      const bundle = JSON.parse(readFileSync(join(dir, "b.json"), "utf8")) as CertificationBundle;
      expect(bundle.passed).toBe(false);
    } finally {
      target.kill("SIGINT");
    }
  });
});
