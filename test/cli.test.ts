import { describe, it, expect } from "vitest";
import request from "supertest";
import { expectError } from "../conformance/assert.ts";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { launch } from "./cli-launch.ts";

// `npx emulator` as a user starts it (the serve command); `exec`, the EMULATOR_* variables and `trigger` are in
// test/cli-exec.test.ts (two files, so the two workers share the children's work).

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
    for (const k of line.keys) expect(Object.keys(k).sort()).toEqual(["key", "kind", "label", "name", "scopes"]);
    // each fixture key by its name, the name control routes accept too
    expect(line.keys.map((k: { name: string }) => k.name)).toEqual(
      expect.arrayContaining(["demo", "revenue-share", "tenant", "legacy"]),
    );
    const demo = line.keys.find((k: { name: string }) => k.name === "demo");
    expect((await request(line.url).get("/_emulator/credits/demo")).body.data).toEqual(
      (await request(line.url).get(`/_emulator/credits/${demo.key}`)).body.data,
    );
    const partner = line.keys.find((k: { kind: string }) => k.kind === "partner");
    const res = await request(line.url).get("/api/v1/pokemon/cards/base1-4").set("X-API-Key", partner.key);
    expect(res.status).toBe(200);
    run.child.kill("SIGINT");
    expect(await run.exited).toBe(0);
    expect(existsSync(stateFile)).toBe(true);
    const exported = JSON.parse(readFileSync(stateFile, "utf8"));
    expect(exported.state.seed).toBe(3);
    expect(exported.state.credits[partner.key].free).toBe(499);

    // the state comes back on the next start
    const again = launch(["--json", "--port", "0", "--rpc-port", "0", "--seed", "3", "--state", stateFile]);
    const l2 = JSON.parse(await again.first);
    const usage = await request(l2.url).get(`/_emulator/credits/${partner.key}`);
    expect(usage.body.data.balance).toBe(499);
    again.child.kill("SIGTERM");
    expect(await again.exited).toBe(0);
  });

  it("prints one line per API call (the journal), not with --quiet, never with --json", async () => {
    const { waitFor } = await import("./helpers.ts");
    const LOG = { EMULATOR_REQUEST_LOG: "1" }; // stdout is a pipe here: ask for the TTY's line explicitly
    const run = launch(["--port", "0", "--no-chain"], LOG);
    let out = "";
    run.child.stdout!.on("data", (d) => (out += d));
    await waitFor(() => out.includes("Ctrl-C"), "the banner");
    const url = /API\s+(http:\/\/127\.0\.0\.1:\d+)\/api\/v1/.exec(out)![1]!;
    const key = /partner\s+(rip_v1_\S+)/.exec(out)![1]!;
    expect((await request(url).get("/api/v1/pokemon/cards/base1-4").set("X-API-Key", key)).status).toBe(200);
    expectError(await request(url).get("/api/v1/pokemon/cards/nope-0").set("X-API-Key", key), 404, "not_found");
    await waitFor(() => out.includes("nope-0"), "the second call's line");
    const lines = out.split("\n").filter((l) => /^ {2}\d\d:\d\d:/.test(l)); // the banner's "Try: curl …" line is not one
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      /^ {2}\d\d:\d\d:\d\d\.\d{3} {2}GET {4}\/api\/v1\/pokemon\/cards\/base1-4 {2}200 {2}Demo partner {2}1 cr {2}\d+(\.\d)? ms$/,
    );
    expect(lines[1]).toMatch(/GET {4}\/api\/v1\/pokemon\/cards\/nope-0 {2}404 not_found {2}/);
    expect(lines.join("\n")).not.toContain(key);
    run.child.kill("SIGINT");
    expect(await run.exited).toBe(0);

    for (const flags of [["--quiet"], ["--json"]]) {
      const other = launch(["--port", "0", "--no-chain", ...flags], LOG);
      let text = "";
      other.child.stdout!.on("data", (d) => (text += d));
      if (flags[0] === "--json") await other.first;
      else await waitFor(() => text.includes("Ctrl-C"), "the banner");
      const u =
        flags[0] === "--json" ? JSON.parse(text.split("\n")[0]!).url : /API\s+(http:\/\/\S+?)\/api\/v1/.exec(text)![1]!;
      expect((await request(u).get("/api/v1/pokemon/cards/base1-4").set("X-API-Key", key)).status).toBe(200);
      await request(u).get("/_emulator/health"); // a round trip after the call: its line would be out by now
      other.child.kill("SIGINT");
      expect(await other.exited).toBe(0);
      expect(text, flags[0]).not.toContain("/api/v1/pokemon/cards/base1-4  200");
      if (flags[0] === "--json") expect(text.trim().split("\n")).toHaveLength(1);
    }
  });

  it("prints a readable banner with the URL and the fixture keys", async () => {
    const run = launch(["--port", "0", "--rpc-port", "0"]);
    let out = "";
    run.child.stdout!.on("data", (d) => (out += d));
    await run.first;
    const { waitFor } = await import("./helpers.ts");
    await waitFor(() => out.includes("Ctrl-C"), "the whole banner");
    expect(out).toContain("/api/v1");
    // one line per fixture key: its name, its kind, its value
    const named = new Map(
      [...out.matchAll(/^ {4}(\S+) +(partner|tenant|legacy) +(rip_v1_\S+)$/gm)].map((m) => [
        m[1],
        { kind: m[2], key: m[3] },
      ]),
    );
    expect([...named.keys()]).toEqual(expect.arrayContaining(["demo", "revenue-share", "tenant", "legacy"]));
    expect(named.get("demo")!.kind).toBe("partner");
    expect(named.get("tenant")!.kind).toBe("tenant");
    run.child.kill("SIGINT");
    expect(await run.exited).toBe(0);
  });

  it("starts the local chain and reports its JSON-RPC URL", async () => {
    const run = launch(["--json", "--port", "0", "--rpc-port", "0"]);
    const line = JSON.parse(await run.first);
    expect(line.rpcUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const rpc = await request(line.rpcUrl).post("/").send({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] });
    expect(rpc.body.result).toBe("0x7a69");
    const chain = (await request(line.url).get("/_emulator/chain")).body;
    expect(chain.data.rpcUrl).toBe(line.rpcUrl);
    expect(chain.data.accounts[0].private_key).toMatch(/^0x[0-9a-f]{64}$/);
    run.child.kill("SIGINT");
    expect(await run.exited).toBe(0);
  });

  it("a busy port is a usage error naming the port, found before the chain starts", async () => {
    const { createServer } = await import("node:net");
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      // found before the chain deploys, naming the port and its flag
      const run = launch(["--port", "0", "--rpc-port", String(port)]);
      expect(await run.exited).toBe(2);
      expect(run.stderr()).toContain(`port ${port} (--rpc-port) is in use`);
      expect(run.stderr()).not.toContain("chain:");
      expect(run.stderr()).not.toContain("Unhandled");
      const api = launch(["--port", String(port), "--rpc-port", "0"]);
      expect(await api.exited).toBe(2);
      expect(api.stderr()).toContain(`port ${port} (--port) is in use`);
      expect(api.stderr()).not.toContain("chain:");
    } finally {
      blocker.close();
    }
  });

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
      const clock = (await request(line.url).get("/_emulator/clock")).body;
      expect(clock.data.mode).toBe("realtime");
      const chainRun = launch(["scenario", "mystery-purchase-wallet", "--base-url", line.url]);
      expect(await chainRun.exited).toBe(2);
      expect(chainRun.stderr()).toContain("--no-chain");
    } finally {
      target.child.kill("SIGINT");
    }
  });

  it("rejects a bad flag with a usage message and exit code 2", async () => {
    const run = launch(["--clock", "sideways"]);
    expect(await run.exited).toBe(2);
    expect(run.stderr()).toContain("--clock must be");
  });
});
