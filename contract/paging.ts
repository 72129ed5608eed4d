import { withCode, z, type IssueParams } from "./zod.ts";

// Offset pagination on the wire (docs/reference: "Limits"): `limit`/`offset`
// are read like a leading-integer parse and clamped; a value with no integer at
// all is 400 invalid_pagination. Lists answer `pagination {limit, offset, has_more}`.

export const MAX_PAGE_SIZE = 100;
export const MAX_OFFSET = 10_000;
export const MAX_ID_ARRAY = 500;

/**
 * An id array of a request within the interface's limit (docs/reference/api-rules.md "Other limits": 500 entries):
 * past it 400 invalid_pagination, whatever the field's own code, checked before its entries.
 */
export const withinIdArrayLimit = <T extends z.ZodType<readonly unknown[]>>(schema: T) =>
  schema.refine((ids) => ids.length <= MAX_ID_ARRAY, {
    error: (iss) => `has ${(iss.input as unknown[]).length} entries; at most ${MAX_ID_ARRAY} are allowed`,
    params: { code: "invalid_pagination" } satisfies IssueParams,
  });

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
