import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { fetchVia } from "../test/helpers.ts";
import request from "supertest";
import { createEmulator, type Emulator } from "../emulator/index.ts";
import { ALL_CHECKS } from "./registry.ts";
import { runSuite } from "./runner.ts";
import { summaryTable } from "./reporters/console.ts";
import { PROFILES } from "./types.ts";
import { SCENARIOS } from "../scenarios/registry.ts";
import { runScenario } from "../scenarios/run.ts";
import { END_USERS } from "../chain/accounts.ts";
import type { Hex } from "viem";

// A partner certifies against a target that is already in use: the suite must not
// depend on fresh fixture keys, unused idempotency keys or an empty event log.

// 900 s per test: a hang detector, not a budget (four suite runs and every scenario, ~20 s of CPU, took over
// 300 s of wall time on a shared 2-core machine at load 35–40).
const failures = (r: { results: Array<{ id: string; outcome: string; message: string }> }) =>
  r.results.filter((x) => x.outcome !== "pass").map((x) => `${x.id}: ${x.message}`);

describe("the suite against a used emulator (emulator mode)", () => {
  let emu: Emulator;
  beforeAll(async () => {
    emu = await createEmulator({ seed: 1, clock: "manual", port: 0, chain: { rpcPort: 0 } });
  });
  afterAll(() => emu?.close());

  it("passes after a partner's call and every scenario has run, and twice in a row", async () => {
    const keys = Object.fromEntries(emu.keys.map((k) => [k.name, k.key]));
    await request(emu.url).get("/api/v1/catalog/sets").set("x-api-key", keys.demo!);
    for (const s of SCENARIOS)
      await runScenario(s, { baseUrl: emu.url, keys, chain: emu.chain, rpcUrl: emu.rpcUrl, fetch: fetchVia(emu) });
    const options = { baseUrl: emu.url, profiles: [...PROFILES], mode: "emulator" as const, fetch: fetchVia(emu) };
    const exported = async () => (await request(emu.url).get("/_emulator/state").expect(200)).body.data;
    const before = await exported();
    const first = await runSuite(ALL_CHECKS, options);
    expect(failures(first)).toEqual([]);
    // Left as found: the whole state (keys, credits, clock, areas, the chain's journal) as before the run.
    expect(await exported()).toEqual(before);
    expect(first.changes!.emulator).toMatchObject({ restored: true });
    expect(first.changes!.emulator!.clock_moved_ms).toBeGreaterThan(0);
    expect(first.changes!.emulator!.keys_added).toBeGreaterThan(100);
    expect(summaryTable(first)).toMatch(/Target left as found: the run moved the clock \+[^,]+, added \d+ keys/);
    // --keep-state: the second run's changes stay, and the summary lists its writes.
    const keyCount = async () => (await request(emu.url).get("/_emulator/keys").expect(200)).body.data.keys.length;
    const keysBefore = await keyCount();
    const second = await runSuite(ALL_CHECKS, { ...options, keepState: true });
    expect(failures(second)).toEqual([]);
    expect(second.changes!.emulator!.keys_added).toBeGreaterThan(100);
    expect(await keyCount()).toBe(keysBefore + second.changes!.emulator!.keys_added);
    expect(second.changes!.emulator!.restored).toBe(false);
    expect(second.changes!.writes["POST /mystery/purchase"]).toBeGreaterThan(0);
    expect(summaryTable(second)).toMatch(/Target changed \(--keep-state\)[\s\S]*POST \/mystery\/purchase ×\d+/);
  }, 900_000);
});

describe("the suite against a used target in sandbox mode (nothing can be reset)", () => {
  let emu: Emulator;
  beforeAll(async () => {
    emu = await createEmulator({ seed: 1, clock: "realtime", port: 0, chain: { rpcPort: 0, vrfDelayMs: 50 } });
  });
  afterAll(() => emu?.close());

  it("passes after a partner's call, and twice in a row with the same keys and wallet", async () => {
    await request(emu.url).get("/api/v1/catalog/sets").set("x-api-key", emu.key("demo"));
    const options = {
      baseUrl: emu.url,
      partnerKey: emu.key("demo"),
      tenantKey: emu.key("tenant"),
      profiles: [...PROFILES],
      mode: "sandbox" as const,
      wallet: { privateKey: END_USERS.at(-1)!.privateKey as Hex, rpcUrl: emu.rpcUrl!, maxSpendUsdc: 100 },
      // Checks that wait out a whole rate-limit window (61 s) in real time are left out: wall time.
      maxWaitMs: 10_000,
    };
    const scored = (r: Awaited<ReturnType<typeof runSuite>>) => ({
      ...r,
      results: r.results.filter((x) => x.outcome !== "not_applicable"),
    });
    expect(failures(scored(await runSuite(ALL_CHECKS, options)))).toEqual([]);
    // A minute later (the emulator's clock, not the test's wall time): the first run's rate-limit window has
    // rolled, as between two certification runs. Run at once, the second run paces on 429 for ~50 s of wall time;
    // that pacing is tested on its own (test/unit/http-pacing.test.ts).
    await request(emu.url).post("/_emulator/clock/advance").send({ ms: 61_000 }).expect(200);
    expect(failures(scored(await runSuite(ALL_CHECKS, options)))).toEqual([]);
  }, 900_000);
});
