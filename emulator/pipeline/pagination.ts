import { withCode, z } from "./schema.ts";
import { badRequest } from "./errors.ts";

// Offset pagination (interface "Limits"): `limit`/`offset` are read like a
// leading-integer parse and clamped; a value with no integer at all is 400
// invalid_pagination. Card Data's live `page`/`page_size` are strict instead
// (out of range is 400, never clamped) and are accepted beside them.

export const MAX_PAGE_SIZE = 100;
export const MAX_OFFSET = 10_000;
export const MAX_ID_ARRAY = 500;

export interface OffsetPage {
  limit: number;
  offset: number;
}

/** `"20abc"` → 20, `" 7"` → 7, `"-3"` → -3, `"abc"` → null. */
export function leadingInt(raw: string): number | null {
  const m = /^\s*([+-]?\d+)/.exec(raw);
  return m ? Number.parseInt(m[1], 10) : null;
}

const clamp = (n: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, n));

export interface CatalogPage extends OffsetPage {
  page: number;
  page_size: number;
}

export function paginate<T>(rows: readonly T[], p: OffsetPage): { items: T[]; pagination: { limit: number; offset: number; has_more: boolean } } {
  const items = rows.slice(p.offset, p.offset + p.limit);
  return { items, pagination: { limit: p.limit, offset: p.offset, has_more: p.offset + items.length < rows.length } };
}

/** Id arrays over 500 entries are 400 invalid_pagination (interface "Codes"). */
export function checkIdArray(ids: readonly unknown[], name = "ids"): void {
  if (ids.length > MAX_ID_ARRAY)
    throw badRequest("invalid_pagination", `${name} has ${ids.length} entries; at most ${MAX_ID_ARRAY} are allowed`);
}

/** One loose integer of offset paging, for a route schema: leading-integer parse, clamped; 400 invalid_pagination without one. */
function looseInt(fallback: number, lo: number, hi: number) {
  return withCode(
    z
      .string()
      .refine((raw) => leadingInt(raw) !== null, "must be an integer")
      .optional()
      .transform((raw) => clamp(raw === undefined ? fallback : leadingInt(raw)!, lo, hi)),
    "invalid_pagination",
  );
}

/** The `limit`/`offset` query fields of an offset-paged list, parsed to numbers (the interface's rules). */
export const offsetPageQuery = (defaultLimit = 50) => ({
  limit: looseInt(defaultLimit, 1, MAX_PAGE_SIZE),
  offset: looseInt(0, 0, MAX_OFFSET),
});

/** `pagination` of a list answer. */
export const paginationSchema = z.object({ limit: z.number().int(), offset: z.number().int(), has_more: z.boolean(), next_offset: z.number().int().optional() });
