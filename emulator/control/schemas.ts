import { z } from "../pipeline/schema.ts";

// Field shapes shared by the control plane's schemas. Control bodies treat a
// null field as absent (operators script them from shells and JSON files),
// and every bad field answers 400 `invalid_value` naming it.

/** An optional field: absent or null is `undefined`. */
export const opt = <T extends z.ZodType>(schema: T) =>
  schema.nullish().transform((v): z.output<T> | undefined => (v ?? undefined) as z.output<T> | undefined);

/** A non-empty string. */
export const text = () => z.string().min(1, "must be a non-empty string");

/** One of a fixed set of strings. */
export const oneOf = <const T extends readonly [string, ...string[]]>(values: T) => z.enum(values);

/** What a uint256 holds: every decimal and amount a caller gives the chain stays below it. */
export const UINT256_LIMIT = 2n ** 256n;

/** A decimal integer below 2^256 as a string (ids of VRF requests, token ids, raw amounts); a JSON number is taken as its digits. */
export const decimalString = () =>
  z
    .union([z.string(), z.number().int().nonnegative()])
    .transform((v) => String(v))
    .pipe(
      z
        .string()
        .regex(/^\d+$/, "must be a decimal integer string")
        .refine((s) => s.length <= 78 && BigInt(s) < UINT256_LIMIT, "must be below 2^256"),
    );

/** A non-negative decimal amount in whole units ("250", 0.5). */
export const wholeUnits = () =>
  z
    .union([z.string(), z.number().nonnegative()])
    .transform((v) => String(v))
    .pipe(
      z.string().regex(/^\d+(\.\d+)?$/, 'must be a non-negative decimal amount in whole units (e.g. "250" or "0.5")'),
    );

/** The answer of a route that only confirms what it did. */
export const flag = <K extends string>(name: K) =>
  z.object({ [name]: z.literal(true) } as { [P in K]: z.ZodLiteral<true> });

/** The usual error statuses of a control route, with their codes. */
export const badInput = {
  description: "A field is missing or invalid (the message names it).",
  codes: ["invalid_value", "invalid_json"],
} as const;
export const missing = (what: string) => ({ description: `No such ${what}.`, codes: ["not_found"] }) as const;

/** A value a parser of the rules turns into its typed form, or null when it is not one: a 400 naming the field. */
export const parsed = <T>(parse: (v: unknown) => T | null, message: string, doc: Record<string, unknown> = {}) =>
  z
    .unknown()
    .transform((v, ctx): T => {
      const out = v === undefined ? null : parse(v);
      if (out === null) {
        ctx.addIssue({ code: "custom", message, input: v });
        return z.NEVER;
      }
      return out;
    })
    .meta(doc);

/** `?limit=` of an operator listing: an integer from 1 to `max`, `fallback` when absent. */
export const listLimit = (fallback = 50, max = 1000) =>
  z.coerce
    .number({ error: `limit must be an integer from 1 to ${max}` })
    .int(`limit must be an integer from 1 to ${max}`)
    .min(1, `limit must be an integer from 1 to ${max}`)
    .max(max, `limit must be an integer from 1 to ${max}`)
    .default(fallback);

/** Newest first by numeric id, at most `limit` (operator listings of a slice's records). */
export const newestFirst = <T>(rows: Record<string, T>, id: (r: T) => number, limit: number): T[] =>
  Object.values(rows)
    .sort((a, b) => id(b) - id(a))
    .slice(0, limit);
