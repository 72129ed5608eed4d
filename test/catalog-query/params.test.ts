import { describe, expect, it } from "vitest";
import {
  SELECTABLE_FIELDS,
  applySelect,
  effectiveLanguages,
  languageAllowed,
  parseDistinct,
  parseInclude,
  parseLanguage,
  parseProductTypes,
  parseSelect,
} from "../../emulator/areas/catalog/query/index.ts";
import { expectQueryError } from "./helpers.ts";
import { card, expansion } from "./records.ts";

describe("select", () => {
  it("absent or blank → null (no trimming)", () => {
    expect(parseSelect(undefined, "cards")).toBeNull();
    expect(parseSelect("", "cards")).toBeNull();
    expect(parseSelect(" , ", "cards")).toBeNull();
  });

  it("keeps id first, dedupes, trims", () => {
    expect(parseSelect("name, number,name", "cards")).toEqual(["id", "name", "number"]);
    expect(parseSelect("id,pricing", "cards")).toEqual(["id", "pricing"]);
    expect(parseSelect("hp,colors,block,printed_number", "cards")).toEqual([
      "id",
      "hp",
      "colors",
      "block",
      "printed_number",
    ]);
  });

  it("accepts each resource's wire keys", () => {
    expect(SELECTABLE_FIELDS.cards).toContain("tcgplayer_id");
    expect(SELECTABLE_FIELDS.cards).toContain("pricing");
    expect(SELECTABLE_FIELDS.expansions).not.toContain("pricing");
    expect(parseSelect("total,printed_total,translation", "expansions")).toEqual([
      "id",
      "total",
      "printed_total",
      "translation",
    ]);
    expect(parseSelect("product_type,msrp,pricing", "sealed")).toEqual(["id", "product_type", "msrp", "pricing"]);
  });

  it("unknown field → invalid_select (no position), with a suggestion when close", () => {
    expect(expectQueryError(() => parseSelect("name,nmber", "cards"), "invalid_select").message).toContain(
      'did you mean "number"?',
    );
    expectQueryError(() => parseSelect("pricing", "expansions"), "invalid_select");
    expectQueryError(() => parseSelect("hp", "sealed"), "invalid_select");
    expectQueryError(() => parseSelect("expansion.name", "cards"), "invalid_select");
    expectQueryError(() => parseSelect("Name", "cards"), "invalid_select");
  });

  it("applySelect keeps selected keys in wire order and always id", () => {
    const c = card({ id: "sv1-1", name: "Sprigatito", rarity: "Common", expansion: expansion() }).card;
    const out = applySelect(c, ["id", "rarity", "name"]);
    expect(Object.keys(out)).toEqual(["id", "name", "rarity"]);
    expect(out).toEqual({ id: "sv1-1", name: "Sprigatito", rarity: "Common" });
    expect(applySelect(c, ["artist"])).toEqual({ id: "sv1-1" }); // absent stays absent
    expect(applySelect(c, null)).toBe(c);
    const withPricing = { ...c, pricing: { market: 1 } };
    expect(applySelect(withPricing, parseSelect("pricing", "cards"))).toEqual({ id: "sv1-1", pricing: { market: 1 } });
  });
});

describe("include", () => {
  it("only prices, comma list, blank ok", () => {
    expect(parseInclude(undefined, "cards")).toEqual({ prices: false });
    expect(parseInclude("", "cards")).toEqual({ prices: false });
    expect(parseInclude("prices", "cards")).toEqual({ prices: true });
    expect(parseInclude("prices, prices", "sealed")).toEqual({ prices: true });
  });

  it("anything else → invalid_include", () => {
    expectQueryError(() => parseInclude("price", "cards"), "invalid_include");
    expectQueryError(() => parseInclude("prices,history", "sealed"), "invalid_include");
    expectQueryError(() => parseInclude("Prices", "cards"), "invalid_include");
  });

  it("expansions accept no include value", () => {
    expect(parseInclude(undefined, "expansions")).toEqual({ prices: false });
    expectQueryError(() => parseInclude("prices", "expansions"), "invalid_include");
  });
});

describe("distinct", () => {
  it("only code, cards only", () => {
    expect(parseDistinct(undefined, "cards")).toBeNull();
    expect(parseDistinct("", "cards")).toBeNull();
    expect(parseDistinct("code", "cards")).toBe("code");
    expectQueryError(() => parseDistinct("name", "cards"), "invalid_distinct");
    expectQueryError(() => parseDistinct("code", "sealed"), "invalid_distinct");
    expectQueryError(() => parseDistinct("code", "expansions"), "invalid_distinct");
  });
});

describe("language", () => {
  it("absent or blank → undefined (caller applies its default)", () => {
    expect(parseLanguage(undefined)).toBeUndefined();
    expect(parseLanguage("")).toBeUndefined();
  });

  it("comma list of codes (case-insensitive, canonical spelling returned)", () => {
    expect([...(parseLanguage("ja") ?? [])]).toEqual(["ja"]);
    expect([...(parseLanguage("en, ZH-hans,ja") ?? [])]).toEqual(["en", "zh-Hans", "ja"]);
  });

  it("all → null (no filter)", () => {
    expect(parseLanguage("all")).toBeNull();
    expect(parseLanguage("en,ALL")).toBeNull();
  });

  it("a code outside LANGUAGES → invalid_language; a code the game does not print is still valid", () => {
    expectQueryError(() => parseLanguage("fr"), "invalid_language");
    expectQueryError(() => parseLanguage("en,jp"), "invalid_language");
    expect([...(parseLanguage("zh-Hant") ?? [])]).toEqual(["zh-Hant"]); // no game prints it; it just matches nothing
  });

  it("effectiveLanguages: explicit wins, pinned q or no default → all, else the default", () => {
    expect([...(effectiveLanguages("ja", { pinned: true, defaultLanguage: "en" }) ?? [])]).toEqual(["ja"]);
    expect(effectiveLanguages(undefined, { pinned: true, defaultLanguage: "en" })).toBeNull();
    expect(effectiveLanguages(undefined, { pinned: false, defaultLanguage: null })).toBeNull();
    expect([...(effectiveLanguages(undefined, { pinned: false, defaultLanguage: "en" }) ?? [])]).toEqual(["en"]);
    expect([...(effectiveLanguages("", { pinned: false, defaultLanguage: "en" }) ?? [])]).toEqual(["en"]);
    expect(effectiveLanguages("all", { pinned: false, defaultLanguage: "en" })).toBeNull();
  });

  it("languageAllowed", () => {
    expect(languageAllowed(null, "ja")).toBe(true);
    expect(languageAllowed(new Set(["en" as const]), "ja")).toBe(false);
    expect(languageAllowed(new Set(["en" as const]), "en")).toBe(true);
  });
});

describe("sealed product_type shorthand", () => {
  it("comma list from the closed vocabulary", () => {
    expect(parseProductTypes(undefined)).toBeNull();
    expect(parseProductTypes("")).toBeNull();
    expect([...(parseProductTypes("booster_box, ELITE_TRAINER_BOX") ?? [])]).toEqual([
      "booster_box",
      "elite_trainer_box",
    ]);
  });

  it("unknown value → invalid_value at its offset", () => {
    expectQueryError(() => parseProductTypes("starter_deck"), "invalid_value", 0);
    expectQueryError(() => parseProductTypes("booster_box, starter_deck"), "invalid_value", 13);
  });
});
