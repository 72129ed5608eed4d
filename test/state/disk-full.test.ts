import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { describe, expect, it } from "vitest";
import request from "supertest";
import { readStateFile } from "../../emulator/state/state-file.ts";
import { waitFor } from "../helpers.ts";
import { BIN, launchEmulator } from "./launch.ts";

// A state file that outgrows the space left (a full disk, `ulimit -f`) must
// never be replaced by a torn one: the short write is reported and the
// previous complete file stays.

const newKey = (url: string, label: string) => request(url).post("/_emulator/keys").send({ kind: "partner", label });

describe("--state FILE on a full disk", () => {
  it("a write cut short by the file size limit keeps the previous file and is reported on stderr and in health", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "emu-full-")), "state.json");
    // 12 KiB per file (bash counts 1024-byte blocks): the fresh state (~5 KB) fits, a few dozen keys do not.
    const child = spawn(
      "bash",
      [
        "-c",
        `ulimit -f 12; exec "${process.execPath}" "${BIN}" --json --port 0 --no-chain --clock manual --state "${file}"`,
      ],
      {
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let stderr = "";
    child.stderr!.on("data", (d) => (stderr += d));
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    try {
      const line = await new Promise<string>((resolve, reject) => {
        createInterface({ input: child.stdout! }).once("line", resolve);
        child.once("exit", (code) => reject(new Error(`exited ${code}: ${stderr}`)));
      });
      const { url } = JSON.parse(line) as { url: string };
      for (let i = 0; i < 5; i++) expect((await newKey(url, `fits-${i}`)).status).toBe(201);
      await waitFor(
        () =>
          readStateFile(file)?.state.keys
            ? Object.values(readStateFile(file)!.state.keys).some((k) => k.label === "fits-4")
            : false,
        "the first keys on disk",
      );
      const good = readFileSync(file, "utf8");
      for (let i = 0; i < 60; i++) expect((await newKey(url, `too-much-${i}`)).status).toBe(201);
      await waitFor(() => stderr.includes("could not write the state file"), "the failure on stderr");
      expect(stderr).toContain(file);
      expect(stderr).not.toMatch(/\n\s+at /); // one line, no stack trace
      const health = (await request(url).get("/_emulator/health")).body as {
        data: { state_file: { path: string; ok: boolean; error: string | null } };
      };
      expect(health.data.state_file.path).toBe(file);
      expect(health.data.state_file.ok).toBe(false);
      expect(health.data.state_file.error).toMatch(/EFBIG|short write|written/);
      // The last write that fitted is still there, whole: it parses, it holds everything the earlier file held, and
      // it is not the one cut short (writes that still fitted may have landed after the earlier file, between calls).
      const kept = readFileSync(file, "utf8");
      const keptLabels = Object.values(readStateFile(file)!.state.keys).map((k) => k.label);
      const goodLabels = Object.values(JSON.parse(good).state.keys as Record<string, { label: string }>).map(
        (k) => k.label,
      );
      expect(keptLabels).toEqual(expect.arrayContaining(goodLabels));
      expect(keptLabels).not.toContain("too-much-59");
      expect(statSync(file).size).toBe(Buffer.byteLength(kept));
      expect(statSync(file).size).toBeLessThanOrEqual(12 * 1024);
    } finally {
      child.kill("SIGKILL");
      await exited;
    }
    // ... and the next start takes it.
    const again = await launchEmulator(["--no-chain", "--clock", "manual", "--state", file]);
    try {
      const labels = Object.values(readStateFile(file)!.state.keys).map((k) => k.label);
      expect(labels).toContain("fits-4");
    } finally {
      again.child.kill("SIGKILL");
      await again.exited;
    }
  });
});
