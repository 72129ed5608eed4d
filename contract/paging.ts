import { withCode, z } from "./zod.ts";

// Offset pagination on the wire (docs/reference: "Limits"): `limit`/`offset`
// are read like a leading-integer parse and clamped; a value with no integer at
// all is 400 invalid_pagination. Lists answer `pagination {limit, offset, has_more}`.

export const MAX_PAGE_SIZE = 100;
export const MAX_OFFSET = 10_000;
export const MAX_ID_ARRAY = 500;

/** `"20abc"` → 20, `" 7"` → 7, `"-3"` → -3, `"abc"` → null. */
export function leadingInt(raw: string): number | null {
  const m = /^\s*([+-]?\d+)/.exec(raw);
  return m ? Number.parseInt(m[1]!, 10) : null;
}

const clamp = (n: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, n));

/** One loose integer of offset paging: leading-integer parse, clamped; 400 invalid_pagination without one. */
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

/** The `limit`/`offset` query fields of an offset-paged list, parsed to numbers. */
export const offsetPageQuery = (defaultLimit = 50) => ({
  limit: looseInt(defaultLimit, 1, MAX_PAGE_SIZE),
  offset: looseInt(0, 0, MAX_OFFSET),
});
