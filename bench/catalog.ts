/**
 * Catalog fixture build times (moved out of the tests, which assert sizes, not speed), beside the
 * cost of parsing the same catalog from JSON (what a pre-built snapshot would cost instead), interleaved.
 *
 *   npx tsx bench/catalog.ts [rounds=3]
 */
import { buildCatalog } from "../fixtures/catalog/index.ts";

const ROUNDS = Number(process.argv[2] ?? 3);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

for (const size of ["default", "large"] as const) {
  const build: number[] = [];
  const parse: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    let t0 = performance.now();
    const catalog = buildCatalog({ seed: 100 + i, size });
    build.push(performance.now() - t0);
    const json = JSON.stringify(catalog);
    t0 = performance.now();
    JSON.parse(json);
    parse.push(performance.now() - t0);
  }
  const fmt = (xs: number[]) => `median ${median(xs).toFixed(0)} ms [${xs.map((x) => x.toFixed(0)).join(", ")}]`;
  console.log(`catalog ${size}: build ${fmt(build)}; JSON.parse of the same catalog ${fmt(parse)}`);
}
