import { describe, expect, it } from "vitest";
import { buildCatalog, CERT_COUNTS } from "../../fixtures/catalog/index.ts";
import { catalogFor } from "./catalog.ts";

// The large catalog's determinism and size (seconds of CPU per build, so in the `slow` project; the
// default size's are in determinism.test.ts and sizes.test.ts). One seed, built once through the
// shared memo, plus the one fresh build the determinism check needs.
const SEED = 7;

describe("catalog fixtures: large", () => {
  it("same seed gives identical output", () => {
    const a = catalogFor(SEED, "large");
    const b = buildCatalog({ seed: SEED, size: "large" });
    expect(JSON.stringify(b)).toBe(JSON.stringify(a));
  });

  it("is close to the live catalog", () => {
    const catalog = catalogFor(SEED, "large");
    const by: Record<string, number> = {};
    for (const c of catalog.cards)
      by[`${c.game}:${c.card.language_code}`] = (by[`${c.game}:${c.card.language_code}`] ?? 0) + 1;
    const game = (g: string) => catalog.cards.filter((c) => c.game === g).length;
    expect(catalog.size).toBe("large");
    expect(game("pokemon")).toBeGreaterThan(33_000);
    expect(by["pokemon:en"]).toBeGreaterThan(28_000);
    expect(game("onepiece")).toBeGreaterThan(4_500);
    expect(catalog.cards.length).toBeGreaterThan(38_000);
    expect(catalog.cards.length).toBeLessThan(52_000);
    expect(
      catalog.expansions.filter((e) => e.game === "pokemon" && e.expansion.language_code === "en").length,
    ).toBeGreaterThan(140);
    expect(catalog.certs.length).toBe(CERT_COUNTS.large);
    expect(catalog.sealed.length).toBeGreaterThan(1000);
  });

  it("cards of sets present in both sizes are identical across sizes", () => {
    const small = catalogFor(SEED, "default");
    const large = catalogFor(SEED, "large");
    const largeById = new Map(large.cards.map((c) => [c.card.id, c]));
    const largeSets = new Map(large.expansions.map((e) => [`${e.game}:${e.expansion.id}`, e]));
    let compared = 0;
    for (const card of small.cards) {
      const twin = largeSets.get(`${card.game}:${card.card.expansion.id}`);
      if (!twin || JSON.stringify(twin.expansion) !== JSON.stringify(card.card.expansion)) continue;
      expect(largeById.get(card.card.id)).toStrictEqual(card);
      compared++;
    }
    expect(compared).toBeGreaterThan(1500);
  });
});
