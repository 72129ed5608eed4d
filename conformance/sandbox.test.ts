import { describe, it, expect, beforeAll, afterAll, vi } from "vitest";
import type { Hex } from "viem";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createEmulator, type Emulator } from "../emulator/index.ts";
import { ALL_CHECKS } from "./registry.ts";
import { runSuite, type SuiteOptions, type SuiteResult } from "./runner.ts";
import { PROFILES } from "./types.ts";
import { END_USERS } from "../chain/accounts.ts";
import { commerceChecks } from "./checks/commerce.ts";

// Sandbox mode with a wallet key, as a partner certifies: the target is an
// emulator on a realtime clock (VRF answers after 50 ms) reached over real
// HTTP, the suite has no control plane and must never call /_emulator, and the
// commerce checks buy with a funded wallet on the target's chain.

let emu: Emulator;
let suite: SuiteResult;
const paths: string[] = [];
let options: () => SuiteOptions;

beforeAll(async () => {
  emu = await createEmulator({ seed: 1, clock: "realtime", port: 0, chain: { rpcPort: 0, vrfDelayMs: 50 } });
  const recording = ((input: string | URL | Request, init?: RequestInit) => {
    paths.push(new URL(input instanceof Request ? input.url : String(input)).pathname);
    return fetch(input, init);
  }) as typeof fetch;
  options = () => ({
    baseUrl: emu.url,
    partnerKey: emu.key("demo"),
    tenantKey: emu.key("tenant"),
    profiles: [...PROFILES],
    mode: "sandbox" as const,
    fetch: recording,
    wallet: { privateKey: END_USERS.at(-1)!.privateKey as Hex, rpcUrl: emu.rpcUrl!, maxSpendUsdc: 100 },
  });
  suite = await runSuite(ALL_CHECKS, options());
});
afterAll(() => emu?.close());

describe("sandbox mode with a wallet key", () => {
  it("never calls the control plane", () => {
    expect(paths.length).toBeGreaterThan(100);
    expect(paths.filter((p) => p.startsWith("/_emulator"))).toEqual([]);
  });

  it("runs the commerce checks; sell-back with a POOL key is not applicable, with the reason, and its budget is given back", () => {
    const commerce = suite.results.filter((r) => commerceChecks.some((c) => c.id === r.id));
    expect(commerce.map((r) => [r.id, r.outcome])).toEqual([
      ["commerce.purchase-reveal", "pass"],
      ["commerce.purchase-webhook", "pass"],
      ["commerce.instant-delivery", "pass"],
      ["commerce.sellback-prepare", "not_applicable"],
      ["commerce.redemption-prepare", "pass"],
    ]);
    expect(commerce[3]!.message).toBe("sell-back is for TIER partners; the partner key's billing model is POOL");
    expect(commerce[1]!.notes[0]).toMatch(/^delivery \d+ logged/);
    expect(commerce[2]!.notes[0]).toMatch(/^instant purchase \d+: packet type 1 \(4\.990000 USDC\), 5 cards$/);
    expect(commerce[4]!.notes[0]).toMatch(/redemption \d+ PREPARED, not sent$/);
  });

  it("a commerce check beyond --max-spend-usdc is not applicable, with the reason, and spends nothing", async () => {
    const before = paths.length;
    const small = await runSuite(commerceChecks, { ...options(), wallet: { ...options().wallet!, maxSpendUsdc: 5 } });
    expect(small.results.map((r) => r.message)).toEqual(commerceChecks.map((c) => `would spend up to ${c.spendUsdc} USDC; --max-spend-usdc leaves 5`));
    expect(paths.slice(before).filter((p) => p.includes("/purchase"))).toEqual([]);
  });

  it("mystery and warehouse report as not applicable only the control-plane checks, each with its reason; nothing fails", () => {
    const na = suite.results.filter((r) => r.outcome === "not_applicable" && r.id !== "commerce.sellback-prepare");
    for (const r of na) {
      expect(ALL_CHECKS.find((c) => c.id === r.id)!.mode, r.id).toBe("emulator");
      expect(r.message).toBe("needs an emulator target (running in sandbox mode)");
    }
    const byProfile = (p: string) => suite.results.filter((r) => r.profile === p && r.outcome === "not_applicable" && r.id !== "commerce.sellback-prepare").length;
    const controlOnly = (p: string) => ALL_CHECKS.filter((c) => c.profile === p && c.mode === "emulator").length;
    for (const p of ["mystery", "warehouse"]) expect(byProfile(p), p).toBe(controlOnly(p));
    expect(suite.results.filter((r) => r.outcome === "fail" || r.outcome === "error").map((r) => `${r.id}: ${r.message}`)).toEqual([]);
  });
});

describe("a receiver the suite exposes in sandbox mode (--webhook-url/--webhook-port)", () => {
  it("the purchase's delivery reaches it through the public URL and its signature verifies", async () => {
    const port = await new Promise<number>((resolve) => {
      const srv = createServer().listen(0, "127.0.0.1", () => {
        const p = (srv.address() as AddressInfo).port;
        srv.close(() => resolve(p));
      });
    });
    // Here the "public URL" is loopback itself: the target is on this machine.
    const receiver = { host: "127.0.0.1", port, publicUrl: `http://127.0.0.1:${port}/hook` };
    const only = commerceChecks.filter((c) => c.id === "commerce.purchase-webhook");
    const [r] = (await runSuite(only, { ...options(), receiver })).results;
    expect([r!.outcome, r!.message]).toEqual(["pass", ""]);
    expect(r!.notes[0]).toMatch(/^delivered purchase\.fulfilled:\d+ to the suite's receiver, signature verified$/);
  });
});

describe("the CLI's wallet flags", () => {
  it("refuse a wallet key without --rpc-url and --max-spend-usdc, and show the budget up front", async () => {
    const { runConformanceCli } = await import("./cli.ts");
    const key = END_USERS.at(-1)!.privateKey;
    await expect(runConformanceCli(["--base-url", emu.url, "--wallet-key", key])).rejects.toThrow("needs --rpc-url and --max-spend-usdc");
    await expect(runConformanceCli(["--base-url", emu.url, "--max-spend-usdc", "5"])).rejects.toThrow("go with --wallet-key");
    const err: string[] = [];
    const out: string[] = [];
    const spyErr = vi.spyOn(process.stderr, "write").mockImplementation((s) => (err.push(String(s)), true));
    const spyOut = vi.spyOn(process.stdout, "write").mockImplementation((s) => (out.push(String(s)), true));
    try {
      const code = await runConformanceCli([
        "--base-url", emu.url, "--partner-key", emu.key("demo"), "--mode", "sandbox", "--profile", "webhooks",
        "--wallet-key", key, "--rpc-url", emu.rpcUrl!, "--max-spend-usdc", "0",
      ]);
      expect(code).toBe(0);
    } finally {
      spyErr.mockRestore();
      spyOut.mockRestore();
    }
    expect(err[0]).toBe(`commerce budget: 1 checks may spend up to 25 test USDC from ${END_USERS.at(-1)!.address} on ${emu.rpcUrl}; --max-spend-usdc 0 (checks beyond it are not applicable)\n`);
    expect(err.join("")).toContain("commerce.purchase-webhook — would spend up to 25 USDC; --max-spend-usdc leaves 0");
  });
});
