import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import request from "supertest";
import { readStateFile } from "../../emulator/state/state-file.ts";
import { waitFor } from "../helpers.ts";
import { BIN, launchEmulator } from "./launch.ts";

// --state FILE survives a crash: the emulator is killed with SIGKILL (no
// chance to save on exit) at seeded random points while it writes, and the
// file must always parse and hold every change already written through. That the
// write comes within a second is checked on fake timers (test/unit/state-file-interval.test.ts):
// no wall-time budget here, which a loaded machine could exceed.

async function launch(stateFile: string) {
  const { child, info, exited, stderr } = await launchEmulator([
    "--no-chain",
    "--clock",
    "manual",
    "--state",
    stateFile,
  ]);
  return { child, url: info.url, keys: info.keys, exited, stderr };
}

const labelsIn = (file: string): string[] => {
  const doc = readStateFile(file)!;
  return Object.values(doc.state.keys).map((k) => k.label);
};

const newKey = (url: string, label: string) => request(url).post("/_emulator/keys").send({ kind: "partner", label });

describe("--state FILE writes through", () => {
  it("a webhook registered just before a SIGKILL is written through by itself, and back after a restart", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "emu-wt-")), "state.json");
    const a = await launch(file);
    const partner = a.keys.find((k) => k.kind === "partner")!.key;
    const reg = await request(a.url)
      .post("/api/v1/webhooks")
      .set("x-api-key", partner)
      .send({ url: "https://hooks.example.com/kill-test", event_types: ["purchase.fulfilled"] });
    expect(reg.status).toBe(201);
    // Written through by itself: no later request, no exit.
    await waitFor(
      () => existsSync(file) && readFileSync(file, "utf8").includes("hooks.example.com/kill-test"),
      "the webhook in the state file",
    );
    a.child.kill("SIGKILL");
    await a.exited;

    const b = await launch(file);
    try {
      const list = await request(b.url).get("/api/v1/webhooks").set("x-api-key", partner);
      const body = list.body as { data: { webhooks: { url: string }[] } };
      expect(body.data.webhooks.map((w) => w.url)).toContain("https://hooks.example.com/kill-test");
    } finally {
      b.child.kill("SIGKILL");
      await b.exited;
    }
  });

  it("SIGKILL at random points while writing: the file always parses and holds every change already written through", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "emu-wt-")), "state.json");
    let seed = 42;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const settled: string[] = [];
    for (let round = 0; round < 4; round++) {
      const run = await launch(file);
      // Older changes: made, then seen on disk (written through by themselves).
      const older = Array.from({ length: 5 }, (_, i) => `r${round}-old-${i}`);
      for (const label of older) expect((await newKey(run.url, label)).status).toBe(201);
      await waitFor(() => older.every((l) => labelsIn(file).includes(l)), "older changes on disk");
      settled.push(...older);
      // A stream of writes, killed after a random number of them (mid-write for some rounds).
      const killAfter = 1 + Math.floor(rand() * 40);
      for (let i = 0; i < killAfter; i++) await newKey(run.url, `r${round}-stream-${i}`);
      run.child.kill("SIGKILL");
      await run.exited;
      const labels = labelsIn(file); // throws if torn
      for (const l of settled) expect(labels, `round ${round}`).toContain(l);
    }
  });

  it("a file that is not a state export is refused with one line saying what to do", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "emu-wt-")), "state.json");
    writeFileSync(file, JSON.stringify({ format: "cardos-emulator-state", version: 0, now: 0, state: {} }));
    const child = spawn(process.execPath, [BIN, "--json", "--port", "0", "--no-chain", "--state", file], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr!.on("data", (d) => (stderr += d));
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    expect(code).toBe(2);
    expect(stderr).toMatch(/--state .*state\.json: .*Delete the file or point --state elsewhere/);
    writeFileSync(file, "{torn");
    const again = spawn(process.execPath, [BIN, "--json", "--port", "0", "--no-chain", "--state", file], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let err2 = "";
    again.stderr!.on("data", (d) => (err2 += d));
    expect(await new Promise<number | null>((resolve) => again.once("exit", resolve))).toBe(2);
    expect(err2).toContain("not JSON");
  });
});
