import { afterAll, beforeAll, describe, expect, it } from "vitest";
import request from "supertest";
import { spawn } from "node:child_process";
import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator } from "../helpers.ts";
import { deviations } from "../../testing/deviations/index.ts";

// `npx emulator shadow` as CI runs it: the drift report in the files asked for, exit 1 on drift, 0 without.

const BIN = join(__dirname, "..", "..", "bin", "emulator.js");
let up: Awaited<ReturnType<typeof startEmulator>>;
let dir: string;

beforeAll(async () => {
  up = await startEmulator({ plugins: [deviations] });
  dir = mkdtempSync(join(tmpdir(), "shadow-cli-"));
});
afterAll(async () => {
  await up.close();
  rmSync(dir, { recursive: true, force: true });
});

function shadow(extra: string[]) {
  const child = spawn(
    process.execPath,
    [
      BIN,
      "shadow",
      "--upstream",
      up.emu.url,
      "--upstream-key",
      up.emu.key("demo"),
      "--port",
      "0",
      "--no-chain",
      ...extra,
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let stderr = "";
  let stdout = "";
  child.stdout!.on("data", (d) => (stdout += d));
  const url = new Promise<string>((resolve, reject) => {
    child.stderr!.on("data", (d) => {
      stderr += d;
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stderr);
      if (m) resolve(m[1]!);
    });
    child.once("exit", (code) => reject(new Error(`exited ${code}: ${stderr}`)));
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return { child, url, exited, out: () => ({ stdout, stderr }) };
}

describe("npx emulator shadow", () => {
  it("stops after --requests N, writes the report as JSON, Markdown and HTML, and exits 1 on drift", async () => {
    await up.api.post("/_emulator/deviations").send({ name: "schema_field_renamed" }).expect(201);
    try {
      const run = shadow([
        "--requests",
        "2",
        "--report",
        join(dir, "drift.json"),
        "--report",
        join(dir, "drift.md"),
        "--report",
        join(dir, "drift.html"),
      ]);
      const url = await run.url;
      expect((await request(url).get("/api/v1/pokemon/cards/base1-1")).status).toBe(200);
      expect((await request(url).get("/api/v1/health")).status).toBe(200);
      expect(await run.exited, run.out().stderr).toBe(1);
      const report = JSON.parse(readFileSync(join(dir, "drift.json"), "utf8"));
      expect(report.totals).toMatchObject({ calls: 2, compared: 2, differing: 1, differences: 2 });
      const card = report.operations.find((o: { id: string }) => o.id === "cards.get");
      expect(card.differences.map((d: { kind: string; where: string }) => `${d.kind} ${d.where}`).sort()).toEqual([
        "extra /data/card_name",
        "missing /data/name",
      ]);
      expect(readFileSync(join(dir, "drift.md"), "utf8")).toContain("`/data/card_name`");
      expect(readFileSync(join(dir, "drift.html"), "utf8")).toContain("<code>/data/card_name</code>");
      expect(readFileSync(join(dir, "drift.json"), "utf8")).not.toContain(up.emu.key("demo"));
    } finally {
      await up.api.post("/_emulator/reset").expect(200);
    }
  });

  it("on SIGTERM prints the report and exits 0 when nothing differed", async () => {
    const run = shadow([]);
    const url = await run.url;
    expect((await request(url).get("/api/v1/pokemon/cards/base1-1")).status).toBe(200);
    // The answer reaches the client before the comparison ends; the report waits for it.
    run.child.kill("SIGTERM");
    expect(await run.exited, run.out().stderr).toBe(0);
    expect(run.out().stdout).toContain(
      "| `cards.get` GET /:game{pokemon\\|onepiece\\|azuki}/cards/:id | 1 | 1 | 0 | 0 |",
    );
  });

  it("refuses to start without an upstream key, as a usage error", async () => {
    const child = spawn(process.execPath, [BIN, "shadow", "--upstream", "http://127.0.0.1:1"], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr!.on("data", (d) => (stderr += d));
    expect(await new Promise((r) => child.once("exit", r))).toBe(2);
    expect(stderr).toContain("--upstream-key");
  });

  it("a taken port is a one-line usage error naming the flag, whichever of the two ports it is", async () => {
    const taken = createServer();
    await new Promise<void>((r) => taken.listen(0, "127.0.0.1", r));
    const port = (taken.address() as AddressInfo).port;
    try {
      for (const [flags, flag] of [
        [["--port", String(port - 1)], "--dashboard-port"],
        [["--port", String(port), "--dashboard-port", "0"], "--port"],
      ] as const) {
        const args = ["shadow", "--upstream", up.emu.url, "--upstream-key", "k", "--no-chain", ...flags];
        const child = spawn(process.execPath, [BIN, ...args], { stdio: ["ignore", "pipe", "pipe"] });
        let stderr = "";
        child.stderr!.on("data", (d) => (stderr += d));
        expect(await new Promise((r) => child.once("exit", r)), stderr).toBe(2);
        expect(stderr).toContain(`${flag} ${port}: the port is in use`);
        expect(stderr).not.toContain("    at ");
      }
    } finally {
      await new Promise((r) => taken.close(r));
    }
  });

  it("npx emulator --replay DIR with a directory that does not exist is a one-line usage error", async () => {
    const child = spawn(process.execPath, [BIN, "--replay", join(dir, "missing"), "--no-chain", "--port", "0"], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr!.on("data", (d) => (stderr += d));
    expect(await new Promise((r) => child.once("exit", r))).toBe(2);
    expect(stderr).toContain("--replay: replay directory");
  });
});
