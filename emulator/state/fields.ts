import { z } from "zod";
import { isClockTime, MAX_TIME_MS, MIN_TIME_MS, TIME_RANGE_TEXT } from "../clock/bounds.ts";

// Field shapes of the state's records, shared by every slice's schema
// (slices.ts): an import is held to them at every depth, so a record that
// passes can be read by every later step (BigInt, Date, getAddress, sorting
// by month) without throwing.

/** A non-negative safe integer (counts, ids, revisions). */
export const count = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
/** A safe integer of either sign. */
export const safeInt = z.number().int().min(-Number.MAX_SAFE_INTEGER).max(Number.MAX_SAFE_INTEGER);
/** A finite number (dollars as Card Data shows them). */
export const finite = z.number().min(-Number.MAX_SAFE_INTEGER).max(Number.MAX_SAFE_INTEGER);
/** A time in unix ms the clock can hold (clock/bounds.ts). */
export const timeMs = z.number().int().min(MIN_TIME_MS).max(MAX_TIME_MS);

const ISO = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})?)?$/;
/** An ISO-8601 date or time inside the clock's range. */
export const isoTime = z
  .string()
  .refine((s) => ISO.test(s) && isClockTime(Date.parse(s)), `must be an ISO-8601 time ${TIME_RANGE_TEXT}`);
/** `YYYY-MM`. */
export const month = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, "must be a month YYYY-MM");

const UINT256 = 2n ** 256n;
/** A decimal integer below 2^256 (micros, token ids, block numbers, VRF ids): what BigInt and the chain take. */
export const uint = z
  .string()
  .refine((s) => /^\d{1,78}$/.test(s) && BigInt(s) < UINT256, "must be a decimal integer below 2^256");
/** The same with an optional minus sign (signed ledger amounts). */
export const int256 = z
  .string()
  .refine((s) => /^-?\d{1,78}$/.test(s) && BigInt(s.replace("-", "")) < UINT256, "must be a decimal integer");
/** A decimal amount ("12.50", "-3"), as prices and invoice lines show them. */
export const decimal = z.string().regex(/^-?\d{1,30}(\.\d{1,18})?$/, "must be a decimal amount");
/** A 20-byte hex address. */
export const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/, "must be a 0x-prefixed 20-byte hex address");
/** A 32-byte hex hash. */
export const hash32 = z.string().regex(/^0x[0-9a-fA-F]{64}$/, "must be a 0x-prefixed 32-byte hex hash");
/** Hex bytes (signatures). */
export const hexBytes = z.string().regex(/^0x([0-9a-fA-F]{2})*$/, "must be 0x-prefixed hex bytes");

/** Any JSON value (event payloads, remembered answers). */
export const json: z.ZodType<unknown> = z.lazy(() =>
  z.union([z.string(), finite, z.boolean(), z.null(), z.array(json), ownRecord(json)]),
);

/** A plain object as JSON makes it (not an array, Date, Map … handed to createEmulator({state})). */
const isPlainObject = (v: unknown): v is Record<string, unknown> => {
  if (typeof v !== "object" || v === null) return false;
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
};

/**
 * A record keyed by any string, every entry checked. zod's own record lets a
 * `__proto__` entry through unchecked (and writes it as the prototype of what
 * it returns); here every own key is a normal entry, `__proto__` too, and its
 * value is checked like any other.
 */
export function ownRecord<V extends z.ZodType>(value: V, keyShape?: { pattern: RegExp; what: string }) {
  return z.custom<Record<string, z.output<V>>>(isPlainObject, "must be an object").superRefine((rec, ctx) => {
    for (const key of Object.keys(rec)) {
      if (keyShape && !keyShape.pattern.test(key))
        ctx.addIssue({ code: "custom", message: `must be keyed by ${keyShape.what}`, path: [key] });
      const entry = Object.getOwnPropertyDescriptor(rec, key)!.value as unknown;
      const r = value.safeParse(entry);
      if (!r.success)
        for (const issue of r.error.issues)
          ctx.addIssue({ code: "custom", message: issue.message, path: [key, ...issue.path] });
    }
  });
}

/** A time in unix seconds (on-chain deadlines) inside the clock's range. */
export const unixSeconds = z
  .number()
  .int()
  .min(0)
  .max(Math.floor(MAX_TIME_MS / 1000));
