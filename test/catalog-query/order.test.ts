import { describe, expect, it } from "vitest";
import type { CardRecord, ExpansionRecord, SealedRecord } from "../../emulator/catalog-data/model.ts";
import { compileOrderBy, parseOrderBy, DEFAULT_ORDER_BY } from "../../emulator/areas/catalog/query/index.ts";
import { naturalSortKey } from "../../emulator/areas/catalog/query/text.ts";
import { expectQueryError } from "./helpers.ts";
import { card, expansion, expansionRecord, priced, sealed } from "./records.ts";

const old = expansion({ id: "base1", release_date: "1999/01/09" });
const mid = expansion({ id: "sv1", release_date: "2023/03/31" });
const mid2 = expansion({ id: "sv0", release_date: "2023/03/31" });
const none = expansion({ id: "promo", release_date: undefined });

const CARDS: CardRecord[] = [
  card({ id: "c-e", name: "eevee", number: "10", expansion: mid, rarity: "Common", hp: "60" }, priced(5)),
  card({ id: "c-a", name: "Abra", number: "2", expansion: mid, hp: "40" }, priced(null)),
  card({ id: "c-z", name: "Zapdos", number: "TG01", expansion: none, rarity: "Rare", hp: "90" }, priced(20)),
  card({ id: "c-b", name: "abra", number: "1", expansion: old, rarity: "Rare Holo" }),
  card({ id: "c-m", name: "Mew", number: "3", expansion: mid2, rarity: "Common", hp: "60" }, priced(5)),
];

const order = (orderBy: string | undefined, records = CARDS): string[] =>
  compileOrderBy(orderBy, "cards", "pokemon")
    .sort(records)
    .map((r) => r.card.id);
const orderViaComparator = (orderBy: string | undefined, records = CARDS): string[] =>
  [...records].sort(compileOrderBy(orderBy, "cards", "pokemon")).map((r) => r.card.id);

describe("card orderBy", () => {
  it("default order: expansion release date, expansion id, natural number, then id; missing date last", () => {
    expect(DEFAULT_ORDER_BY.cards).toBe("release_date,expansion.id,number");
    expect(order(undefined)).toEqual(["c-b", "c-m", "c-a", "c-e", "c-z"]);
    expect(order("")).toEqual(order(undefined));
    expect(order("  ")).toEqual(order(undefined));
  });

  it("name ascending is case-insensitive, ties broken by id ascending", () => {
    expect(order("name")).toEqual(["c-a", "c-b", "c-e", "c-m", "c-z"]);
  });

  it("- prefix sorts descending; the id tiebreak stays ascending", () => {
    expect(order("-name")).toEqual(["c-z", "c-m", "c-e", "c-a", "c-b"]);
  });

  it("missing values sort last in both directions", () => {
    expect(order("raw_price")).toEqual(["c-e", "c-m", "c-z", "c-a", "c-b"]);
    expect(order("-raw_price")).toEqual(["c-z", "c-e", "c-m", "c-a", "c-b"]);
    expect(order("rarity")).toEqual(["c-e", "c-m", "c-z", "c-b", "c-a"]);
    expect(order("-rarity")).toEqual(["c-b", "c-z", "c-e", "c-m", "c-a"]);
    expect(order("-release_date")).toEqual(["c-a", "c-e", "c-m", "c-b", "c-z"]);
  });

  it("market_price is an alias of raw_price", () => {
    expect(order("market_price")).toEqual(order("raw_price"));
  });

  it("number sorts in natural order", () => {
    expect(order("number")).toEqual(["c-b", "c-a", "c-m", "c-e", "c-z"]);
    expect(order("-number")).toEqual(["c-z", "c-e", "c-m", "c-a", "c-b"]);
  });

  it("natural sort keys order digit runs numerically and before letters", () => {
    const sorted = ["TG10", "10", "tg9", "2", "0", "SV001", "1a", "GG70", "100"].sort((a, b) => {
      const x = naturalSortKey(a);
      const y = naturalSortKey(b);
      return x < y ? -1 : x > y ? 1 : 0;
    });
    expect(sorted).toEqual(["0", "1a", "2", "10", "100", "GG70", "SV001", "tg9", "TG10"]);
    expect(naturalSortKey("SV001")).toBe(naturalSortKey("sv1"));
  });

  it("hp sorts numerically (wire string)", () => {
    const recs = [
      card({ id: "h1", hp: "100" }),
      card({ id: "h2", hp: "90" }),
      card({ id: "h3" }),
      card({ id: "h4", hp: "250" }),
    ];
    expect(order("hp", recs)).toEqual(["h2", "h1", "h4", "h3"]);
    expect(order("-hp", recs)).toEqual(["h4", "h1", "h2", "h3"]);
  });

  it("several keys apply in order", () => {
    expect(order("-hp,name")).toEqual(["c-z", "c-e", "c-m", "c-a", "c-b"]);
    expect(order("rarity, -raw_price")).toEqual(["c-e", "c-m", "c-z", "c-b", "c-a"]);
    expect(order("release_date,expansion.id,-number")).toEqual(["c-b", "c-m", "c-e", "c-a", "c-z"]);
    expect(order("id")).toEqual(["c-a", "c-b", "c-e", "c-m", "c-z"]);
  });

  it("the plain comparator agrees with .sort()", () => {
    for (const o of [undefined, "name", "-name", "raw_price", "-raw_price", "number", "-hp,name", "-release_date"]) {
      expect(orderViaComparator(o)).toEqual(order(o));
    }
  });

  it("page() equals sort().slice() for every window", () => {
    const many: CardRecord[] = Array.from({ length: 60 }, (_, i) =>
      card(
        {
          id: `p-${String(i).padStart(2, "0")}`,
          name: ["Abra", "Kadabra", "Alakazam"][i % 3],
          number: String(60 - i),
          rarity: i % 4 ? "Common" : undefined,
        },
        priced(i % 5 ? i % 7 : null),
      ),
    );
    for (const o of [undefined, "name", "-raw_price,name", "rarity,-number"]) {
      const s = compileOrderBy(o, "cards", "pokemon");
      const full = s.sort(many);
      for (const [offset, limit] of [
        [0, 1],
        [0, 5],
        [3, 4],
        [5, 2],
        [0, 60],
        [50, 20],
        [59, 5],
        [60, 5],
        [0, 0],
      ]) {
        expect(s.page(many, offset, limit)).toEqual(full.slice(offset, offset + limit));
      }
    }
  });

  it("One Piece keys", () => {
    const op = [
      card({ id: "op-1", cost: "3", power: "5000", counter: "1000", life: "4" }, { game: "onepiece" }),
      card({ id: "op-2", cost: "1", power: "2000" }, { game: "onepiece" }),
      card({ id: "op-3", cost: "3", power: "7000", life: "5" }, { game: "onepiece" }),
    ];
    const opOrder = (o: string) =>
      compileOrderBy(o, "cards", "onepiece")
        .sort(op)
        .map((r) => r.card.id);
    expect(opOrder("cost,-power")).toEqual(["op-2", "op-3", "op-1"]);
    expect(opOrder("-counter")).toEqual(["op-1", "op-2", "op-3"]);
    expect(opOrder("life")).toEqual(["op-1", "op-3", "op-2"]);
  });

  it("parseOrderBy reports the resolved specs", () => {
    expect(parseOrderBy("-Release_Date, name", "cards", "pokemon")).toEqual([
      { key: "release_date", field: "expansion.release_date", descending: true },
      { key: "name", field: "name", descending: false },
    ]);
  });
});

describe("orderBy errors", () => {
  it("unknown key → unknown_field with offset into orderBy and a suggestion", () => {
    expect(expectQueryError(() => compileOrderBy("nmae", "cards", "pokemon"), "unknown_field", 0).message).toContain(
      'did you mean "name"?',
    );
    expect(
      expectQueryError(() => compileOrderBy("name,-rarty", "cards", "pokemon"), "unknown_field", 6).message,
    ).toContain('did you mean "rarity"?');
    expectQueryError(() => compileOrderBy("name, -zzzzzzz", "cards", "pokemon"), "unknown_field", 7);
  });

  it("game-specific keys", () => {
    expectQueryError(() => compileOrderBy("cost", "cards", "pokemon"), "unknown_field", 0);
    expectQueryError(() => compileOrderBy("id,hp", "cards", "onepiece"), "unknown_field", 3);
    expectQueryError(() => compileOrderBy("power", "cards", "azuki"), "unknown_field", 0);
  });

  it("known but unsortable field → invalid_value", () => {
    expectQueryError(() => compileOrderBy("artist", "cards", "pokemon"), "invalid_value", 0);
    expect(
      expectQueryError(() => compileOrderBy("name, -is_holo", "cards", "pokemon"), "invalid_value", 7).message,
    ).toContain("sortable keys");
    expectQueryError(() => compileOrderBy("types", "cards", "pokemon"), "invalid_value", 0);
    expectQueryError(() => compileOrderBy("card_count.total", "expansions", "pokemon"), "invalid_value", 0);
    expectQueryError(() => compileOrderBy("product_type", "sealed", "pokemon"), "invalid_value", 0);
  });

  it("empty key → parse_error", () => {
    expectQueryError(() => compileOrderBy("name,,id", "cards", "pokemon"), "parse_error", 5);
    expectQueryError(() => compileOrderBy("name,", "cards", "pokemon"), "parse_error", 5);
    expectQueryError(() => compileOrderBy("name,-", "cards", "pokemon"), "parse_error", 5);
  });

  it("more than 3 keys → query_too_complex", () => {
    expect(() => compileOrderBy("name,number,id", "cards", "pokemon")).not.toThrow();
    expectQueryError(() => compileOrderBy("name,number,rarity,id", "cards", "pokemon"), "query_too_complex");
  });
});

describe("expansion and sealed orderBy", () => {
  const EXP: ExpansionRecord[] = [
    expansionRecord({ id: "b", name: "Beta", release_date: "2020/01/01" }),
    expansionRecord({ id: "a", name: "alpha", release_date: undefined }),
    expansionRecord({ id: "c", name: "Gamma", release_date: "2010/05/05" }),
  ];
  const eorder = (o: string | undefined) =>
    compileOrderBy(o, "expansions", "pokemon")
      .sort(EXP)
      .map((e) => e.expansion.id);

  it("expansions: default release date ascending (missing last), name, release_date, id", () => {
    expect(eorder(undefined)).toEqual(["c", "b", "a"]);
    expect(eorder("name")).toEqual(["a", "b", "c"]);
    expect(eorder("-release_date")).toEqual(["b", "c", "a"]);
    expect(eorder("-id")).toEqual(["c", "b", "a"]);
    expectQueryError(() => compileOrderBy("hp", "expansions", "pokemon"), "unknown_field", 0);
  });

  const SEALED: SealedRecord[] = [
    sealed(
      { id: "s1", name: "Box", expansion: expansion({ release_date: "2023/08/11" }) },
      { pricing: { currency: "USD", market: 110, is_on_sale: false } },
    ),
    sealed({ id: "s2", name: "Azuki Deck", msrp: 19.99, expansion: expansion({ release_date: "2024/01/01" }) }),
    sealed(
      { id: "s3", name: "ETB", expansion: expansion({ release_date: "2023/08/11" }) },
      { pricing: { currency: "USD", market: null, is_on_sale: false } },
    ),
    sealed(
      { id: "s4", name: "Pack", release_date: "2022/01/01" },
      { pricing: { currency: "USD", market: 4.5, is_on_sale: true } },
    ),
  ];
  const sorder = (o: string | undefined) =>
    compileOrderBy(o, "sealed", "pokemon")
      .sort(SEALED)
      .map((s) => s.product.id);

  it("sealed: default release date then name; price uses msrp fallback, missing last", () => {
    expect(sorder(undefined)).toEqual(["s4", "s1", "s3", "s2"]);
    expect(sorder("price")).toEqual(["s4", "s2", "s1", "s3"]);
    expect(sorder("-price")).toEqual(["s1", "s2", "s4", "s3"]);
    expect(sorder("-release_date,name")).toEqual(["s2", "s1", "s3", "s4"]);
    expect(sorder("name")).toEqual(["s2", "s1", "s3", "s4"]);
  });
});
