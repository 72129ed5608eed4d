import { MAX_ID_ARRAY, offsetPageQuery, withinIdArrayLimit } from "../paging.ts";
import { distinct, identifier, MAX_IDEMPOTENCY_KEY, withCode, z } from "../zod.ts";

// Pieces every warehouse resource shares (docs/warehouse.md): tenant-only
// access with the scopes of the interface's table, the warehouse envelope,
// request fields (non-blank text, USD cents, idempotency keys, unique_ids,
// status filters, paging) and answer helpers (named lists with `total`).

export const TENANT_ONLY = { access: { kinds: ["tenant"] }, envelope: "warehouse" } as const;
export const scoped = (scope: string) => ({
  access: { kinds: ["tenant"] as const, scopes: [scope] },
  envelope: "warehouse" as const,
});
export const READ_INVENTORY = scoped("read:inventory");

const given = (what: string) => (iss: { input?: unknown }) =>
  iss.input === undefined || iss.input === null ? `is required: ${what}` : `must be ${what}`;
export { given };

/** A non-blank string, kept as sent. */
const nonBlank = () =>
  z.string({ error: given("a non-empty string") }).refine((s) => s.trim() !== "", "must be a non-empty string");

/** A non-blank string of at most `max` characters. */
export const text = (max: number) => nonBlank().max(max, `must be at most ${max} characters`);

/** A non-blank identifier (400 identifier_too_long over 255 characters). */
export const idText = () => identifier(nonBlank());

/** The largest amount a tenant may declare or ask for: USD 10 million, in cents (far above any card, far below float trouble). */
export const MAX_CENTS = 1_000_000_000;

/** USD cents: a positive integer up to MAX_CENTS. */
export const cents = () =>
  withCode(
    z
      .int({ error: given("a positive integer number of USD cents") })
      .positive("must be a positive integer number of USD cents")
      .max(MAX_CENTS, `must be at most ${MAX_CENTS} USD cents (USD 10,000,000)`),
    "invalid_amount",
  );

/** `idempotency_key` / `submission_key` (null: none); the Idempotency-Key header is checked by the server's idempotency rule. */
export const idempotencyKey = (
  description = `Makes the write idempotent (at most ${MAX_IDEMPOTENCY_KEY} characters); the Idempotency-Key header does the same`,
) =>
  withCode(
    z
      .string({ error: "must be a string" })
      .min(1, "must not be empty")
      .max(MAX_IDEMPOTENCY_KEY, `is at most ${MAX_IDEMPOTENCY_KEY} characters`)
      .nullish()
      .describe(description),
    "invalid_idempotency_key",
  );

/** `unique_ids`: always an array; over 500 entries is invalid_pagination (checked first), each an identifier, no repeats. */
export const uniqueIds = withCode(
  withinIdArrayLimit(
    z.array(z.unknown(), { error: given("an array of unique_id strings (always an array, even for one card)") }),
  )
    .pipe(
      distinct(
        z
          .array(
            identifier(
              z
                .string({ error: "every entry must be a non-empty string" })
                .min(1, "every entry must be a non-empty string"),
            ),
          )
          .min(1, "must name at least one card"),
        "card",
      ),
    )
    .meta({
      items: { type: "string", maxLength: 255 },
      minItems: 1,
      maxItems: MAX_ID_ARRAY,
      description: "unique_id strings, always an array, no repeats",
    }),
  "invalid_unique_ids",
);

/** `status=` filters: one of `allowed`, any case. */
export const statusQuery = (allowed: readonly [string, ...string[]]) =>
  withCode(
    z
      .string()
      .transform((s) => s.toUpperCase())
      .pipe(z.enum(allowed, { error: `must be one of ${allowed.join(", ")}` }))
      .optional()
      .describe(`One of ${allowed.join(", ")} (any case)`),
    "invalid_status",
  );

export const page = offsetPageQuery();
export const pageQuery = z.object(page);

/** A path id: any string (a non-integer one names nothing: 404). */
export const pathId = <N extends string>(name: N, what: string) =>
  z.object({ [name]: identifier().describe(`The ${what}'s id`) } as { [K in N]: ReturnType<typeof identifier> });
export const uniqueIdParam = z.object({ unique_id: identifier().describe("The card's unique_id") });

// ---- answers ----

export const int = z.int();
export const count = int.nonnegative();
/** A UTC instant (ISO 8601 with Z): every warehouse timestamp is UTC. */
export { isoTime as instant } from "../primitives.ts";
export const usd = z
  .string()
  .regex(/^-?\d+\.\d{2}$/)
  .describe("USD decimal string");
/** `data` of an offset-paged list: the rows under their name, and `total`. */
export const list = <N extends string, T extends z.ZodType>(name: N, row: T) =>
  z.object({ [name]: z.array(row), total: count } as { [K in N]: z.ZodArray<T> } & { total: typeof count });

export const notFound = (what: string) =>
  ({ description: `No ${what} of this tenant with that id`, codes: ["not_found"] }) as const;
export const badPage = { description: "limit/offset without an integer", codes: ["invalid_pagination"] } as const;
export const badJson = ["invalid_json"] as const;
export const idempotencyConflict = "idempotency_mismatch";

/** A list with offset paging. */
export const pagedList = <N extends string, T extends z.ZodType>(name: N, row: T, description: string) => ({
  query: pageQuery,
  responses: { 200: { description, data: list(name, row) }, 400: badPage },
});

/** A list with a `status` filter and offset paging. */
export const filteredList = <N extends string, T extends z.ZodType>(
  name: N,
  row: T,
  statuses: readonly [string, ...string[]],
  description: string,
) => ({
  query: z.object({ status: statusQuery(statuses), ...page }),
  responses: {
    200: { description, data: list(name, row) },
    400: { description: "A status outside the list, or bad paging", codes: ["invalid_status", "invalid_pagination"] },
  },
});
