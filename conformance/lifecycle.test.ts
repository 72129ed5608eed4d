import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { fetchVia } from "../test/helpers.ts";
import request from "supertest";
import { createEmulator, type Emulator } from "../emulator/index.ts";
import { SANDBOX_LIFECYCLES } from "./checks/lifecycle-sandbox.ts";
import { lifecycleChecks, LIFECYCLE_SPECS } from "./checks/lifecycle.ts";
import { runSuite } from "./runner.ts";
import { PROFILES, type Check } from "./types.ts";
import { SCENARIOS } from "../scenarios/registry.ts";
import { DEVIATIONS, deviations } from "../testing/deviations/index.ts";

const lifecycleDeviations = DEVIATIONS.filter((d) => d.name.startsWith("lifecycle_"));

// Lifecycle checks run the scenarios as conformance checks. The kill test in
// suite.test.ts runs each under its deviation; these tests cover what is
// particular to them: one check per scenario, state restored afterwards, and
// "not applicable" (with the reason) when the emulator has no usable chain.

const options = (e: Emulator) => ({
  baseUrl: e.url,
  profiles: [...PROFILES],
  mode: "emulator" as const,
  fetch: fetchVia(e),
});
const byId = (id: string) => lifecycleChecks.find((c) => c.id === id)!;

describe("lifecycle checks", () => {
  it("there is one per scenario, with its own lifecycle deviation", () => {
    expect(lifecycleChecks.map((c) => c.id).sort()).toEqual(SCENARIOS.map((s) => `lifecycle.${s.name}`).sort());
    expect(Object.keys(LIFECYCLE_SPECS).sort()).toEqual(SCENARIOS.map((s) => s.name).sort());
    const names = new Set(lifecycleDeviations.map((d) => d.name));
    for (const c of lifecycleChecks) {
      expect(PROFILES).toContain(c.profile);
      // A lifecycle runs in sandbox mode when a partner can run it by itself (lifecycle-sandbox.ts); else it says what it needs.
      if (SANDBOX_LIFECYCLES[c.id.slice("lifecycle.".length)]) expect(c.mode).toBe("sandbox");
      else expect([c.mode, (c.emulatorOnly?.what.length ?? 0) > 10]).toEqual(["emulator", true]);
      expect(names.has(c.deviation), `${c.id} → ${c.deviation}`).toBe(true);
    }
    expect(new Set(lifecycleChecks.map((c) => c.deviation)).size).toBe(lifecycleChecks.length);
  });

  describe("against an emulator with a chain served over JSON-RPC", () => {
    let emu: Emulator;
    beforeAll(async () => {
      emu = await createEmulator({ seed: 1, clock: "manual", port: 0, chain: { rpcPort: 0 }, plugins: [deviations] });
    });
    afterAll(() => emu.close());

    it("GET /_emulator/keys names the fixture keys (and only those)", async () => {
      const res = await request(emu.url).get("/_emulator/keys");
      const { keys } = (res.body as { data: { keys: Array<{ name?: string; key: string }> } }).data;
      expect(keys.filter((k) => k.name).map((k) => [k.name, k.key])).toEqual(emu.keys.map((k) => [k.name, k.key]));
      await request(emu.url).post("/_emulator/keys").send({ kind: "tenant" });
      const after = (
        (await request(emu.url).get("/_emulator/keys")).body as { data: { keys: Array<{ name?: string }> } }
      ).data.keys;
      expect(after.filter((k) => !k.name)).toHaveLength(1);
    });

    it("every scenario passes as a check and leaves no trace: the state is restored after each", async () => {
      await emu.reset();
      const suite = await runSuite(lifecycleChecks, options(emu));
      expect(suite.results.filter((r) => r.outcome !== "pass")).toEqual([]);
      const areas = emu.exportState().state.areas as Record<string, Record<string, unknown>>;
      expect(Object.keys(areas.mystery?.purchases ?? {})).toEqual([]);
      expect((areas.events?.log as unknown[] | undefined) ?? []).toEqual([]); // the one event log (emulator/events/log.ts)
      expect(Object.keys(areas.credits?.topups ?? {})).toEqual([]);
      expect(Object.keys(areas.webhooks?.webhooks ?? {})).toEqual([]);
      const tenants = Object.values(
        (areas.warehouse?.tenants ?? {}) as Record<string, { orders: object; withdrawals: object; inbound: object }>,
      );
      for (const t of tenants)
        expect([t.orders, t.withdrawals, t.inbound].map((o) => Object.keys(o).length)).toEqual([0, 0, 0]);
    });

    it("a broken lifecycle fails the check with the scenario's message and the step it reached", async () => {
      await emu.reset();
      await request(emu.url).post("/_emulator/deviations").send({ name: "lifecycle_order_never_delivered" });
      const [r] = (await runSuite([byId("lifecycle.warehouse-order")], options(emu))).results;
      expect(r!.outcome).toBe("fail");
      expect(r!.message).toContain("the order is DELIVERED");
      expect(r!.message).toContain("after step");
      await emu.reset();
    });
  });

  it("without a chain, chain scenarios are not applicable (with the reason) and the others still run", async () => {
    const emu = await createEmulator({ seed: 1, clock: "manual" });
    try {
      const suite = await runSuite(lifecycleChecks, options(emu));
      for (const r of suite.results) {
        const chain = SCENARIOS.find((s) => `lifecycle.${s.name}` === r.id)!.chain;
        expect([r.id, r.outcome]).toEqual([r.id, chain ? "not_applicable" : "pass"]);
        if (chain) expect(r.message).toContain("503 chain_unavailable");
      }
    } finally {
      await emu.close();
    }
  });

  it("with an in-process chain (no rpcUrl), chain scenarios are not applicable", async () => {
    const emu = await createEmulator({ seed: 1, clock: "manual", chain: { rpcPort: false } });
    try {
      const [r] = (await runSuite([byId("lifecycle.mystery-purchase-wallet")], options(emu))).results;
      expect(r!.outcome).toBe("not_applicable");
      expect(r!.message).toContain("rpcUrl");
    } finally {
      await emu.close();
    }
  });
});

describe("the runner's applicability probe", () => {
  let emu: Emulator;
  beforeAll(async () => {
    emu = await createEmulator({ seed: 1, clock: "manual" });
  });
  afterAll(() => emu.close());

  const probe = (applicable: Check["applicable"], ran: string[]): Check => ({
    id: "probe.demo",
    profile: "pipeline",
    title: "probe",
    rule: "probe",
    mode: "emulator",
    needs: [],
    credits: 0,
    deviation: "health_requires_key",
    applicable,
    run: async () => void ran.push("ran"),
  });

  it("a reason makes the check not applicable without running it; null runs it; a crash is an error", async () => {
    const ran: string[] = [];
    const na = await runSuite([probe(async () => "the target lacks X", ran)], options(emu));
    expect(na.results[0]).toMatchObject({ outcome: "not_applicable", message: "the target lacks X" });
    expect(ran).toEqual([]);
    const ok = await runSuite([probe(async () => null, ran)], options(emu));
    expect(ok.results[0]!.outcome).toBe("pass");
    expect(ran).toEqual(["ran"]);
    const crash = await runSuite(
      [
        probe(async () => {
          throw new Error("boom");
        }, ran),
      ],
      options(emu),
    );
    expect(crash.results[0]).toMatchObject({ outcome: "error", message: expect.stringContaining("boom") });
    expect(ran).toEqual(["ran"]);
  });

  it("the probe is not asked when mode or needs already rule the check out", async () => {
    let asked = false;
    const check = probe(async () => ((asked = true), null), []);
    const suite = await runSuite([check], { ...options(emu), mode: "read-only" });
    expect(suite.results[0]!.outcome).toBe("not_applicable");
    expect(asked).toBe(false);
  });
});
