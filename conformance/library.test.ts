import { describe, it, expect, beforeAll, afterAll } from "vitest";
import request from "supertest";
// What `import … from "cardos-emulator/conformance"` gives (the package's export of conformance/index.ts).
import { conformanceChecks, ConformanceFailure, type ConformanceTarget } from "./index.ts";
import { createEmulator, type Emulator } from "../emulator/index.ts";
import { deviations } from "../testing/deviations/index.ts";

// The suite in the user's own test runner: one vitest case per check, against
// a URL and keys (an emulator started here, over real HTTP), with the same
// modes and profiles as the CLI.

let emu: Emulator;
beforeAll(async () => {
  // With the chain, so the commerce checks of these profiles run too (no case is skipped).
  emu = await createEmulator({ seed: 1, clock: "manual", port: 0, chain: true, plugins: [deviations] });
});
afterAll(() => emu?.close());

const target = (): ConformanceTarget => ({
  baseUrl: emu.url,
  partnerKey: emu.key("demo"),
  tenantKey: emu.key("tenant"),
});

describe("conformance checks as vitest cases (pipeline, catalog, webhooks; mode detected: emulator)", () => {
  // Every check applies here: a case that would skip fails instead, naming why it did not apply.
  for (const c of conformanceChecks({ target, profiles: ["pipeline", "catalog", "webhooks"] }))
    it(c.name, () => c.run({ skip: (note) => expect.fail(`${c.id} did not apply: ${note}`) }));
});

describe("the cases' contract", () => {
  it("one case per check of the chosen profiles, named by id and title", () => {
    const cases = conformanceChecks({ target, profiles: ["vision"] });
    expect(cases.length).toBeGreaterThan(3);
    expect(cases.every((c) => c.profile === "vision" && c.name.startsWith(`${c.id}: `))).toBe(true);
  });

  it("read-only mode: a control-plane check is skipped with its reason; a failing check throws with its rule", async () => {
    const [limited] = conformanceChecks({ target, mode: "read-only", profiles: ["pipeline"] }).filter(
      (c) => c.id === "pipeline.insufficient-credits-402",
    );
    const skipped: string[] = [];
    const r = await limited!.run({ skip: (note) => void skipped.push(note ?? "") });
    expect(r.outcome).toBe("not_applicable");
    expect(skipped).toEqual([
      "not applicable: needs an emulator target: flips an operator switch (mints a key with a zero credit balance)",
    ]);

    await request(emu.url).post("/_emulator/deviations").send({ name: "no_credit_headers" });
    try {
      const [credit] = conformanceChecks({ target, mode: "read-only", profiles: ["pipeline"] }).filter(
        (c) => c.id === "pipeline.credit-headers",
      );
      const err = await credit!.run().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ConformanceFailure);
      expect((err as ConformanceFailure).message).toContain("X-Credits-Cost must be on a metered answer");
      expect((err as ConformanceFailure).message).toContain("rule: Every metered response carries the credit headers");
      expect((err as ConformanceFailure).result.transcript?.length).toBeGreaterThan(0);
    } finally {
      await request(emu.url).delete("/_emulator/deviations");
    }
  });

  it("expected failures pass their case and say so", async () => {
    await request(emu.url).post("/_emulator/deviations").send({ name: "no_credit_headers" });
    try {
      const [credit] = conformanceChecks({
        target,
        profiles: ["pipeline"],
        expectedFailures: ["pipeline.credit-headers"],
      }).filter((c) => c.id === "pipeline.credit-headers");
      expect((await credit!.run()).outcome).toBe("expected_failure");
    } finally {
      await request(emu.url).delete("/_emulator/deviations");
    }
  });
});
