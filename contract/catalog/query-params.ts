// The Card Data parameter parsers (README "Card Data catalog"): each reads one query field as
// sent and throws its coded QueryError; contract/catalog/query.ts turns the throw into the
// field's issue, so the request schema is where these rules are enforced and documented.
import type { CardBase, Expansion, LanguageCode, SealedProductBase, SealedProductType } from "./shapes.ts";
import { LANGUAGES, SEALED_PRODUCT_TYPES } from "./shapes.ts";
import { QueryError, invalidValue } from "./query-errors.ts";
import { closest } from "./query-text.ts";

/** What a Card Data read searches or returns. */
export type CatalogResource = "cards" | "expansions" | "sealed";

interface ListItem {
  text: string;
  position: number;
}

/** Comma list → trimmed, non-empty items with their offsets. */
function splitList(value: string): ListItem[] {
  const out: ListItem[] = [];
  let start = 0;
  for (const part of value.split(",")) {
    const text = part.trim();
    if (text !== "") out.push({ text, position: start + (part.length - part.trimStart().length) });
    start += part.length + 1;
  }
  return out;
}

// --- select -------------------------------------------------------------------

const CARD_KEYS = {
  id: true,
  name: true,
  number: true,
  printed_number: true,
  code: true,
  images: true,
  expansion: true,
  language: true,
  language_code: true,
  tcgplayer_id: true,
  variants: true,
  rarity: true,
  artist: true,
  supertype: true,
  subtypes: true,
  types: true,
  hp: true,
  abilities: true,
  attacks: true,
  weaknesses: true,
  resistances: true,
  type: true,
  cost: true,
  power: true,
  attribute: true,
  colors: true,
  rules: true,
  block: true,
  counter: true,
  life: true,
  market_updated_at: true,
} as const satisfies Record<keyof CardBase, true>;

const EXPANSION_KEYS = {
  id: true,
  name: true,
  total: true,
  language: true,
  language_code: true,
  series: true,
  code: true,
  printed_total: true,
  release_date: true,
  logo: true,
  symbol: true,
  translation: true,
} as const satisfies Record<keyof Expansion, true>;

const SEALED_KEYS = {
  id: true,
  name: true,
  expansion: true,
  language: true,
  language_code: true,
  images: true,
  product_type: true,
  release_date: true,
  msrp: true,
  pack_count: true,
  cards_per_pack: true,
  tcgplayer_id: true,
} as const satisfies Record<keyof SealedProductBase, true>;

/** Top-level wire field names `select` accepts per resource. */
export const SELECTABLE_FIELDS: Readonly<Record<CatalogResource, readonly string[]>> = {
  cards: [...Object.keys(CARD_KEYS), "pricing"],
  expansions: Object.keys(EXPANSION_KEYS),
  sealed: [...Object.keys(SEALED_KEYS), "pricing"],
};

/**
 * `select`: comma list of top-level wire fields. Returns the fields to keep
 * (`id` first and always present), or null when select is absent or blank.
 * Field names are case-sensitive. Unknown → invalid_select.
 */
export function parseSelect(value: string | undefined, resource: CatalogResource): readonly string[] | null {
  if (value === undefined) return null;
  const items = splitList(value);
  if (items.length === 0) return null;
  const allowed = SELECTABLE_FIELDS[resource];
  const out = ["id"];
  for (const { text } of items) {
    if (!allowed.includes(text)) {
      const suggestion = closest(text, allowed);
      throw new QueryError(
        "invalid_select",
        `unknown select field "${text}" for ${resource}` +
          (suggestion !== undefined ? `; did you mean "${suggestion}"?` : ""),
      );
    }
    if (!out.includes(text)) out.push(text);
  }
  return out;
}

// --- include ------------------------------------------------------------------

export interface IncludeOptions {
  prices: boolean;
}

/**
 * `include`: comma list where only `prices` is valid (cards, sealed); blank is
 * fine. Expansions accept no include: any non-blank value → invalid_include.
 */
export function parseInclude(value: string | undefined, resource: CatalogResource): IncludeOptions {
  const items = value === undefined ? [] : splitList(value);
  if (items.length === 0) return { prices: false };
  if (resource === "expansions") throw new QueryError("invalid_include", "expansions do not support include");
  for (const { text } of items) {
    if (text !== "prices")
      throw new QueryError("invalid_include", `unknown include "${text}"; the only include is "prices"`);
  }
  return { prices: true };
}

// --- distinct -----------------------------------------------------------------

/** `distinct`: only `code`, cards only (resource defaults to cards); blank = none. Anything else → invalid_distinct. */
export function parseDistinct(value: string | undefined, resource: CatalogResource = "cards"): "code" | null {
  if (value === undefined || value.trim() === "") return null;
  if (resource !== "cards") throw new QueryError("invalid_distinct", `${resource} do not support distinct`);
  if (value.trim() !== "code")
    throw new QueryError("invalid_distinct", `unknown distinct "${value.trim()}"; the only value is "code"`);
  return "code";
}

// --- language -----------------------------------------------------------------

const LANGUAGE_BY_LOWER: ReadonlyMap<string, LanguageCode> = new Map(LANGUAGES.map((l) => [l.toLowerCase(), l]));

/**
 * `language`: comma list of codes from LANGUAGES (case-insensitive) or `all`.
 * Returns the allowed codes, or null for all languages. A code the game does
 * not print is valid (it just matches nothing). Unknown code → invalid_language.
 * Blank is treated like absent (returns undefined: the caller applies its default).
 */
export function parseLanguage(value: string | undefined): ReadonlySet<LanguageCode> | null | undefined {
  if (value === undefined) return undefined;
  const items = splitList(value);
  if (items.length === 0) return undefined;
  const out = new Set<LanguageCode>();
  let all = false;
  for (const { text } of items) {
    const lower = text.toLowerCase();
    if (lower === "all") {
      all = true;
      continue;
    }
    const code = LANGUAGE_BY_LOWER.get(lower);
    if (code === undefined) {
      throw new QueryError(
        "invalid_language",
        `unknown language "${text}"; expected all or a comma list of ${LANGUAGES.join(", ")}`,
      );
    }
    out.add(code);
  }
  return all ? null : out;
}

// --- sealed product_type shorthand --------------------------------------------

/**
 * Sealed `product_type` parameter: comma list from SEALED_PRODUCT_TYPES
 * (case-insensitive). Null when absent/blank. Unknown → invalid_value with the
 * offset into the parameter.
 */
export function parseProductTypes(value: string | undefined): ReadonlySet<SealedProductType> | null {
  if (value === undefined) return null;
  const items = splitList(value);
  if (items.length === 0) return null;
  const out = new Set<SealedProductType>();
  for (const { text, position } of items) {
    const lower = text.toLowerCase();
    const t = SEALED_PRODUCT_TYPES.find((p) => p === lower);
    if (t === undefined)
      throw invalidValue(
        `"${text}" is not a valid product_type; expected one of ${SEALED_PRODUCT_TYPES.join(", ")}`,
        position,
      );
    out.add(t);
  }
  return out;
}
