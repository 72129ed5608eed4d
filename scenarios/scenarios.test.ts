import { describe, it, expect } from "vitest";
import { SCENARIOS } from "./registry.ts";
import { emulatorFor, runScenario } from "./run.ts";
import { Store } from "../emulator/state/store.ts";

// Every scenario is also a test: it runs against a fresh in-process emulator.
describe("scenarios", () => {
  it("are registered with unique names", () => {
    const names = SCENARIOS.map((s) => s.name);
    expect(new Set(names).size).toBe(names.length);
  });
  for (const scenario of SCENARIOS) {
    it(`${scenario.name}: ${scenario.title}`, async () => {
      const { emu, target } = await emulatorFor(scenario);
      try {
        await runScenario(scenario, target);
        // Every record a lifecycle leaves is one its own import takes (each slice's schema is complete).
        expect(() => Store.parseExport(structuredClone(emu.exportState()))).not.toThrow();
      } finally {
        await emu.close();
      }
    });
  }
});
