import { describe, it, expect } from "vitest";
import { spawn } from "node:child_process";
import { mkdtempSync, existsSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";

const BIN = join(__dirname, "..", "bin", "emulator.js");

function launch(args: string[]) {
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ["ignore", "pipe", "pipe"] });
  const lines = createInterface({ input: child.stdout! });
  const first = new Promise<string>((resolve, reject) => {
    lines.once("line", resolve);
    child.once("exit", (code) => reject(new Error(`exited ${code}`)));
  });
  first.catch(() => {});
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  let stderr = "";
  child.stderr!.on("data", (d) => (stderr += d));
  return { child, first, exited, stderr: () => stderr };
}

describe("npx emulator", () => {
  it("--json prints exactly one JSON line when ready, serves the API, and exits cleanly on SIGINT (exporting --state)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "emu-cli-"));
    const stateFile = join(dir, "state.json");
    const run = launch(["--json", "--port", "0", "--seed", "3", "--no-chain", "--state", stateFile]);
    const line = JSON.parse(await run.first);
    expect(Object.keys(line).sort()).toEqual(["keys", "rpcUrl", "url"]);
    expect(line.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(line.rpcUrl).toBeNull();
    expect(line.keys.length).toBeGreaterThanOrEqual(5);
    for (const k of line.keys) expect(Object.keys(k).sort()).toEqual(["key", "kind", "label", "scopes"]);
    const partner = line.keys.find((k: { kind: string }) => k.kind === "partner");
    const res = await fetch(`${line.url}/api/v1/pokemon/cards/base1-4`, { headers: { "X-API-Key": partner.key } });
    expect(res.status).toBe(200);
    run.child.kill("SIGINT");
    expect(await run.exited).toBe(0);
    expect(existsSync(stateFile)).toBe(true);
    const exported = JSON.parse(readFileSync(stateFile, "utf8"));
    expect(exported.state.seed).toBe(3);
    expect(exported.state.credits[partner.key].free).toBe(499);

    // the state comes back on the next start
    const again = launch(["--json", "--port", "0", "--seed", "3", "--state", stateFile]);
    const l2 = JSON.parse(await again.first);
    const usage = await fetch(`${l2.url}/_emulator/credits/${partner.key}`);
    expect((await usage.json()).data.balance).toBe(499);
    again.child.kill("SIGTERM");
    expect(await again.exited).toBe(0);
  }, 30_000);

  it("prints a readable banner with the URL and the fixture keys", async () => {
    const run = launch(["--port", "0", "--rpc-port", "0"]);
    let out = "";
    run.child.stdout!.on("data", (d) => (out += d));
    await run.first;
    const { waitFor } = await import("./helpers.ts");
    await waitFor(() => out.includes("Ctrl-C"), "the whole banner", 10_000);
    expect(out).toContain("/api/v1");
    expect(out).toContain("rip_v1_");
    expect(out).toContain("tenant");
    run.child.kill("SIGINT");
    expect(await run.exited).toBe(0);
  }, 30_000);

  it("starts the local chain and reports its JSON-RPC URL", async () => {
    const run = launch(["--json", "--port", "0", "--rpc-port", "0"]);
    const line = JSON.parse(await run.first);
    expect(line.rpcUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const rpc = await fetch(line.rpcUrl, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }) });
    expect((await rpc.json()).result).toBe("0x7a69");
    const chain = await (await fetch(`${line.url}/_emulator/chain`)).json();
    expect(chain.data.rpcUrl).toBe(line.rpcUrl);
    expect(chain.data.accounts[0].private_key).toMatch(/^0x[0-9a-f]{64}$/);
    run.child.kill("SIGINT");
    expect(await run.exited).toBe(0);
  }, 30_000);

  it("a busy chain port is a clear usage error, not a crash", async () => {
    const { createServer } = await import("node:net");
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const run = launch(["--port", "0", "--rpc-port", String(port)]);
      expect(await run.exited).toBe(2);
      expect(run.stderr()).toContain("in use");
      expect(run.stderr()).not.toContain("Unhandled");
    } finally {
      blocker.close();
    }
  }, 30_000);

  it("scenario --list, and a scenario run against an emulator that is already running", async () => {
    const list = launch(["scenario", "--list"]);
    let out = "";
    list.child.stdout!.on("data", (d) => (out += d));
    expect(await list.exited).toBe(0);
    expect(out).toContain("warehouse-order");
    const target = launch(["--json", "--port", "0", "--no-chain"]);
    const line = JSON.parse(await target.first);
    try {
      const run = launch(["scenario", "warehouse-order", "--base-url", line.url]);
      let text = "";
      run.child.stdout!.on("data", (d) => (text += d));
      expect(await run.exited).toBe(0);
      expect(text).toContain("✓ warehouse-order passed");
      const clock = await (await fetch(`${line.url}/_emulator/clock`)).json();
      expect(clock.data.mode).toBe("realtime");
      const chainRun = launch(["scenario", "mystery-purchase-wallet", "--base-url", line.url]);
      expect(await chainRun.exited).toBe(2);
      expect(chainRun.stderr()).toContain("--no-chain");
    } finally {
      target.child.kill("SIGINT");
    }
  }, 60_000);

  it("rejects a bad flag with a usage message and exit code 2", async () => {
    const run = launch(["--clock", "sideways"]);
    expect(await run.exited).toBe(2);
    expect(run.stderr()).toContain("--clock must be");
  }, 30_000);
});
