import { describe, expect, it } from "vitest";
import type { CardRecord } from "../../emulator/catalog-data/model.ts";
import { compileOrderBy, compileQuery } from "../../emulator/areas/catalog/query/index.ts";
import { card, expansion, priced } from "./records.ts";

const NAMES = [
  "Pikachu",
  "Charizard ex",
  "Bulbasaur",
  "Mewtwo V",
  "Eevee",
  "Gengar VMAX",
  "Snorlax",
  "Lucario",
  "Gardevoir ex",
  "Rayquaza",
];
const RARITIES = ["Common", "Uncommon", "Rare", "Rare Holo", "Double Rare", undefined];

function bigCatalog(n: number): CardRecord[] {
  const sets = Array.from({ length: 200 }, (_, i) =>
    expansion({ id: `set${i}`, name: `Set ${i}`, release_date: `${1999 + (i % 25)}/0${1 + (i % 9)}/1${i % 10}` }),
  );
  return Array.from({ length: n }, (_, i) =>
    card(
      {
        id: `set${i % 200}-${i}`,
        name: `${NAMES[i % NAMES.length]} ${i % 7 === 0 ? "Promo" : ""}`.trim(),
        number: String(1 + (i % 250)),
        rarity: RARITIES[i % RARITIES.length],
        expansion: sets[i % 200],
        hp: String(30 + (i % 30) * 10),
        types: [i % 2 ? "Fire" : "Water"],
        attacks: [{ name: `Attack ${i % 50}`, cost: [], converted_energy_cost: 1, damage: String(i % 200) }],
      },
      { ...priced(i % 5 === 0 ? null : (i % 1000) / 10), is_holo: i % 3 === 0 },
    ),
  );
}

// Behaviour at the live catalog's size; the timings themselves live in bench/query.ts.
describe("over 40,000 records", () => {
  const records = bigCatalog(40_000);
  const queries = [
    "pikachu",
    "name:char*ex rarity:rare",
    "(pikachu OR charizard) -language:ja hp:[60 TO 200]",
    "types:fire attacks.name:attack is_holo:true",
    "expansion.release_date:[2005/01/01 TO 2015-12-31] raw_price:{10 TO *]",
  ];

  it("every query finds rows, and gives the same rows once the string caches are warm", () => {
    for (const q of queries) {
      const cold = records.filter(compileQuery(q, "cards", "pokemon").match);
      const warm = records.filter(compileQuery(q, "cards", "pokemon").match);
      expect(cold.length).toBeGreaterThan(0);
      expect(warm).toEqual(cold);
    }
  });

  it("sorts 40,000 records with missing values last", () => {
    const sorter = compileOrderBy("-raw_price,name", "cards", "pokemon");
    const sorted = sorter.sort(records);
    expect(sorted).toHaveLength(40_000);
    const firstMissing = sorted.findIndex((r) => r.pricing?.market == null);
    expect(sorted.slice(firstMissing).every((r) => r.pricing?.market == null)).toBe(true);
  });

  it("a page without a full sort equals the same slice of the full sort", () => {
    const sorter = compileOrderBy(undefined, "cards", "pokemon");
    const full = sorter.sort(records);
    expect(sorter.page(records, 0, 20)).toEqual(full.slice(0, 20));
    expect(sorter.page(records, 20, 20)).toEqual(full.slice(20, 40));
  });
});
