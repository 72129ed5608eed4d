import { describe, expect, it } from "vitest";
import { CATALOG_EDGE_CASES } from "../../fixtures/catalog/index.ts";
import { REFERENCE_DATE } from "../../fixtures/catalog/util.ts";
import { cardIndex, catalogFor } from "./catalog.ts";

const E = CATALOG_EDGE_CASES;

describe.each([
  [5, "default"],
  [99, "default"],
  // The seed shapes.test.ts builds the large size with, so the worker builds it once.
  [42, "large"],
] as const)("catalog fixtures: edge cases (seed %i, %s)", (seed, size) => {
  const catalog = catalogFor(seed, size);
  const cards = cardIndex(catalog);

  it("a card with no price data at all", () => {
    const rec = cards.get(E.pricing.noPriceData.cardId)!;
    expect(rec).toBeDefined();
    expect(rec.pricing).toBeUndefined();
    expect("pricing" in rec).toBe(false);
  });

  it("a card with market null but other data", () => {
    const p = cards.get(E.pricing.nullMarket.cardId)!.pricing!;
    expect(p.market).toBeNull();
    expect(p.conditions!.length).toBe(5);
    expect(p.graded.length).toBeGreaterThan(0);
    expect(p.is_stale).toBe(false);
  });

  it("a stale price", () => {
    const p = cards.get(E.pricing.stale.cardId)!.pricing!;
    expect(p.is_stale).toBe(true);
    expect(typeof p.market).toBe("number");
    const ageDays = (Date.parse(REFERENCE_DATE) - Date.parse(p.market_updated_at!)) / 86_400_000;
    expect(ageDays).toBeGreaterThan(90);
  });

  it("graded entries with null low/high", () => {
    const graded = cards.get(E.pricing.gradedOpenRange.cardId)!.pricing!.graded;
    expect(graded.some((g) => g.low === null && g.high === null)).toBe(true);
  });

  it("Azuki cards are unpriced", () => {
    for (const id of E.pricing.azukiUnpriced.cardIds) {
      const rec = cards.get(id)!;
      expect(rec.game).toBe("azuki");
      expect(rec.pricing).toBeUndefined();
    }
    expect(catalog.cards.filter((c) => c.game === "azuki" && c.pricing !== undefined)).toEqual([]);
  });

  it("multi-language and multi-printing families", () => {
    for (const family of Object.values(E.families)) {
      const members = catalog.cards.filter((c) => c.game === family.game && c.card.code === family.code);
      expect(members.map((c) => c.card.id).sort()).toEqual([...family.cardIds].sort());
      const variants = members.filter((c) => c.is_variant).map((c) => c.card.id);
      expect(variants.sort()).toEqual("variantIds" in family ? [...family.variantIds].sort() : []);
    }
    const ml = catalog.cards.filter((c) => c.card.code === E.families.multiLanguage.code);
    expect(new Set(ml.map((c) => c.card.language_code))).toEqual(new Set(E.families.multiLanguage.languages));
    const fe = cards.get("base1-4vfe")!;
    expect(fe.is_first_edition).toBe(true);
    expect(fe.card.variants[0].name).toBe("firstEdition");
  });

  it("unlisted expansions exist, and their cards carry the complete inline expansion", () => {
    for (const [game, u] of Object.entries(E.unlisted)) {
      const exp = catalog.expansions.find((e) => e.expansion.id === u.expansionId)!;
      expect(exp, game).toBeDefined();
      expect(exp.listed).toBe(false);
      const card = cards.get(u.cardId)!;
      expect(card.card.expansion).toStrictEqual(exp.expansion);
      expect(card.card.expansion.release_date).toMatch(/^\d{4}\/\d{2}\/\d{2}$/);
    }
    expect(catalog.expansions.find((e) => e.expansion.id === "svp")!.expansion.name).toBe("SV Black Star Promos");
  });

  it("sealed edge cases", () => {
    const sealed = new Map(catalog.sealed.map((s) => [s.product.id, s]));
    const onSale = sealed.get(E.sealed.onSale.productId)!;
    expect(onSale.pricing!.is_on_sale).toBe(true);
    expect(onSale.pricing!.sale_price).toBeLessThan(onSale.pricing!.market!);
    expect(sealed.get(E.sealed.fullHistory.productId)!.pricing!.history).toHaveLength(30);
    const none = sealed.get(E.sealed.noPriceData.productId)!;
    expect(none).toBeDefined();
    expect(none.pricing).toBeUndefined();
    const azuki = sealed.get(E.sealed.azukiMsrp.productId)!;
    expect(azuki.product.msrp).toBeGreaterThan(0);
    expect(azuki.pricing!.market).toBeNull();
  });

  it("pinned certificates", () => {
    for (const pin of Object.values(E.certs)) {
      const cert = catalog.certs.find((c) => c.provider === pin.provider && c.cert_number === pin.cert_number)!;
      expect(cert, pin.cert_number).toBeDefined();
      expect(cert).toMatchObject({ card_id: pin.card_id, grade: pin.grade });
    }
    expect(E.certs.psa10Charizard).toMatchObject({ provider: "PSA", card_id: "base1-4", grade: "10" });
  });
});
