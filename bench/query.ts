/**
 * q grammar micro-benchmark over the large catalog: compile + filter per query,
 * a full sort, and a first page. Prints milliseconds.
 *
 *   npx tsx bench/query.ts
 */
import { buildCatalog } from "../fixtures/catalog/index.ts";
import { compileOrderBy, compileQuery } from "../emulator/areas/catalog/query/index.ts";

const records = buildCatalog({ seed: 1, size: "large" }).cards.filter((r) => r.game === "pokemon");
const time = (fn: () => unknown) => {
  const t0 = performance.now();
  fn();
  return performance.now() - t0;
};
console.log(`${records.length} Pokémon records`);
for (const q of [
  "pikachu",
  "name:char*ex rarity:rare",
  "(pikachu OR charizard) -language:ja hp:[60 TO 200]",
  "types:fire attacks.name:blast",
]) {
  const cold = time(() => records.filter(compileQuery(q, "cards", "pokemon").match));
  const warm = time(() => records.filter(compileQuery(q, "cards", "pokemon").match));
  console.log(`  q=${q.padEnd(52)} cold ${cold.toFixed(1)} ms  warm ${warm.toFixed(1)} ms`);
}
const sorter = compileOrderBy("-raw_price,name", "cards", "pokemon");
console.log(`  full sort -raw_price,name        ${time(() => sorter.sort(records)).toFixed(1)} ms`);
const byDefault = compileOrderBy(undefined, "cards", "pokemon");
console.log(`  first page, default order        ${time(() => byDefault.page(records, 0, 20)).toFixed(1)} ms`);
