import { badRequest } from "./errors.ts";

// Offset pagination (docs/reference/api-rules.md “Other limits”): `limit`/`offset` are read like a
// leading-integer parse and clamped; a value with no integer at all is 400
// invalid_pagination. Card Data's live `page`/`page_size` are strict instead
// (out of range is 400, never clamped) and are accepted beside them.

export { MAX_ID_ARRAY, MAX_OFFSET, MAX_PAGE_SIZE, leadingInt, offsetPageQuery } from "../../contract/index.ts";
import { MAX_ID_ARRAY } from "../../contract/index.ts";

export interface OffsetPage {
  limit: number;
  offset: number;
}

export function paginate<T>(
  rows: readonly T[],
  p: OffsetPage,
): { items: T[]; pagination: { limit: number; offset: number; has_more: boolean } } {
  const items = rows.slice(p.offset, p.offset + p.limit);
  return { items, pagination: { limit: p.limit, offset: p.offset, has_more: p.offset + items.length < rows.length } };
}

/** Id arrays over 500 entries are 400 invalid_pagination (docs/reference/api-rules.md “Error codes”). */
export function checkIdArray(ids: readonly unknown[], name = "ids"): void {
  if (ids.length > MAX_ID_ARRAY)
    throw badRequest("invalid_pagination", `${name} has ${ids.length} entries; at most ${MAX_ID_ARRAY} are allowed`);
}
