import { describe, expect, it } from "vitest";
import { CATALOG_EDGE_CASES } from "../../fixtures/catalog/index.ts";
import { cardIndex, catalogFor } from "./catalog.ts";

describe.each([1, 2024])("catalog fixtures: anchors (seed %i)", (seed) => {
  const catalog = catalogFor(seed, "default");
  const cards = cardIndex(catalog);
  const expansion = (game: string, id: string) =>
    catalog.expansions.find((e) => e.game === game && e.expansion.id === id);

  it("Base set and 151 expansions", () => {
    const base = expansion("pokemon", "base1")!;
    expect(base.listed).toBe(true);
    expect(base.expansion).toMatchObject({
      name: "Base",
      release_date: "1999/01/09",
      series: "Base",
      total: 102,
      printed_total: 102,
      language_code: "en",
    });
    expect(base.card_count).toEqual({ total: 102, official: 102 });
    const sv151 = expansion("pokemon", "sv3pt5")!;
    expect(sv151.expansion).toMatchObject({ name: "151", release_date: "2023/09/22", series: "Scarlet & Violet" });
    expect(sv151.series_id).toBe("sv");
    expect(expansion("pokemon", "swsh7")!.expansion.name).toBe("Evolving Skies");
    expect(expansion("onepiece", "OP01")!.expansion.name).toBe("Romance Dawn");
    expect(expansion("azuki", "azk1")).toBeDefined();
    const ja = expansion("pokemon", "sv2a")!;
    expect(ja.expansion.translation).toEqual({ en: { name: "Pokémon Card 151" } });
    expect(ja.expansion.language).toBe("Japanese");
  });

  it("base1-4 Charizard", () => {
    const rec = cards.get("base1-4")!;
    const c = rec.card;
    expect(c).toMatchObject({
      name: "Charizard",
      number: "4",
      supertype: "Pokémon",
      types: ["Fire"],
      hp: "120",
      rarity: "Rare Holo",
      artist: "Mitsuhiro Arita",
      language: "English",
      language_code: "en",
      code: "base1-4",
    });
    expect(c.attacks).toContainEqual(expect.objectContaining({ name: "Fire Spin", damage: "100" }));
    expect(c.weaknesses).toEqual([{ type: "Water", value: "×2" }]);
    expect(c.expansion.id).toBe("base1");
    expect(rec.is_variant).toBe(false);
    expect(rec.is_holo).toBe(true);
    expect(c.variants[0].name).toBe("holofoil");
    expect(rec.pricing!.market).toBeCloseTo(350, 0);
    expect(rec.pricing!.graded.length).toBeGreaterThan(0);
  });

  it("other Base set anchors", () => {
    expect(cards.get("base1-2")!.card).toMatchObject({ name: "Blastoise", types: ["Water"], hp: "100" });
    expect(cards.get("base1-15")!.card).toMatchObject({ name: "Venusaur", types: ["Grass"], hp: "100" });
    expect(cards.get("base1-58")!.card).toMatchObject({
      name: "Pikachu",
      types: ["Lightning"],
      hp: "40",
      rarity: "Common",
    });
  });

  it("sv3pt5-6 Charizard ex and swsh7-215 Umbreon VMAX", () => {
    expect(cards.get("sv3pt5-6")!.card).toMatchObject({
      name: "Charizard ex",
      subtypes: ["Stage 2", "ex"],
      hp: "330",
      printed_number: "006/165",
    });
    const umbreon = cards.get("swsh7-215")!;
    expect(umbreon.card).toMatchObject({ name: "Umbreon VMAX", types: ["Darkness"] });
    expect(umbreon.pricing!.market).toBe(1450);
  });

  it("One Piece Nami and its alternate art", () => {
    const nami = cards.get("OP01-016")!;
    expect(nami.card).toMatchObject({
      name: "Nami",
      type: "Character",
      colors: ["Red"],
      cost: "1",
      power: "2000",
      counter: "1000",
      code: "OP01-016",
      number: "016",
    });
    expect(nami.is_variant).toBe(false);
    const alt = cards.get("OP01-016vaa")!;
    expect(alt.is_variant).toBe(true);
    expect(alt.card.code).toBe("OP01-016");
    expect(alt.card.name).toBe("Nami");
    expect(cards.get("OP01-016-JP")!.card).toMatchObject({ name: "ナミ", language_code: "ja", code: "OP01-016" });
    const leader = cards.get("OP01-001")!.card;
    expect(leader).toMatchObject({ type: "Leader", life: "5", rarity: "L" });
    expect(leader.cost).toBeUndefined();
  });

  it("every anchor id in CATALOG_EDGE_CASES resolves", () => {
    for (const anchor of Object.values(CATALOG_EDGE_CASES.anchors)) {
      const rec = cards.get(anchor.cardId);
      expect(rec, anchor.cardId).toBeDefined();
      expect(rec!.game).toBe(anchor.game);
      expect(rec!.card.expansion.id).toBe(anchor.expansionId);
    }
    for (const e of Object.values(CATALOG_EDGE_CASES.expansions)) {
      const rec = expansion(e.game, e.id);
      expect(rec, e.id).toBeDefined();
      if ("name" in e) expect(rec!.expansion.name).toBe(e.name);
    }
  });
});
