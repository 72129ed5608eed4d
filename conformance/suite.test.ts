import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { suiteOptions } from "../test/suite-options.ts";
import request from "supertest";
import { createEmulator, type Emulator } from "../emulator/index.ts";
import { ALL_CHECKS } from "./registry.ts";
import { runSuite, passed } from "./runner.ts";
import type { Check } from "./types.ts";
import { DEVIATIONS, deviations } from "../testing/deviations/index.ts";
import { pipelineChecks } from "./checks/pipeline.ts";
import { catalogChecks } from "./checks/catalog.ts";
import { catalogQueryChecks } from "./checks/catalog-query.ts";
import { creditsChecks } from "./checks/credits.ts";
import { visionChecks } from "./checks/vision.ts";
import { webhooksChecks } from "./checks/webhooks.ts";
import { mysteryChecks } from "./checks/mystery.ts";
import { warehouseChecks } from "./checks/warehouse.ts";
import { warehouseByIdChecks } from "./checks/warehouse-by-id.ts";
import { lifecycleChecks } from "./checks/lifecycle.ts";
import { CORRUPTIONS, startRewritingProxy, type RewritingProxy } from "../testing/adversaries.ts";

const DEVIATION_NAMES = new Set(DEVIATIONS.map((d) => d.name));
/** Deviations no check names: each breaks one family of response schema, for body validation to catch. */
const SCHEMA_DEVIATIONS = DEVIATIONS.filter((d) => d.name.startsWith("schema_"));

// The suite's own trust tests: every check passes against the emulator, and
// every check fails against an emulator with the one deviation that breaks its rule.

let emu: Emulator;
/** A rewriting proxy in front of the emulator (honest unless a corruption is in use): the suite reaches it over real HTTP. */
let proxy: RewritingProxy;
/** The checks that passed through the honest proxy: only these can show an adversary's kill. */
let honestPassing: readonly Check[] | null = null;
beforeAll(async () => {
  emu = await createEmulator({ seed: 1, clock: "manual", port: 0, chain: { rpcPort: 0 }, plugins: [deviations] });
  proxy = await startRewritingProxy((url, init) => emu.fetch(url, init), emu.url);
});
/** Kill rates measured by this file, printed side by side at the end. */
const rates: Record<string, string> = {};
const rate = (killed: number, total: number) => `${((killed / total) * 100).toFixed(1)}% (${killed}/${total})`;
afterAll(async () => {
  if (Object.keys(rates).length)
    console.log(
      `kill rates — ${Object.entries(rates)
        .map(([k, v]) => `${k}: ${v}`)
        .join(" · ")}`,
    );
  await proxy.close();
  await emu.close();
});

const options = () => suiteOptions(emu);
const throughProxy = () => ({ ...options(), baseUrl: proxy.url, fetch: undefined });

describe("conformance suite against the emulator", () => {
  it("passes every check, over real HTTP through the (honest) proxy", async () => {
    await emu.reset();
    proxy.use(null);
    const suite = await runSuite(ALL_CHECKS, throughProxy());
    honestPassing = ALL_CHECKS.filter((c) => suite.results.find((r) => r.id === c.id)?.outcome === "pass");
    const bad = suite.results.filter((r) => r.outcome !== "pass");
    expect(bad).toEqual([]);
    expect(passed(suite)).toBe(true);
  });

  it("every check names a real deviation, and ids are unique", () => {
    const ids = ALL_CHECKS.map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const c of ALL_CHECKS) expect(DEVIATION_NAMES.has(c.deviation), `${c.id} → ${c.deviation}`).toBe(true);
  });

  it("each check of the core files names the reference and section it guards (new area files may add theirs later)", () => {
    const core = [pipelineChecks, catalogChecks, catalogQueryChecks, creditsChecks, visionChecks, webhooksChecks]
      .concat([mysteryChecks, warehouseChecks, warehouseByIdChecks, lifecycleChecks])
      .flat();
    const REFERENCE = /docs\/reference\/[\w-]+\.md “[^”]+”/;
    expect(core.filter((c) => !REFERENCE.test(c.guards ?? "")).map((c) => c.id)).toEqual([]);
    const withGuards = ALL_CHECKS.filter((c) => c.guards).length;
    console.log(`checks with a guarded reference: ${withGuards}/${ALL_CHECKS.length}`);
  });

  it("kills every check with its deviation (kill rate 100%)", async () => {
    const survivors: string[] = [];
    for (const check of ALL_CHECKS) {
      await emu.reset();
      const res = await request(emu.url).post("/_emulator/deviations").send({ name: check.deviation });
      expect(res.status).toBe(201);
      const suite = await runSuite([check], options());
      if (suite.results[0].outcome !== "fail")
        survivors.push(`${check.id} (${suite.results[0].outcome}) survived ${check.deviation}`);
    }
    await emu.reset();
    const rate = (ALL_CHECKS.length - survivors.length) / ALL_CHECKS.length;
    console.log(
      `conformance kill rate: ${(rate * 100).toFixed(1)}% (${ALL_CHECKS.length - survivors.length}/${ALL_CHECKS.length})`,
    );
    rates.deviations = `${(rate * 100).toFixed(1)}% (${ALL_CHECKS.length - survivors.length}/${ALL_CHECKS.length})`;
    expect(survivors).toEqual([]);
  });

  it("kills each response-schema deviation (renamed, missing, retyped field; a type changed, a nullable field left out, an enum value renamed) by body validation against the contract, naming the pointer", async () => {
    expect(SCHEMA_DEVIATIONS.map((d) => d.name).sort()).toEqual([
      "schema_enum_renamed",
      "schema_field_renamed",
      "schema_nullable_missing",
      "schema_required_missing",
      "schema_type_changed",
      "schema_wrong_type",
    ]);
    const expected: Record<string, RegExp> = {
      schema_field_renamed: /\/data\/name: expected string, received nothing/,
      schema_required_missing: /\/data\/code: expected string, received nothing/,
      schema_wrong_type: /\/data\/number: expected string, received 4 \(number\)/,
      schema_type_changed: /\/data\/tcgplayer_id: expected .*received \d+ \(number\)/,
      schema_nullable_missing: /\/data\/tcgplayer_id: expected .*received nothing/,
      schema_enum_renamed: /\/data\/language_code: .*received "EN"/,
    };
    const probe = ALL_CHECKS.filter((c) => c.profile === "pipeline" || c.profile === "catalog");
    const survivors: string[] = [];
    for (const d of SCHEMA_DEVIATIONS) {
      await emu.reset();
      await request(emu.url).post("/_emulator/deviations").send({ name: d.name });
      const failed = (await runSuite(probe, options())).results.filter((r) => r.outcome === "fail");
      if (!failed.some((r) => expected[d.name]!.test(r.message)))
        survivors.push(`${d.name}: ${failed.map((r) => r.message).join(" | ") || "no check failed"}`);
    }
    await emu.reset();
    rates["schema deviations"] = rate(SCHEMA_DEVIATIONS.length - survivors.length, SCHEMA_DEVIATIONS.length);
    expect(survivors).toEqual([]);
  });

  it("fails under each generic corruption of a rewriting proxy in front of the emulator, over real HTTP (adversary kill rate 100%)", async () => {
    if (!honestPassing) {
      // Run alone (-t): the honest baseline first.
      await emu.reset();
      proxy.use(null);
      const honest = (await runSuite(ALL_CHECKS, throughProxy())).results;
      honestPassing = ALL_CHECKS.filter((c) => honest.find((r) => r.id === c.id)?.outcome === "pass");
    }
    const passing = honestPassing;
    expect(passing.length).toBeGreaterThan(ALL_CHECKS.length * 0.8);
    const survivors: string[] = [];
    const killedBy: string[] = [];
    try {
      for (const c of CORRUPTIONS) {
        await emu.reset();
        proxy.use(c.name);
        const suite = await runSuite(passing, { ...throughProxy(), bail: true });
        expect(proxy.touched(), `${c.name} changed no answer`).toBeGreaterThan(0);
        if (passed(suite)) survivors.push(`${c.name} (${c.breaks})`);
        else killedBy.push(`${c.name} ← ${suite.results.at(-1)!.id}: ${suite.results.at(-1)!.message.slice(0, 140)}`);
      }
    } finally {
      proxy.use(null);
      await emu.reset();
    }
    rates.adversaries = rate(CORRUPTIONS.length - survivors.length, CORRUPTIONS.length);
    if (process.env.CONFORMANCE_VERBOSE) console.log(killedBy.join("\n"));
    expect(survivors).toEqual([]);
  });

  it("read-only mode reports control-plane checks as not applicable, with the reason, and keeps to --max-credits", async () => {
    await emu.reset();
    const suite = await runSuite(ALL_CHECKS, { ...options(), mode: "read-only", maxCredits: 3 });
    const na = suite.results.filter((r) => r.outcome === "not_applicable");
    expect(na.find((r) => r.id === "pipeline.insufficient-credits-402")?.message).toBe(
      "needs an emulator target: flips an operator switch (mints a key with a zero credit balance)",
    );
    expect(na.find((r) => r.id === "pipeline.rate-limited-429")?.message).toBe(
      "needs a sandbox target (running in read-only mode)",
    );
    expect(na.some((r) => r.message.includes("--max-credits"))).toBe(true);
    expect(suite.results.filter((r) => r.outcome === "fail")).toEqual([]);
  });

  it("expected failures are not scored", async () => {
    await emu.reset();
    await request(emu.url).post("/_emulator/deviations").send({ name: "no_ratelimit_headers" });
    const only = ALL_CHECKS.filter((c) => c.id === "pipeline.ratelimit-headers");
    const strict = await runSuite(only, options());
    expect(passed(strict)).toBe(false);
    const lenient = await runSuite(only, { ...options(), expectedFailures: new Set(["pipeline.ratelimit-headers"]) });
    expect(lenient.results[0].outcome).toBe("expected_failure");
    expect(passed(lenient)).toBe(true);
    await emu.reset();
  });
});
