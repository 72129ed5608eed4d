// Parsers for the non-`q` Card Data query parameters (README "Card Data catalog").
import type { Card, Expansion, LanguageCode, SealedProduct, SealedProductType } from "../../../catalog-data/model.ts";
import { LANGUAGES, SEALED_PRODUCT_TYPES } from "../../../catalog-data/model.ts";
import { QueryError, invalidValue } from "./errors.ts";
import type { Resource } from "./fields.ts";
import { closest } from "./text.ts";

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
} as const satisfies Record<keyof Card, true>;

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
} as const satisfies Record<keyof SealedProduct, true>;

/** Top-level wire field names `select` accepts per resource. */
export const SELECTABLE_FIELDS: Readonly<Record<Resource, readonly string[]>> = {
  cards: [...Object.keys(CARD_KEYS), "pricing"],
  expansions: Object.keys(EXPANSION_KEYS),
  sealed: [...Object.keys(SEALED_KEYS), "pricing"],
};

/**
 * `select`: comma list of top-level wire fields. Returns the fields to keep
 * (`id` first and always present), or null when select is absent or blank.
 * Field names are case-sensitive. Unknown → invalid_select.
 */
export function parseSelect(value: string | undefined, resource: Resource): readonly string[] | null {
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

/**
 * Keeps only the selected top-level keys (in the object's own key order);
 * `id` is always kept. `fields === null` returns the object unchanged.
 */
export function applySelect<T extends { id: string }>(
  obj: T,
  fields: readonly string[] | null,
): Partial<T> & Pick<T, "id"> {
  if (fields === null) return obj;
  const keep = new Set(fields);
  keep.add("id");
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) if (keep.has(k)) out[k] = v;
  return out as Partial<T> & Pick<T, "id">;
}

// --- include ------------------------------------------------------------------

export interface IncludeOptions {
  prices: boolean;
}

/**
 * `include`: comma list where only `prices` is valid (cards, sealed); blank is
 * fine. Expansions accept no include: any non-blank value → invalid_include.
 */
export function parseInclude(value: string | undefined, resource: Resource): IncludeOptions {
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
export function parseDistinct(value: string | undefined, resource: Resource = "cards"): "code" | null {
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

/**
 * The language filter a list route applies: an explicit `language` wins; else
 * none when q pins the language or the route has no default; else the default.
 */
export function effectiveLanguages(
  value: string | undefined,
  opts: { pinned: boolean; defaultLanguage: LanguageCode | null },
): ReadonlySet<LanguageCode> | null {
  return languageScope(parseLanguage(value), opts);
}

/** effectiveLanguages for an already parsed `language` (parseLanguage's result). */
export function languageScope(
  parsed: ReadonlySet<LanguageCode> | null | undefined,
  opts: { pinned: boolean; defaultLanguage: LanguageCode | null },
): ReadonlySet<LanguageCode> | null {
  if (parsed !== undefined) return parsed;
  if (opts.pinned || opts.defaultLanguage === null) return null;
  return new Set([opts.defaultLanguage]);
}

/** Whether `code` passes a language filter (null = all). */
export function languageAllowed(filter: ReadonlySet<LanguageCode> | null, code: LanguageCode): boolean {
  return filter === null || filter.has(code);
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
