// Shared, memoized catalog builds for the fixture tests (one per worker).

import type { Catalog, CardRecord } from "../../emulator/catalog-data/model.ts";
import { buildCatalog } from "../../fixtures/catalog/index.ts";

const cache = new Map<string, { catalog: Catalog; ms: number }>();

export function timedBuild(seed: number, size: "default" | "large"): { catalog: Catalog; ms: number } {
  const key = `${seed}:${size}`;
  let hit = cache.get(key);
  if (!hit) {
    const start = performance.now();
    const catalog = buildCatalog({ seed, size });
    hit = { catalog, ms: performance.now() - start };
    cache.set(key, hit);
  }
  return hit;
}

export function catalogFor(seed: number, size: "default" | "large"): Catalog {
  return timedBuild(seed, size).catalog;
}

export function cardIndex(catalog: Catalog): Map<string, CardRecord> {
  return new Map(catalog.cards.map((c) => [c.card.id, c]));
}

/** Paths of every undefined value / non-JSON value inside `value`. */
export function nonJsonPaths(value: unknown, path = "$", out: string[] = []): string[] {
  if (value === undefined || typeof value === "function" || typeof value === "symbol" || typeof value === "bigint") {
    out.push(path);
  } else if (typeof value === "number" && !Number.isFinite(value)) {
    out.push(path);
  } else if (Array.isArray(value)) {
    value.forEach((v, i) => nonJsonPaths(v, `${path}[${i}]`, out));
  } else if (value !== null && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) nonJsonPaths(v, `${path}.${k}`, out);
  }
  return out;
}
