import { describe, expect, it } from "vitest";
import { microsOfUsd } from "../../emulator/pipeline/money.ts";

// Catalog prices are numbers in dollars; turning them into USDC micros goes
// through their decimal text, so 4.35 is 4_350_000 micros, not 4_349_999.

describe("microsOfUsd", () => {
  it.each([
    [0, 0n],
    [0.3, 300_000n],
    [4.35, 4_350_000n],
    [1.005, 1_005_000n],
    [12.5, 12_500_000n],
    [1234.567891, 1_234_567_891n],
  ])("%d → %d micros", (usd, micros) => {
    expect(microsOfUsd(usd)).toBe(micros);
  });

  it("refuses what is not a dollar amount", () => {
    for (const bad of [-1, Number.NaN, Number.POSITIVE_INFINITY]) expect(() => microsOfUsd(bad)).toThrow(RangeError);
  });
});
