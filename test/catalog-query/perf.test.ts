import { describe, expect, it } from "vitest";
import type { CardRecord } from "../../emulator/areas/catalog/model.ts";
import { compileOrderBy, compileQuery } from "../../emulator/areas/catalog/query/index.ts";
import { card, expansion, priced } from "./records.ts";

const NAMES = ["Pikachu", "Charizard ex", "Bulbasaur", "Mewtwo V", "Eevee", "Gengar VMAX", "Snorlax", "Lucario", "Gardevoir ex", "Rayquaza"];
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

describe("performance over 40,000 records", () => {
  const records = bigCatalog(40_000);
  const queries = [
    "pikachu",
    "name:char*ex rarity:rare",
    "(pikachu OR charizard) -language:ja hp:[60 TO 200]",
    "types:fire attacks.name:attack is_holo:true",
    "expansion.release_date:[2005/01/01 TO 2015-12-31] raw_price:{10 TO *]",
  ];

  it("a compiled search takes a few milliseconds once strings are cached", () => {
    for (const q of queries) records.filter(compileQuery(q, "cards", "pokemon").match); // warm caches / JIT
    const timings: number[] = [];
    for (const q of queries) {
      const start = performance.now();
      const hits = records.filter(compileQuery(q, "cards", "pokemon").match);
      timings.push(performance.now() - start);
      expect(hits.length).toBeGreaterThan(0);
    }
    // Generous bound so CI noise does not flake; typical is ~1–5 ms per query.
    expect(Math.max(...timings)).toBeLessThan(50);
  });

  it("sorting 40,000 records is fast", () => {
    const sorter = compileOrderBy("-raw_price,name", "cards", "pokemon");
    sorter.sort(records);
    const start = performance.now();
    const sorted = sorter.sort(records);
    const elapsed = performance.now() - start;
    expect(sorted).toHaveLength(40_000);
    const firstMissing = sorted.findIndex((r) => r.pricing?.market == null);
    expect(sorted.slice(firstMissing).every((r) => r.pricing?.market == null)).toBe(true);
    expect(elapsed).toBeLessThan(400);
  });

  it("a first page does not need a full sort", () => {
    const sorter = compileOrderBy(undefined, "cards", "pokemon");
    const full = sorter.sort(records);
    sorter.page(records, 0, 20);
    const start = performance.now();
    const page = sorter.page(records, 20, 20);
    const elapsed = performance.now() - start;
    expect(page).toEqual(full.slice(20, 40));
    expect(elapsed).toBeLessThan(200);
  });
});
