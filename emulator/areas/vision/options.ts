import { badRequest } from "../../pipeline/errors.ts";
import { parsePart } from "../../pipeline/schema.ts";
import type { CatalogIndex } from "../../catalog-data/catalog-index.ts";
import type { Game } from "../../catalog-data/model.ts";
import { DEFAULT_LIMIT, GAMES, identifyOptionsSchema, type OptionsInput } from "../../../contract/index.ts";

// Identify options: their shapes and codes are declared once (schemas.ts);
// here the body's options win over the query's, the defaults apply, and the
// rule that needs the catalog (each expansion id exists, in the chosen game)
// runs, all before any image work.

export interface IdentifyOptions {
  game: Game | null;
  limit: number;
  include: { prices: boolean };
  expansion_ids: string[] | null;
}

/** Option values as sent in a body: JSON values, or strings from multipart fields. */
export type RawOptions = Partial<Record<keyof OptionsInput, unknown>>;

/** A body's options, checked by the options schema (400 with the field's own code). */
export const parseBodyOptions = (raw: RawOptions): OptionsInput => parsePart("body", identifyOptionsSchema, raw);

/** The options in force: each from the body when it gives it, else from the query. */
export function resolveOptions(body: OptionsInput, query: OptionsInput, catalog: CatalogIndex): IdentifyOptions {
  const game = body.game ?? query.game ?? null;
  const include = body.include ?? query.include ?? [];
  const expansions = body.expansion_ids ?? query.expansion_ids;
  return {
    game,
    limit: body.limit ?? query.limit ?? DEFAULT_LIMIT,
    include: { prices: include.includes("prices") },
    expansion_ids: expansions ? knownExpansions(expansions, game, catalog) : null,
  };
}

/** Raw body options alone (no query), checked and resolved. */
export const parseOptions = (raw: RawOptions, catalog: CatalogIndex): IdentifyOptions =>
  resolveOptions(parseBodyOptions(raw), {}, catalog);

function knownExpansions(ids: readonly string[], game: Game | null, catalog: CatalogIndex): string[] {
  const games = game ? [game] : GAMES;
  return ids.map((id) => {
    const known = games.some((g) => catalog.expansion(g, id) || catalog.expansionCards(g, id).length > 0);
    if (!known)
      throw badRequest(
        "invalid_expansion_ids",
        `expansion_ids names an unknown expansion ${JSON.stringify(id)}${game ? ` for ${game}` : ""}`,
      );
    return id.toLowerCase();
  });
}
