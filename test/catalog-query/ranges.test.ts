// Ranges work on every field with an order: numbers, dates and text (text in
// its sort order; card numbers naturally). Lists and booleans refuse them.
import { describe, expect, it } from "vitest";
import type { CardRecord } from "../../emulator/catalog-data/model.ts";
import { compileOrderBy, compileQuery } from "../../emulator/areas/catalog/query/index.ts";
import { expectQueryError } from "./helpers.ts";
import { card, priced, sealed } from "./records.ts";

const NUMBERS = [
  "1",
  "2",
  "9",
  "10",
  "10a",
  "11",
  "12",
  "12a",
  "12b",
  "013",
  "100",
  "TG01",
  "TG10",
  "SV001",
  "SV2",
  "GG05",
];
const CARDS: CardRecord[] = NUMBERS.map((number, i) => card({ id: `n-${i}`, number, name: `Card ${number}` }));
CARDS.push(card({ id: "n-missing", number: undefined as unknown as string }));

const numbers = (q: string): string[] => {
  const { match } = compileQuery(q, "cards", "pokemon");
  return CARDS.filter(match).map((r) => r.card.number);
};

describe("number ranges (natural order: digit runs numerically, digits before letters)", () => {
  it("number:[1 TO 10] takes 1..10 and nothing that sorts after 10", () => {
    expect(numbers("number:[1 TO 10]")).toEqual(["1", "2", "9", "10"]);
  });

  it("a suffix sorts after its number: 10 < 10a < 11 and 12 < 12a < 12b < 13", () => {
    expect(numbers("number:[10 TO 11]")).toEqual(["10", "10a", "11"]);
    expect(numbers("number:{12 TO 13]")).toEqual(["12a", "12b", "013"]);
    expect(numbers("number:[12a TO 12b}")).toEqual(["12a"]);
  });

  it("leading zeros do not matter (013 = 13, SV001 = SV1)", () => {
    expect(numbers("number:[13 TO 13]")).toEqual(["013"]);
    expect(numbers("number:[sv1 TO sv2]")).toEqual(["SV001", "SV2"]);
  });

  it("letter-prefixed numbers sort after every plain number, by prefix then number", () => {
    expect(numbers("number:[TG01 TO TG10]")).toEqual(["TG01", "TG10"]);
    expect(numbers("number:{100 TO *]")).toEqual(["TG01", "TG10", "SV001", "SV2", "GG05"]);
    expect(numbers("number:[a TO h]")).toEqual(["GG05"]);
  });

  it("open ends and exclusive bounds; a missing number never matches", () => {
    expect(numbers("number:[* TO 2]")).toEqual(["1", "2"]);
    expect(numbers("number:{* TO 2}")).toEqual(["1"]);
    expect(numbers("number:[* TO *]")).toHaveLength(NUMBERS.length);
    expect(numbers("-number:[* TO *]")).toEqual([undefined]);
  });

  it("the range order is the orderBy order", () => {
    const sorted = compileOrderBy("number", "cards", "pokemon")
      .sort(CARDS.slice(0, NUMBERS.length))
      .map((r) => r.card.number);
    for (let i = 0; i < sorted.length; i++) {
      // every number at or below sorted[i] is in [* TO sorted[i]] and nothing else
      expect(new Set(numbers(`number:[* TO ${sorted[i]}]`))).toEqual(new Set(sorted.slice(0, i + 1)));
    }
  });
});

describe("text ranges compare lower-cased", () => {
  const recs = ["Abra", "bulbasaur", "Charizard", "Dratini", "eevee"].map((name, i) => card({ id: `t-${i}`, name }));
  const names = (q: string) => {
    const { match } = compileQuery(q, "cards", "pokemon");
    return recs.filter(match).map((r) => r.card.name);
  };

  it("name, bare terms and id accept ranges", () => {
    expect(names("name:[b TO d]")).toEqual(["bulbasaur", "Charizard"]);
    expect(names("name:[B TO D}")).toEqual(["bulbasaur", "Charizard"]);
    expect(names("[charizard TO *]")).toEqual(["Charizard", "Dratini", "eevee"]);
    expect(names("name:{charizard TO *]")).toEqual(["Dratini", "eevee"]);
    expect(names("id:[t-1 TO t-3]")).toEqual(["bulbasaur", "Charizard", "Dratini"]);
  });

  it("sealed text fields too", () => {
    const products = [sealed({ id: "a-box", name: "A Box" }), sealed({ id: "z-box", name: "Z Box" })];
    const { match } = compileQuery("name:[a TO m]", "sealed", "pokemon");
    expect(products.filter(match).map((p) => p.product.id)).toEqual(["a-box"]);
  });
});

describe("numeric and date ranges (unchanged) and the fields that refuse ranges", () => {
  it("prices and hp", () => {
    const recs = [
      card({ id: "p-1", hp: "60" }, priced(1)),
      card({ id: "p-2", hp: "120" }, priced(25)),
      card({ id: "p-3" }, priced(null)),
    ];
    const ids = (q: string) => recs.filter(compileQuery(q, "cards", "pokemon").match).map((r) => r.card.id);
    expect(ids("raw_price:[1 TO 25}")).toEqual(["p-1"]);
    expect(ids("market_price:{1 TO *]")).toEqual(["p-2"]);
    expect(ids("hp:[100 TO *]")).toEqual(["p-2"]);
  });

  it("lists and booleans → invalid_value at the range", () => {
    expect(
      expectQueryError(() => compileQuery("types:[a TO b]", "cards", "pokemon"), "invalid_value", 6).message,
    ).toMatch(/list field/);
    expectQueryError(() => compileQuery("is_holo:[true TO false]", "cards", "pokemon"), "invalid_value", 8);
    expectQueryError(() => compileQuery("is_on_sale:[true TO false]", "sealed", "pokemon"), "invalid_value", 11);
  });
});
