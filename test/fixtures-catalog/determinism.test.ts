import { describe, expect, it } from "vitest";
import { buildCatalog } from "../../fixtures/catalog/index.ts";
import { catalogFor } from "./catalog.ts";

// The large size's determinism and its agreement with the default size: large.test.ts (slow project).
describe("catalog fixtures: determinism", () => {
  it("same seed gives deep-equal output (default)", () => {
    const a = buildCatalog({ seed: 7, size: "default" });
    const b = buildCatalog({ seed: 7, size: "default" });
    expect(a).toStrictEqual(b);
  });

  it("different seeds differ", () => {
    const a = catalogFor(7, "default");
    const b = catalogFor(8, "default");
    expect(JSON.stringify(b.cards)).not.toBe(JSON.stringify(a.cards));
    expect(JSON.stringify(b.sealed)).not.toBe(JSON.stringify(a.sealed));
    expect(JSON.stringify(b.certs)).not.toBe(JSON.stringify(a.certs));
    // …but the structure (base printing ids, expansions) is seed-independent.
    const baseIds = (c: typeof a) => c.cards.filter((r) => !r.is_variant).map((r) => r.card.id);
    expect(baseIds(b)).toEqual(baseIds(a));
    expect(b.expansions).toStrictEqual(a.expansions);
  });

  it("does not read the clock or Math.random", () => {
    const random = Math.random;
    const now = Date.now;
    Math.random = () => {
      throw new Error("Math.random used");
    };
    Date.now = () => {
      throw new Error("Date.now used");
    };
    try {
      expect(() => buildCatalog({ seed: 3, size: "default" })).not.toThrow();
    } finally {
      Math.random = random;
      Date.now = now;
    }
  });
});
