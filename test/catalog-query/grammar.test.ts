import { describe, expect, it } from "vitest";
import type { CardRecord, ExpansionRecord, Game, SealedRecord } from "../../emulator/catalog-data/model.ts";
import { compileOrderBy, compileQuery, pinsLanguage, parseQuery } from "../../emulator/areas/catalog/query/index.ts";
import { card, expansion, expansionRecord, priced, sealed } from "./records.ts";

const sv1 = expansion();
const obf = expansion({ id: "sv3", name: "Obsidian Flames", release_date: "2023/08/11" });
const base = expansion({ id: "base1", name: "Base", series: "Base", release_date: "1999/01/09" });
const undated = expansion({ id: "swshp", name: "SWSH Promos", series: undefined, release_date: undefined });

const CARDS: CardRecord[] = [
  card(
    {
      id: "sv1-25-en",
      name: "Pikachu",
      number: "25",
      rarity: "Common",
      artist: "Atsuko Nishida",
      supertype: "Pokémon",
      subtypes: ["Basic"],
      types: ["Lightning"],
      hp: "60",
      attacks: [
        { name: "Thunder Shock", cost: ["Lightning"], converted_energy_cost: 1, damage: "20", text: "Flip a coin." },
      ],
      weaknesses: [{ type: "Fighting", value: "×2" }],
    },
    priced(1.5),
  ),
  card(
    {
      id: "sv3-6-en",
      name: "Charizard ex",
      number: "6",
      rarity: "Double Rare",
      expansion: obf,
      subtypes: ["Stage 2", "ex"],
      types: ["Fire"],
      hp: "330",
      abilities: [{ type: "Ability", name: "Infernal Reign", text: "Search your deck for up to 3 Basic Fire Energy." }],
      attacks: [{ name: "Burning Darkness", cost: ["Fire", "Fire"], converted_energy_cost: 2, damage: "180+" }],
      weaknesses: [{ type: "Water", value: "×2" }],
    },
    { ...priced(45), is_holo: true },
  ),
  card(
    {
      id: "sv3-6-ja",
      name: "Charizard ex",
      number: "6",
      rarity: "RR",
      language_code: "ja",
      expansion: { ...obf, language_code: "ja", language: "Japanese" },
      hp: "330",
    },
    priced(30),
  ),
  card(
    {
      id: "base1-4-en",
      name: "Charizard",
      number: "4",
      rarity: "Rare Holo",
      expansion: base,
      hp: "120",
      artist: "Mitsuhiro Arita",
      types: ["Fire"],
    },
    { is_first_edition: true, is_holo: true },
  ),
  card(
    { id: "swshp-tg01-en", name: "Pikachu V", number: "TG01", expansion: undated, hp: "190", subtypes: ["Basic", "V"] },
    priced(null),
  ),
];

function ids(q: string | undefined, records: CardRecord[] = CARDS, game: Game = "pokemon"): string[] {
  const { match } = compileQuery(q, "cards", game);
  return records.filter(match).map((r) => r.card.id);
}

describe("q grammar: terms", () => {
  it("an absent, empty or blank q matches everything", () => {
    expect(ids(undefined)).toHaveLength(5);
    expect(ids("")).toHaveLength(5);
    expect(ids("   ")).toHaveLength(5);
  });

  it("a bare term is a case-insensitive substring match on name", () => {
    expect(ids("char")).toEqual(["sv3-6-en", "sv3-6-ja", "base1-4-en"]);
    expect(ids("CHARIZARD")).toEqual(["sv3-6-en", "sv3-6-ja", "base1-4-en"]);
    expect(ids("kachu")).toEqual(["sv1-25-en", "swshp-tg01-en"]);
  });

  it("field:value is a case-insensitive substring match", () => {
    expect(ids("rarity:rare")).toEqual(["sv3-6-en", "base1-4-en"]);
    expect(ids("artist:ARITA")).toEqual(["base1-4-en"]);
    expect(ids("number:tg")).toEqual(["swshp-tg01-en"]);
    expect(ids("id:sv3-6")).toEqual(["sv3-6-en", "sv3-6-ja"]);
    expect(ids("code:base1")).toEqual(["base1-4-en"]);
  });

  it("field names are case-insensitive", () => {
    expect(ids("Rarity:holo")).toEqual(["base1-4-en"]);
  });

  it("!field:value is a whole-value, case-insensitive match", () => {
    expect(ids("!name:charizard")).toEqual(["base1-4-en"]);
    expect(ids("!name:PIKACHU")).toEqual(["sv1-25-en"]);
    expect(ids("!charizard")).toEqual(["base1-4-en"]); // bare exact term on name
    expect(ids("!rarity:rare")).toEqual([]);
  });

  it("double-quoted values may contain spaces", () => {
    expect(ids('name:"charizard ex"')).toEqual(["sv3-6-en", "sv3-6-ja"]);
    expect(ids('!name:"Charizard EX"')).toEqual(["sv3-6-en", "sv3-6-ja"]);
    expect(ids('"pikachu v"')).toEqual(["swshp-tg01-en"]);
    expect(ids('attacks.name:"thunder shock"')).toEqual(["sv1-25-en"]);
  });

  it("quoted values support backslash escapes and treat * literally", () => {
    const recs = [card({ id: "x-1", name: 'Say "Hi"' }), card({ id: "x-2", name: "Star*Power" })];
    expect(ids('name:"say \\"hi\\""', recs)).toEqual(["x-1"]);
    expect(ids('"r*p"', recs)).toEqual(["x-2"]);
    expect(ids('"*power"', recs)).toEqual(["x-2"]); // no wildcard rules inside quotes
  });
});

describe("q grammar: boolean structure", () => {
  it("whitespace-separated terms AND together", () => {
    expect(ids("charizard rarity:holo")).toEqual(["base1-4-en"]);
    expect(ids("charizard   language:ja")).toEqual(["sv3-6-ja"]);
  });

  it("an explicit uppercase AND is accepted", () => {
    expect(ids("charizard AND rarity:holo")).toEqual(["base1-4-en"]);
  });

  it("uppercase OR between terms; lowercase or is a plain term", () => {
    expect(ids("!name:pikachu OR !name:charizard")).toEqual(["sv1-25-en", "base1-4-en"]);
    expect(ids("pikachu or charizard")).toEqual([]);
  });

  it("AND binds tighter than OR", () => {
    // (pikachu AND hp:190) OR (charizard AND language:ja)
    expect(ids("pikachu hp:190 OR charizard language:ja")).toEqual(["sv3-6-ja", "swshp-tg01-en"]);
  });

  it("parentheses group", () => {
    expect(ids("(pikachu OR charizard) hp:120")).toEqual(["base1-4-en"]);
    expect(ids("((pikachu OR charizard) (hp:60 OR hp:120))")).toEqual(["sv1-25-en", "base1-4-en"]);
  });

  it("leading - negates a term", () => {
    expect(ids("charizard -is_first_edition:true")).toEqual(["sv3-6-en", "sv3-6-ja"]);
    expect(ids("-rarity:rare")).toEqual(["sv1-25-en", "sv3-6-ja", "swshp-tg01-en"]); // missing rarity counts as not matching
  });

  it("leading - negates a group", () => {
    expect(ids("-(pikachu OR language:ja)")).toEqual(["sv3-6-en", "base1-4-en"]);
    expect(ids("-(-pikachu)")).toEqual(["sv1-25-en", "swshp-tg01-en"]);
  });

  it("- and ! combine", () => {
    expect(ids("charizard -!name:charizard")).toEqual(["sv3-6-en", "sv3-6-ja"]);
  });

  it("a hyphen inside a value is literal", () => {
    expect(ids("id:sv3-6-ja")).toEqual(["sv3-6-ja"]);
  });
});

describe("q grammar: wildcards", () => {
  it("* matches any run of characters inside a substring match", () => {
    expect(ids("name:char*ex")).toEqual(["sv3-6-en", "sv3-6-ja"]);
    expect(ids("ch*z*d")).toEqual(["sv3-6-en", "sv3-6-ja", "base1-4-en"]);
  });

  it("with ! the whole value must match the pattern", () => {
    expect(ids("!name:pika*")).toEqual(["sv1-25-en", "swshp-tg01-en"]);
    expect(ids("!name:pi*u")).toEqual(["sv1-25-en"]);
    expect(ids("!name:char*d")).toEqual(["base1-4-en"]);
    expect(ids("!name:ch*ar*d")).toEqual(["base1-4-en"]);
    expect(ids("!name:cha*ard")).toEqual(["base1-4-en"]);
    expect(ids("!name:chari*ard")).toEqual(["base1-4-en"]);
    expect(ids("!name:charizar*ard")).toEqual([]); // segments may not overlap
  });

  it("up to 3 wildcards and 2 literal characters are accepted", () => {
    expect(ids("name:c*h*a*d")).toEqual(["sv3-6-en", "sv3-6-ja", "base1-4-en"]);
    expect(ids("name:ch*")).toEqual(["sv1-25-en", "sv3-6-en", "sv3-6-ja", "base1-4-en", "swshp-tg01-en"]);
    expect(ids("name:cha*")).toEqual(["sv3-6-en", "sv3-6-ja", "base1-4-en"]);
  });

  it("wildcards apply to array fields", () => {
    expect(ids("attacks.name:bur*ness")).toEqual(["sv3-6-en"]);
  });
});

describe("q grammar: array and nested fields", () => {
  it("array fields match when any element matches", () => {
    expect(ids("types:fire")).toEqual(["sv3-6-en", "base1-4-en"]);
    expect(ids("subtypes:ex")).toEqual(["sv3-6-en"]);
    expect(ids("!subtypes:v")).toEqual(["swshp-tg01-en"]);
    expect(ids("subtypes:basic")).toEqual(["sv1-25-en", "swshp-tg01-en"]);
    expect(ids("subtypes:stage")).toEqual(["sv3-6-en"]);
  });

  it("attacks, abilities, weaknesses sub-fields", () => {
    expect(ids("attacks.name:thunder")).toEqual(["sv1-25-en"]);
    expect(ids("attacks.text:coin")).toEqual(["sv1-25-en"]);
    expect(ids("attacks.damage:180")).toEqual(["sv3-6-en"]);
    expect(ids("abilities.name:reign")).toEqual(["sv3-6-en"]);
    expect(ids("abilities.text:energy")).toEqual(["sv3-6-en"]);
    expect(ids("weaknesses.type:water")).toEqual(["sv3-6-en"]);
    expect(ids("resistances.type:water")).toEqual([]);
  });

  it("expansion sub-fields", () => {
    expect(ids("expansion.id:sv3")).toEqual(["sv3-6-en", "sv3-6-ja"]);
    expect(ids("expansion.name:obsidian")).toEqual(["sv3-6-en", "sv3-6-ja"]);
    expect(ids("expansion.series:base")).toEqual(["base1-4-en"]);
    expect(ids("supertype:pok")).toEqual(["sv1-25-en"]);
  });

  it("language matches the language code exactly", () => {
    expect(ids("language:ja")).toEqual(["sv3-6-ja"]);
    expect(ids("language:JA")).toEqual(["sv3-6-ja"]);
    expect(ids("language:j")).toEqual([]);
    expect(ids("-language:en")).toEqual(["sv3-6-ja"]);
  });
});

describe("q grammar: numbers, booleans, dates", () => {
  it("numeric equality (hp is a wire string, compared as a number)", () => {
    expect(ids("hp:60")).toEqual(["sv1-25-en"]);
    expect(ids("hp:060")).toEqual(["sv1-25-en"]);
    expect(ids("hp:6")).toEqual([]);
    expect(ids("raw_price:45")).toEqual(["sv3-6-en"]);
    expect(ids("raw_price:1.5")).toEqual(["sv1-25-en"]);
  });

  it("inclusive and exclusive numeric ranges with open ends", () => {
    expect(ids("hp:[60 TO 120]")).toEqual(["sv1-25-en", "base1-4-en"]);
    expect(ids("hp:{60 TO 330}")).toEqual(["base1-4-en", "swshp-tg01-en"]);
    expect(ids("hp:[60 TO 330}")).toEqual(["sv1-25-en", "base1-4-en", "swshp-tg01-en"]);
    expect(ids("hp:[200 TO *]")).toEqual(["sv3-6-en", "sv3-6-ja"]);
    expect(ids("hp:{* TO 120}")).toEqual(["sv1-25-en"]);
  });

  it("records without a value never match a range (even an open one)", () => {
    expect(ids("raw_price:[* TO 10]")).toEqual(["sv1-25-en"]);
    expect(ids("raw_price:[* TO *]")).toEqual(["sv1-25-en", "sv3-6-en", "sv3-6-ja"]);
    expect(ids("-raw_price:[* TO *]")).toEqual(["base1-4-en", "swshp-tg01-en"]);
  });

  it("market_price is an alias of raw_price", () => {
    expect(ids("market_price:[30 TO 45]")).toEqual(ids("raw_price:[30 TO 45]"));
    expect(ids("market_price:[30 TO 45]")).toEqual(["sv3-6-en", "sv3-6-ja"]);
  });

  it("booleans accept true/false case-insensitively", () => {
    expect(ids("is_holo:true")).toEqual(["sv3-6-en", "base1-4-en"]);
    expect(ids("is_holo:FALSE")).toEqual(["sv1-25-en", "sv3-6-ja", "swshp-tg01-en"]);
    expect(ids("is_first_edition:true")).toEqual(["base1-4-en"]);
    expect(ids("is_variant:true")).toEqual([]);
    expect(ids("is_reverse:false")).toHaveLength(5);
  });

  it("date ranges accept YYYY/MM/DD and YYYY-MM-DD, inclusive and exclusive", () => {
    expect(ids("expansion.release_date:[2023/01/01 TO 2023-12-31]")).toEqual(["sv1-25-en", "sv3-6-en", "sv3-6-ja"]);
    expect(ids("expansion.release_date:[2023/04/01 TO 2023-12-31]")).toEqual(["sv3-6-en", "sv3-6-ja"]);
    expect(ids("expansion.release_date:[2023-08-11 TO *]")).toEqual(["sv3-6-en", "sv3-6-ja"]);
    expect(ids("expansion.release_date:{2023-08-11 TO *]")).toEqual([]);
    expect(ids("expansion.release_date:{* TO 2023/08/11}")).toEqual(["sv1-25-en", "base1-4-en"]);
    expect(ids("expansion.release_date:[* TO 2023/03/31]")).toEqual(["sv1-25-en", "base1-4-en"]);
  });

  it("a plain date is a day match; a partial YYYY or YYYY/MM covers the whole span", () => {
    expect(ids("expansion.release_date:2023/03/31")).toEqual(["sv1-25-en"]);
    expect(ids("expansion.release_date:2023-03-31")).toEqual(["sv1-25-en"]);
    expect(ids("expansion.release_date:1999")).toEqual(["base1-4-en"]);
    expect(ids("expansion.release_date:2023-08")).toEqual(["sv3-6-en", "sv3-6-ja"]);
    expect(ids("expansion.release_date:[2023 TO 2023]")).toEqual(["sv1-25-en", "sv3-6-en", "sv3-6-ja"]);
    expect(ids("expansion.release_date:{1999 TO 2024}")).toEqual(["sv1-25-en", "sv3-6-en", "sv3-6-ja"]);
  });
});

describe("q grammar: per-game card fields", () => {
  const op = [
    card(
      {
        id: "OP01-001",
        name: "Roronoa Zoro",
        number: "001",
        type: "Leader",
        cost: "0",
        power: "5000",
        life: "5",
        colors: ["Red"],
        attribute: "Slash",
      },
      { game: "onepiece" },
    ),
    card(
      {
        id: "OP01-016",
        name: "Nami",
        number: "016",
        type: "Character",
        cost: "1",
        power: "2000",
        counter: "1000",
        colors: ["Red", "Green"],
        attribute: "Special",
      },
      { game: "onepiece" },
    ),
    card(
      { id: "OP01-029", name: "Radical Beam!!", number: "029", type: "Event", cost: "1", colors: ["Green"] },
      { game: "onepiece" },
    ),
  ];
  const op_ids = (q: string): string[] => ids(q, op, "onepiece");

  it("One Piece fields", () => {
    expect(op_ids("type:leader")).toEqual(["OP01-001"]);
    expect(op_ids("cost:1")).toEqual(["OP01-016", "OP01-029"]);
    expect(op_ids("power:[2000 TO *]")).toEqual(["OP01-001", "OP01-016"]);
    expect(op_ids("counter:1000")).toEqual(["OP01-016"]);
    expect(op_ids("life:[1 TO 5]")).toEqual(["OP01-001"]);
    expect(op_ids("colors:green")).toEqual(["OP01-016", "OP01-029"]);
    expect(op_ids("attribute:slash")).toEqual(["OP01-001"]);
    expect(op_ids("beam!!")).toEqual(["OP01-029"]);
  });

  it("azuki has the common fields", () => {
    const az = [card({ id: "az-1", name: "Spirit Blade", rarity: "Legendary" }, { game: "azuki" })];
    expect(ids("rarity:legend spirit", az, "azuki")).toEqual(["az-1"]);
  });
});

describe("cached lower-casing", () => {
  it("sees a replaced value on the same record", () => {
    const rec = card({ id: "m-1", name: "Mew", attacks: [{ name: "Psychic", cost: [], converted_energy_cost: 1 }] });
    expect(ids("mew attacks.name:psychic", [rec])).toEqual(["m-1"]);
    rec.card.name = "Mewtwo";
    rec.card.attacks = [{ name: "Psystrike", cost: [], converted_energy_cost: 3 }];
    expect(ids("!name:mew", [rec])).toEqual([]);
    expect(ids("!name:mewtwo attacks.name:psystrike", [rec])).toEqual(["m-1"]);
    expect(
      compileOrderBy("name", "cards", "pokemon")
        .sort([rec, card({ id: "a-1", name: "Mewt" })])
        .map((r) => r.card.id),
    ).toEqual(["a-1", "m-1"]);
  });
});

describe("q on expansions", () => {
  const EXP: ExpansionRecord[] = [
    expansionRecord(
      { id: "sv1", name: "Scarlet & Violet", release_date: "2023/03/31" },
      { series_id: "sv", card_count: { total: 258, official: 198 } },
    ),
    expansionRecord(
      { id: "sv3", name: "Obsidian Flames", release_date: "2023/08/11" },
      { series_id: "sv", card_count: { total: 230, official: 197 } },
    ),
    expansionRecord(
      { id: "base1", name: "Base", release_date: "1999/01/09" },
      { series_id: "base", card_count: { total: 102, official: 102 } },
    ),
    expansionRecord(
      { id: "sv1-ja", name: "Scarlet ex", language_code: "ja", release_date: "2023/01/20" },
      { series_id: "sv", card_count: { total: 108, official: 78 } },
    ),
  ];
  const eids = (q: string): string[] =>
    EXP.filter(compileQuery(q, "expansions", "pokemon").match).map((e) => e.expansion.id);

  it("supports name, id, series_id, language, release_date and card_count", () => {
    expect(eids("scarlet")).toEqual(["sv1", "sv1-ja"]);
    expect(eids("!id:sv1")).toEqual(["sv1"]);
    expect(eids("series_id:base")).toEqual(["base1"]);
    expect(eids("language:ja")).toEqual(["sv1-ja"]);
    expect(eids("release_date:[2023/02/01 TO *]")).toEqual(["sv1", "sv3"]);
    expect(eids("card_count.total:{200 TO *]")).toEqual(["sv1", "sv3"]);
    expect(eids("card_count.official:102")).toEqual(["base1"]);
  });
});

describe("q on sealed", () => {
  const SEALED: SealedRecord[] = [
    sealed(
      { id: "s1", name: "Obsidian Flames Booster Box", product_type: "booster_box", expansion: obf },
      { pricing: { currency: "USD", market: 110, is_on_sale: true } },
    ),
    sealed(
      {
        id: "s2",
        name: "Obsidian Flames Elite Trainer Box",
        product_type: "elite_trainer_box",
        expansion: obf,
        release_date: "2023/08/11",
      },
      { pricing: { currency: "USD", market: null, is_on_sale: false } },
    ),
    sealed({ id: "s3", name: "Azuki Starter", product_type: "other", msrp: 19.99, expansion: sv1 }, {}, "azuki"),
  ];
  const sids = (q: string): string[] =>
    SEALED.filter(compileQuery(q, "sealed", "pokemon").match).map((s) => s.product.id);

  it("product_type matches the closed vocabulary exactly", () => {
    expect(sids("product_type:booster_box")).toEqual(["s1"]);
    expect(sids("product_type:ELITE_TRAINER_BOX")).toEqual(["s2"]);
  });

  it("price is market, falling back to msrp", () => {
    expect(sids("price:[* TO 50]")).toEqual(["s3"]);
    expect(sids("price:[100 TO 200]")).toEqual(["s1"]);
    expect(sids("price:19.99")).toEqual(["s3"]);
  });

  it("is_on_sale (no pricing = not on sale), names and expansion fields", () => {
    expect(sids("is_on_sale:true")).toEqual(["s1"]);
    expect(sids("is_on_sale:false")).toEqual(["s2", "s3"]);
    expect(sids("elite box")).toEqual(["s2"]);
    expect(sids("expansion.id:sv3")).toEqual(["s1", "s2"]);
    expect(sids("expansion.name:scarlet")).toEqual(["s3"]);
    expect(sids("expansion.release_date:2023/08")).toEqual(["s1", "s2"]);
    expect(sids("language:en id:s")).toEqual(["s1", "s2", "s3"]);
  });
});

describe("language pinning", () => {
  const pins = (q: string, resource: "cards" | "expansions" | "sealed" = "cards"): boolean =>
    compileQuery(q, resource, "pokemon").pinsLanguage;

  it("a positive language:, id: or expansion.id: term pins the language", () => {
    expect(pins("language:ja")).toBe(true);
    expect(pins("id:sv1-1")).toBe(true);
    expect(pins("pikachu expansion.id:sv1")).toBe(true);
    expect(pins("pikachu OR (hp:60 !id:sv1-1)")).toBe(true);
    expect(pins("-(-language:ja)")).toBe(true);
    expect(pins("id:sv1", "expansions")).toBe(true);
  });

  it("negated or other terms do not", () => {
    expect(pins("pikachu")).toBe(false);
    expect(pins("-language:ja")).toBe(false);
    expect(pins("-(pikachu id:x)")).toBe(false);
    expect(pins("expansion.name:sv1")).toBe(false);
    expect(pins("")).toBe(false);
    expect(pinsLanguage(null)).toBe(false);
  });
});

describe("parseQuery AST", () => {
  it("records positions of fields and values", () => {
    const ast = parseQuery('-!name:"a b" hp:[1 TO 2}');
    expect(ast).toMatchObject({
      kind: "and",
      children: [
        {
          kind: "not",
          position: 0,
          child: {
            kind: "term",
            field: "name",
            fieldPosition: 2,
            exact: true,
            position: 1,
            value: { kind: "text", text: "a b", quoted: true, position: 7 },
          },
        },
        {
          kind: "term",
          field: "hp",
          value: {
            kind: "range",
            position: 16,
            lowerInclusive: true,
            upperInclusive: false,
            lower: { text: "1", position: 17 },
            upper: { text: "2", position: 22 },
          },
        },
      ],
    });
  });
});
