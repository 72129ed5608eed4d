import { describe, expect, it } from "vitest";
import { microsOfDecimal, microsOfUsd, usd2 } from "../../contract/money.ts";

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

describe("usd2: micros → dollars and cents, rounded half away from zero in integers", () => {
  it.each([
    [0n, "0.00"],
    [1_005_000n, "1.01"],
    [2_675_000n, "2.68"],
    [1_004_999n, "1.00"],
    [25_000_000n, "25.00"],
    [-1_005_000n, "-1.01"],
    [10n ** 18n + 5_000n, "1000000000000.01"],
  ])("%d micros → %s", (micros, text) => {
    expect(usd2(micros)).toBe(text);
    expect(usd2(micros.toString())).toBe(text);
  });
});

describe("microsOfDecimal: a quote's decimal text → micros", () => {
  it("reads digits, never a float", () => {
    expect(microsOfDecimal("5.40")).toBe(5_400_000n);
    expect(microsOfDecimal("0.000001")).toBe(1n);
  });

  it("throws on what it cannot read exactly instead of truncating", () => {
    for (const bad of ["5.4000001", "-5.40", "", "5,40", "1e3"]) expect(() => microsOfDecimal(bad)).toThrow(RangeError);
  });
});
