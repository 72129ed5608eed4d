import { CatalogIndex } from "./catalog-index.ts";
import type { Catalog } from "./model.ts";

// The seeded catalog and its index depend only on (seed, size) and are never written after they are
// built (catalog reads never touch the store: docs/decisions.md), so emulators of one process share
// them: a second createEmulator() of the same seed and size reuses the first one's instead of running
// faker again (issue 38 goal 2). Per-emulator data (the store, keys, credits) is still built per
// emulator. Bounded: the few most recently used pairs are kept (a large catalog is ~40k cards).

const KEPT = 4;
const shared = new Map<string, CatalogIndex>();

/** The index of the (seed, size) catalog, built by `build` the first time and shared afterwards. */
export function sharedCatalogIndex(seed: number, size: string, build: () => Catalog): CatalogIndex {
  const key = `${seed}:${size}`;
  let index = shared.get(key);
  if (index) shared.delete(key);
  else index = new CatalogIndex(build());
  shared.set(key, index); // most recently used last
  while (shared.size > KEPT) shared.delete(shared.keys().next().value!);
  return index;
}

/** Whether this process holds the (seed, size) catalog already (tests: a start builds none). */
export function catalogHeld(seed: number, size: string): boolean {
  return shared.has(`${seed}:${size}`);
}
