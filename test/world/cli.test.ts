import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import request from "supertest";
import { createEmulator } from "../../emulator/index.ts";

// The world on the command line: init writes a starter that runs as written, a bad --world exits 2 before
// anything starts (no state file written), `world --schema` prints the schema.

const BIN = join(__dirname, "..", "..", "bin", "emulator.js");

function run(args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [BIN, ...args], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, ...env },
  });
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (d) => (stdout += d));
  child.stderr!.on("data", (d) => (stderr += d));
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.once("exit", (code) => resolve({ code, stdout, stderr })),
  );
}

describe("npx emulator --world, init, world", () => {
  it("init writes the starter world; createEmulator({ world: path }) starts with it as written", async () => {
    const dir = mkdtempSync(join(tmpdir(), "emu-world-"));
    const file = join(dir, "world.yaml");
    const r = await run(["init", "--out", file]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`wrote ${file}`);
    expect(readFileSync(file, "utf8")).toContain("version: 1");
    // Never overwritten without --force.
    const again = await run(["init", "--out", file]);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain("exists; pass --force");

    const emu = await createEmulator({ seed: 1, port: 0, chain: { rpcPort: 0 }, world: file });
    try {
      const api = request(emu.url);
      const alice = await api
        .get("/api/v1/wallet/balance?external_user_id=alice")
        .set("X-API-Key", emu.key("shop"))
        .expect(200);
      expect(alice.body.data.wallet).toMatchObject({ balance: "100000000" });
      expect(emu.clock.mode).toBe("manual");
      const keys = (await api.get("/_emulator/keys").expect(200)).body.data.keys as { name?: string }[];
      expect(
        keys.map((k) => k.name).filter((n) => ["shop", "shop-readonly", "tier-shop", "vault"].includes(n!)),
      ).toEqual(["shop", "shop-readonly", "tier-shop", "vault"]);
      // The steered reveal is queued, and the health summary names the world.
      const { pending } = (await api.get("/_emulator/mystery/reveals").expect(200)).body.data;
      expect(pending).toMatchObject([{ tier_id: 1, account_id: "my-shop", external_user_id: "alice" }]);
      const { world } = (await api.get("/_emulator/health").expect(200)).body.data;
      expect(world).toEqual({ file, accounts: 3, keys: ["shop", "shop-readonly", "tier-shop", "vault"] });
    } finally {
      await emu.close();
    }
  });

  it("a bad --world (or EMULATOR_WORLD) exits 2 naming every problem, before anything starts", async () => {
    const dir = mkdtempSync(join(tmpdir(), "emu-world-"));
    const file = join(dir, "bad.yaml");
    const state = join(dir, "state.json");
    writeFileSync(
      file,
      [
        "version: 1",
        "accounts:",
        "  - id: a",
        "    billing_model: POOL",
        "    keys:",
        "      - { name: x, scopes: [packs:buy] }",
        "",
      ].join("\n"),
    );
    const r = await run(["--world", file, "--port", "0", "--rpc-port", "0"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`world ${file}: 1 problem`);
    expect(r.stderr).toContain('accounts[0].keys[0].scopes[0]: unknown scope "packs:buy" (one of read:catalog');
    expect(r.stdout).toBe("");
    const viaEnv = await run(["--port", "0", "--no-chain", "--state", state], { EMULATOR_WORLD: file });
    expect(viaEnv.code).toBe(2);
    expect(viaEnv.stderr).toContain("give world or state / stateFile, not both");
    expect(existsSync(state)).toBe(false);
  });

  it("world --schema prints the JSON Schema; world --check names a file's problems", async () => {
    const r = await run(["world", "--schema"]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(
      JSON.parse(readFileSync(join(__dirname, "..", "..", "docs", "world.schema.json"), "utf8")),
    );
    const dir = mkdtempSync(join(tmpdir(), "emu-world-"));
    const file = join(dir, "w.json");
    writeFileSync(file, JSON.stringify({ version: 1, tenants: [{ id: "t", keys: [{ name: "t", colour: 1 }] }] }));
    const check = await run(["world", "--check", file]);
    expect(check.code).toBe(2);
    expect(check.stderr).toContain("tenants[0].keys[0].colour: unknown key (allowed here: name,");
  });
});
