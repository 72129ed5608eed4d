import { badRequest } from "../../pipeline/errors.ts";
import type { CatalogIndex } from "../../catalog-data/catalog-index.ts";
import type { Game } from "../../catalog-data/model.ts";

// Identify options, validated with their own codes before any image work.

export const GAMES: readonly Game[] = ["pokemon", "onepiece", "azuki"];
export const DEFAULT_LIMIT = 5;
export const MAX_LIMIT = 20;
export const INCLUDES = ["prices"] as const;
const MAX_EXPANSION_IDS = 100;

export interface IdentifyOptions {
  game: Game | null;
  limit: number;
  include: { prices: boolean };
  expansion_ids: string[] | null;
}

/** Raw option values as sent: JSON values, or strings from multipart fields / the query. */
export type RawOptions = Partial<Record<"game" | "limit" | "include" | "expansion_ids", unknown>>;

export function parseOptions(raw: RawOptions, catalog: CatalogIndex): IdentifyOptions {
  const game = parseGame(raw.game);
  return { game, limit: parseLimit(raw.limit), include: parseInclude(raw.include), expansion_ids: parseExpansionIds(raw.expansion_ids, game, catalog) };
}

function parseGame(v: unknown): Game | null {
  if (v === undefined || v === null || v === "") return null;
  if (typeof v !== "string" || !GAMES.includes(v.trim().toLowerCase() as Game))
    throw badRequest("invalid_game", `game must be one of ${GAMES.join(", ")}, got ${JSON.stringify(v)}`);
  return v.trim().toLowerCase() as Game;
}

function parseLimit(v: unknown): number {
  if (v === undefined || v === null || v === "") return DEFAULT_LIMIT;
  const n = typeof v === "number" ? v : typeof v === "string" && /^\s*\d+\s*$/.test(v) ? Number(v) : NaN;
  if (!Number.isInteger(n) || n < 1 || n > MAX_LIMIT)
    throw badRequest("invalid_limit", `limit must be an integer from 1 to ${MAX_LIMIT} (the number of candidates), got ${JSON.stringify(v)}`);
  return n;
}

function parseInclude(v: unknown): { prices: boolean } {
  if (v === undefined || v === null || v === "") return { prices: false };
  const items = Array.isArray(v) ? v : typeof v === "string" ? v.split(",") : null;
  const bad = () => badRequest("invalid_include", `include accepts ${INCLUDES.join(", ")} (comma-separated or an array), got ${JSON.stringify(v)}`);
  if (!items) throw bad();
  const names = items.map((i) => (typeof i === "string" ? i.trim() : ""));
  if (names.some((n) => !(INCLUDES as readonly string[]).includes(n))) throw bad();
  return { prices: names.includes("prices") };
}

function parseExpansionIds(v: unknown, game: Game | null, catalog: CatalogIndex): string[] | null {
  if (v === undefined || v === null) return null;
  const items = Array.isArray(v) ? v : typeof v === "string" ? v.split(",").map((s) => s.trim()).filter(Boolean) : null;
  const bad = (why: string) => badRequest("invalid_expansion_ids", `expansion_ids ${why}`);
  if (!items) throw bad("must be an array of expansion ids or a comma-separated string");
  if (items.length === 0) throw bad("must name at least one expansion");
  if (items.length > MAX_EXPANSION_IDS) throw bad(`accepts at most ${MAX_EXPANSION_IDS} ids, got ${items.length}`);
  const games = game ? [game] : GAMES;
  const out: string[] = [];
  for (const id of items) {
    if (typeof id !== "string" || id.trim() === "" || id.length > 255) throw bad(`must be non-empty strings of at most 255 characters, got ${JSON.stringify(id)}`);
    const known = games.some((g) => catalog.expansion(g, id) || catalog.expansionCards(g, id).length > 0);
    if (!known) throw bad(`names an unknown expansion ${JSON.stringify(id)}${game ? ` for ${game}` : ""}`);
    out.push(id.toLowerCase());
  }
  return out;
}
