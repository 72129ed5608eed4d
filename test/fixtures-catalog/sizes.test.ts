import { describe, expect, it } from "vitest";
import { CERT_COUNTS } from "../../fixtures/catalog/index.ts";
import { timedBuild } from "./catalog.ts";

function counts(size: "default" | "large", seed: number) {
  const { catalog, ms } = timedBuild(seed, size);
  const by: Record<string, number> = {};
  for (const c of catalog.cards)
    by[`${c.game}:${c.card.language_code}`] = (by[`${c.game}:${c.card.language_code}`] ?? 0) + 1;
  const game = (g: string) => catalog.cards.filter((c) => c.game === g).length;
  console.log(
    `[catalog ${size}] build ${ms.toFixed(0)} ms; ${catalog.cards.length} cards ${JSON.stringify(by)}; ` +
      `${catalog.expansions.length} expansions; ${catalog.sealed.length} sealed; ${catalog.certs.length} certs`,
  );
  return { catalog, ms, by, game };
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

  it("large: close to the live catalog", () => {
    const { catalog, by, game } = counts("large", 1);
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

  it("build times (measured, not asserted)", () => {
    for (const size of ["default", "large"] as const) {
      const samples: number[] = [];
      for (let i = 0; i < 3; i++) samples.push(timedBuild(100 + i, size).ms);
      console.log(`[catalog ${size}] build ms over 3 seeds: ${samples.map((m) => m.toFixed(0)).join(", ")}`);
    }
    expect(true).toBe(true);
  });
});
