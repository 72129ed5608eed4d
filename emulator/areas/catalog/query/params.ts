// Parameters of Card Data reads beyond their validation (README "Card Data catalog"): the parsers
// live in the contract (contract/catalog/query-params.ts) and are re-exported here for the query layer.
import type { LanguageCode } from "../../../catalog-data/model.ts";
import { parseLanguage } from "../../../../contract/catalog/query-params.ts";

export {
  SELECTABLE_FIELDS,
  parseDistinct,
  parseInclude,
  parseLanguage,
  parseProductTypes,
  parseSelect,
  type IncludeOptions,
} from "../../../../contract/catalog/query-params.ts";

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
