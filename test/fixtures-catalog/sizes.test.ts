import { describe, expect, it } from "vitest";
import { CERT_COUNTS } from "../../fixtures/catalog/index.ts";
import { timedBuild } from "./catalog.ts";

function counts(size: "default", seed: number) {
  const { catalog, ms } = timedBuild(seed, size);
  const by: Record<string, number> = {};
  for (const c of catalog.cards)
    by[`${c.game}:${c.card.language_code}`] = (by[`${c.game}:${c.card.language_code}`] ?? 0) + 1;
  console.log(
    `[catalog ${size}] build ${ms.toFixed(0)} ms; ${catalog.cards.length} cards ${JSON.stringify(by)}; ` +
      `${catalog.expansions.length} expansions; ${catalog.sealed.length} sealed; ${catalog.certs.length} certs`,
  );
  return { catalog, ms, by };
}

describe("catalog fixtures: sizes", () => {
  it("default: ~1,500–3,000 cards across every game and language", () => {
    const { catalog, by } = counts("default", 1);
    expect(catalog.size).toBe("default");
    expect(catalog.cards.length).toBeGreaterThanOrEqual(1500);
    expect(catalog.cards.length).toBeLessThanOrEqual(3000);
    for (const key of ["pokemon:en", "pokemon:ja", "pokemon:zh", "onepiece:en", "onepiece:ja", "azuki:en"])
      expect(by[key], key).toBeGreaterThan(0);
    expect(catalog.certs.length).toBe(CERT_COUNTS.default);
    expect(catalog.sealed.length).toBeGreaterThan(30);
  });

  it("every seed builds a default catalog of the same size class", () => {
    // Build times are printed by `npx tsx bench/catalog.ts`; the large size's counts are in large.test.ts.
    for (const seed of [100, 101, 102]) {
      const { catalog } = counts("default", seed);
      expect(catalog.cards.length, `seed ${seed}`).toBeGreaterThanOrEqual(1500);
      expect(catalog.cards.length, `seed ${seed}`).toBeLessThanOrEqual(3000);
      expect(catalog.certs.length, `seed ${seed}`).toBe(CERT_COUNTS.default);
      expect(catalog.sealed.length, `seed ${seed}`).toBeGreaterThan(30);
    }
  });
});
