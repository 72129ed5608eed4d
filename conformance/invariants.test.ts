import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { suiteOptions } from "../test/suite-options.ts";
import request from "supertest";
import { createEmulator, type Emulator } from "../emulator/index.ts";
import { INVARIANTS, SEQUENCES, governs } from "../contract/invariants/index.ts";
import { ALL_CHECKS } from "./registry.ts";
import { runSuite } from "./runner.ts";
import type { Check, CheckResult } from "./types.ts";
import { routeFor } from "./wire.ts";
import { DEVIATIONS, deviations } from "../testing/deviations/index.ts";

// The invariants' trust tests: every answer of the honest suite keeps every invariant, and each invariant's
// deviation (testing/deviations/invariants.ts) makes the suite fail naming that invariant — through whichever
// check happens to see the broken answer, since the wire applies every invariant to every answer.

const RULES = [...INVARIANTS, ...SEQUENCES];
let emu: Emulator;
let honest: CheckResult[] = [];
beforeAll(async () => {
  emu = await createEmulator({ seed: 1, clock: "manual", port: 0, chain: { rpcPort: 0 }, plugins: [deviations] });
});
afterAll(async () => {
  await emu.close();
});

const options = () => suiteOptions(emu);

/** Operation ids a check's requests reached, and whether it saw a 429 or 503. */
function reached(r: CheckResult): { ops: Set<string>; refused: boolean } {
  const ops = new Set<string>();
  for (const q of r.requests) {
    const op = routeFor(q.method, new URL(q.path, "http://x").pathname);
    if (op) ops.add(op.id);
  }
  return { ops, refused: r.requests.some((q) => q.status === 429 || q.status === 503) };
}

describe("contract invariants", () => {
  it("each invariant has a unique id, a reference source and exactly one deviation breaking it", () => {
    const ids = RULES.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const r of RULES) expect(r.source, r.id).toMatch(/docs\/[\w/-]+\.md “[^”]+”/);
    const named = DEVIATIONS.filter((d) => d.invariant).map((d) => d.invariant);
    expect([...named].sort()).toEqual([...ids].sort());
  });

  it("the honest emulator keeps every invariant on every answer of the suite", async () => {
    await emu.reset();
    honest = (await runSuite(ALL_CHECKS, options())).results;
    expect(honest.filter((r) => r.outcome !== "pass").map((r) => `${r.id}: ${r.message}`)).toEqual([]);
  });

  it("kills each invariant with its deviation, the failure naming the invariant, operation, pointer and request id (kill rate 100%)", async () => {
    expect(honest.length).toBeGreaterThan(0);
    const survivors: string[] = [];
    for (const rule of RULES) {
      const deviation = DEVIATIONS.find((d) => d.invariant === rule.id)!;
      // The checks whose answers the invariant governs (for "all": every check, or those that met a 429 or 503).
      const candidates: Check[] = ALL_CHECKS.filter((c) => {
        const r = honest.find((h) => h.id === c.id);
        if (!r) return false;
        const { ops, refused } = reached(r);
        // A delivery rule: the checks that registered a webhook (their receivers get the deliveries).
        if (rule.subject === "delivery") return ops.has("webhooks.register");
        if (rule.operations !== "all") return [...ops].some((op) => governs(rule, op));
        return "errors" in rule && rule.errors ? refused : true;
      });
      await emu.reset();
      await request(emu.url).post("/_emulator/deviations").send({ name: deviation.name }).expect(201);
      const suite = await runSuite(candidates, { ...options(), bail: true });
      const named = suite.results.find((r) => r.message.includes(`invariant ${rule.id} broken by `));
      // An answer is named by its X-Request-Id, a delivery by its X-Mystery-Delivery.
      if (!named || !/ at \S+: .*\((X-Request-Id|X-Mystery-Delivery) [^)]+\)/.test(named.message))
        survivors.push(
          `${rule.id} survived ${deviation.name} (${candidates.map((c) => c.id).join(", ") || "no check reaches it"}): ${suite.results.find((r) => r.outcome !== "pass")?.message ?? "all passed"}`,
        );
    }
    await emu.reset();
    console.log(`invariant kill rate: ${RULES.length - survivors.length}/${RULES.length}`);
    expect(survivors).toEqual([]);
  });
});
