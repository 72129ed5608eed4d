import { existsSync, readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import type { Catalog } from "./model.ts";

// Where a seed's catalog comes from (docs/decisions.md "The default catalog is precomputed by the build"): the
// build writes the default seed's default-size catalog as gzipped JSON beside the compiled code
// (dist/fixtures/precomputed/); reading it (~25 ms) replaces loading the fixture generator with faker (~110 ms)
// and running it (~55 ms). Any other seed or size, and the sources (no build), generate it as before
// (emulator/index.ts loads the generator then).

type Size = "default" | "large";

/** The (seed, size) pairs the build precomputes: the defaults of `createEmulator()` and `npx emulator`. */
export const PRECOMPUTED: readonly { seed: number; size: Size }[] = [{ seed: 1, size: "default" }];

/** The file name of a precomputed catalog, in dist/fixtures/precomputed/. */
export const precomputedName = (seed: number, size: Size): string => `catalog-${seed}-${size}.json.gz`;

const DIR = new URL("../../fixtures/precomputed/", import.meta.url);

/** The build's precomputed (seed, size) catalog, or null when there is none (another pair, or the sources). */
export function precomputedCatalog(seed: number, size: Size): (() => Catalog) | null {
  if (!PRECOMPUTED.some((p) => p.seed === seed && p.size === size)) return null;
  const file = new URL(precomputedName(seed, size), DIR);
  if (!existsSync(file)) return null;
  return () => JSON.parse(gunzipSync(readFileSync(file)).toString("utf8")) as Catalog;
}
