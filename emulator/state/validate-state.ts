import { z } from "zod";
import { isClockTime, TIME_RANGE_TEXT } from "../clock/bounds.ts";
import { count, isoTime, month, ownRecord } from "./fields.ts";
import type { SliceSpec } from "./slices.ts";

// The check an imported state passes before anything is replaced (PUT
// /_emulator/state, createEmulator({state}), a state file on start): the
// store's own records and every area slice against its declared schema, in
// full (every field at every depth, times inside the clock's range, amounts
// BigInt can read, `__proto__` keys as plain entries), so no import can fail
// halfway or poison a later call. Throws a one-line reason naming the field
// by its path (`areas.warehouse.tenants.northwind.cards`).

const perMinute = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER);
const MONTH_KEY = { pattern: /^\d{4}-(0[1-9]|1[0-2])$/, what: "months YYYY-MM" };

const keyRecord = z.strictObject({
  key: z.string(),
  kind: z.enum(["partner", "tenant", "legacy"]),
  label: z.string(),
  scopes: z.array(z.string()),
  billing_model: z.enum(["POOL", "TIER"]).optional(),
  account_id: z.string(),
  rate_limit_per_min: perMinute,
  partner_rate_limit_per_min: perMinute.optional(),
  fresh_per_min: perMinute.optional(),
  active: z.boolean(),
  created_at: isoTime,
});

const creditAccount = z.strictObject({
  free: count,
  purchased: count,
  free_period: month,
  usage: ownRecord(count, MONTH_KEY),
  requests: ownRecord(count, MONTH_KEY),
});

const stateShape = z.strictObject({
  seed: count,
  catalog_size: z.enum(["default", "large"]),
  keys: ownRecord(keyRecord),
  credits: ownRecord(creditAccount),
  counters: ownRecord(count),
  areas: ownRecord(z.unknown()),
});

const fail = (path: string, what: string): never => {
  throw new Error(`invalid state: ${path} ${what}`);
};

/** The first issue of a failed parse, as `path message`. */
function failWith(prefix: readonly PropertyKey[], error: z.ZodError): never {
  const issue = error.issues[0]!;
  const path = [...prefix, ...issue.path].map(String).join(".") || "state";
  return fail(path, `is invalid (${issue.message})`);
}

/** A time (unix ms) the emulator can run at (clock/bounds.ts). */
export function checkTime(path: string, t: unknown): void {
  if (!isClockTime(t)) fail(path, `must be a time in unix milliseconds ${TIME_RANGE_TEXT} (got ${JSON.stringify(t)})`);
}

/** Validates an export's `now` and `state` against the declared slices; throws a one-line reason naming the field. */
export function validateState(now: unknown, state: unknown, slices: readonly SliceSpec[]): void {
  checkTime("now", now);
  const parsed = stateShape.safeParse(state);
  if (!parsed.success) failWith([], parsed.error);
  const s = parsed.data!;
  for (const [k, rec] of Object.entries(s.keys))
    if (rec.key !== k) fail(`keys.${k}.key`, "must equal its entry's name");
  const byName = new Map(slices.map((spec) => [spec.name, spec]));
  for (const name of Object.keys(s.areas)) {
    const spec = byName.get(name);
    if (!spec) fail(`areas.${name}`, `is not an area of this emulator (${[...byName.keys()].join(", ")})`);
    const r = spec!.schema.safeParse(Object.getOwnPropertyDescriptor(s.areas, name)!.value);
    if (!r.success) failWith(["areas", name], r.error);
  }
}
