import type { CatalogIndex } from "../../catalog-data/catalog-index.ts";
import type { Game } from "../../catalog-data/model.ts";
import { IMAGE_HOST } from "../../../fixtures/catalog/util.ts";
import { renderPng } from "./png.ts";

// The fixture image host (https://images.emulator.test), resolved WITHOUT
// network: every image the catalog's records point at is rendered on demand,
// deterministically. Also served at /_emulator/images/<same path> so users can
// download an image and upload it. A few `_fixtures/...` paths exist to make
// the vision error paths reachable through image_url.

export const FIXTURE_HOST = new URL(IMAGE_HOST).host;
export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;

const GAMES: readonly Game[] = ["pokemon", "onepiece", "azuki"];
const SIZES = { small: [63, 88], large: [126, 176] } as const;

export type FixtureImage =
  | { kind: "card"; game: Game; id: string; size: "small" | "large"; path: string }
  | { kind: "other"; path: string; width: number; height: number; padding?: number }
  | { kind: "raw"; path: string; bytes: Buffer; contentType: string };

/** Test fixtures on the host: an oversized PNG, bytes that are not an image, a truncated PNG. */
const SPECIAL: Record<string, () => FixtureImage> = {
  "_fixtures/oversized.png": () => ({
    kind: "other",
    path: "_fixtures/oversized",
    width: 8,
    height: 8,
    padding: MAX_IMAGE_BYTES + 1024,
  }),
  "_fixtures/not-an-image.png": () => ({
    kind: "raw",
    path: "_fixtures/not-an-image.png",
    bytes: Buffer.from("this is plain text, not an image\n"),
    contentType: "image/png",
  }),
  "_fixtures/truncated.png": () => {
    const full = renderPng({ width: 16, height: 16, path: "_fixtures/truncated" });
    return { kind: "raw", path: "_fixtures/truncated.png", bytes: full.subarray(0, 40), contentType: "image/png" };
  },
  "_fixtures/blank.png": () => ({ kind: "other", path: "_fixtures/blank", width: 32, height: 32 }),
};

/** Resolves a path on the fixture host (no leading slash) to an image, or null (a 404 there). */
export function resolveFixture(catalog: CatalogIndex, rawPath: string): FixtureImage | null {
  let path: string;
  try {
    path = decodeURIComponent(rawPath.replace(/^\/+/, ""));
  } catch {
    return null; // a malformed %-escape names no image: a 404 there, never a 500 here
  }
  if (SPECIAL[path]) return SPECIAL[path]!();
  const parts = path.split("/");
  const game = parts[0] as Game;
  if (!GAMES.includes(game)) return null;
  const [, a, b, c] = parts;
  if (parts.length === 3 && a && (b === "small.png" || b === "large.png")) {
    const rec = catalog.card(game, a);
    if (!rec) return null;
    const size = b === "small.png" ? "small" : "large";
    return { kind: "card", game, id: rec.card.id, size, path: `${game}/${rec.card.id}/${size}` };
  }
  if (parts.length === 4 && a === "sealed" && b && (c === "small.png" || c === "large.png")) {
    if (!catalog.sealedProduct(game, b)) return null;
    const [w, h] = SIZES[c === "small.png" ? "small" : "large"];
    return { kind: "other", path: `${game}/sealed/${b}/${c.slice(0, -4)}`, width: w, height: h };
  }
  if (parts.length === 4 && a === "sets" && b && (c === "logo.png" || c === "symbol.png")) {
    if (catalog.expansionCards(game, b).length === 0 && !catalog.expansion(game, b)) return null;
    return {
      kind: "other",
      path: `${game}/sets/${b}/${c.slice(0, -4)}`,
      width: c === "logo.png" ? 96 : 24,
      height: 24,
    };
  }
  return null;
}

const cache = new Map<string, Buffer>();

/** The image's bytes (memoised: the same path always renders the same bytes). */
export function fixtureBytes(img: FixtureImage): Buffer {
  if (img.kind === "raw") return img.bytes;
  if (img.kind === "other" && img.padding) return renderPng(img); // large: not cached
  let bytes = cache.get(img.path);
  if (!bytes) {
    const [w, h] = img.kind === "card" ? SIZES[img.size] : [img.width, img.height];
    bytes = renderPng({ width: w, height: h, path: img.path });
    if (cache.size > 5000) cache.clear();
    cache.set(img.path, bytes);
  }
  return bytes;
}

/** The card a marker path names ("pokemon/base1-4/large"), if it is a card image. */
export function cardOfMarker(catalog: CatalogIndex, marker: string): { game: Game; id: string } | null {
  const parts = marker.split("/");
  if (parts.length !== 3 || !GAMES.includes(parts[0] as Game) || !["small", "large"].includes(parts[2]!)) return null;
  const rec = catalog.card(parts[0] as Game, parts[1]!);
  return rec ? { game: rec.game, id: rec.card.id } : null;
}
