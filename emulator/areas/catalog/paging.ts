import { badRequest } from "../../pipeline/errors.ts";
import { leadingInt, MAX_OFFSET, MAX_PAGE_SIZE } from "../../pipeline/pagination.ts";
import { z } from "../../pipeline/schema.ts";

// Card Data paging as route-schema fields: the interface's `limit`/`offset`
// (leading-integer parse, clamped; no integer at all is 400) and the live
// service's strict `page`/`page_size` (out of range is 400, never clamped).
// Each field throws its 400 invalid_pagination instead of recording a zod
// issue: every catalog query field does (see parse.ts), so the first wrong
// field in declaration order answers, as when the routes read them by hand.

export interface PageFields {
  page_size?: number;
  page?: number;
  limit?: number;
  offset?: number;
}

export interface CatalogPage {
  limit: number;
  offset: number;
  page: number;
  page_size: number;
}

const clamp = (n: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, n));

/** An optional paging integer read from its query string by `parse` (which throws the coded 400). */
function pagingInt(parse: (raw: string) => number) {
  return z
    .string()
    .optional()
    .transform((raw) => (raw === undefined ? undefined : parse(raw)));
}

function strictInt(name: string, lo: number, hi: number) {
  return pagingInt((raw) => {
    if (!/^\s*\d+\s*$/.test(raw)) throw badRequest("invalid_pagination", `${name} must be an integer`);
    const n = Number.parseInt(raw, 10);
    if (n < lo || n > hi) throw badRequest("invalid_pagination", `${name} must be between ${lo} and ${hi}`);
    return n;
  });
}

function looseInt(name: string, lo: number, hi: number) {
  return pagingInt((raw) => {
    const n = leadingInt(raw);
    if (n === null) throw badRequest("invalid_pagination", `${name} must be an integer (got "${raw.slice(0, 40)}")`);
    return clamp(n, lo, hi);
  });
}

/** The four paging fields of a Card Data list, in the order they are checked (the contract documents them). */
export const catalogPageQuery = () => ({
  page_size: strictInt("page_size", 1, MAX_PAGE_SIZE),
  page: strictInt("page", 1, MAX_OFFSET),
  limit: looseInt("limit", 1, MAX_PAGE_SIZE),
  offset: looseInt("offset", 0, MAX_OFFSET),
});

/**
 * The page in force. A route with a smaller server cap (`maxSize`, e.g. printings' 50;
 * also its default size) serves at most that many rows and reports the size in force, so page arithmetic
 * stays consistent. `page` counts only when `offset` is absent.
 */
export function catalogPage(q: PageFields, maxSize = MAX_PAGE_SIZE): CatalogPage {
  const size = Math.min(maxSize, q.limit ?? q.page_size ?? maxSize);
  if (q.page !== undefined && q.offset === undefined) {
    if (q.page * size > MAX_OFFSET)
      throw badRequest("invalid_pagination", `page × page_size must not exceed ${MAX_OFFSET}`);
    return { limit: size, offset: (q.page - 1) * size, page: q.page, page_size: size };
  }
  const offset = q.offset ?? 0;
  return { limit: size, offset, page: Math.floor(offset / size) + 1, page_size: size };
}
