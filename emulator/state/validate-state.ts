import { z } from "zod";
import type { SliceSpec } from "./slices.ts";

// The check an imported state passes before anything is replaced (PUT
// /_emulator/state, createEmulator({state}), a state file on start): the
// store's own records field by field, each area slice held to its declared
// shape, and every number in range (a time the clock and Date can hold, no
// float or unsafe counter), so no import can fail halfway or poison a later
// call. Throws a one-line reason naming the field.

/** How far from the wall clock an imported time may be. */
const TIME_WINDOW_MS = 200 * 365.25 * 24 * 3600 * 1000;

const count = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const perMinute = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER);

const keyRecord = z.object({
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
  created_at: z.string(),
});

const creditAccount = z.object({
  free: count,
  purchased: count,
  free_period: z.string().regex(/^\d{4}-\d{2}$/),
  usage: z.record(z.string(), count),
  requests: z.record(z.string(), count),
});

const stateShape = z.object({
  seed: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  catalog_size: z.enum(["default", "large"]),
  keys: z.record(z.string(), keyRecord),
  credits: z.record(z.string(), creditAccount),
  counters: z.record(z.string(), count),
  areas: z.record(z.string(), z.unknown()),
});

const fail = (path: string, what: string): never => {
  throw new Error(`invalid state: ${path} ${what}`);
};

const kindOf = (v: unknown) => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v);

/** A time (unix ms) the emulator can run at. */
export function checkTime(path: string, t: unknown, wallNow: number): void {
  if (typeof t !== "number" || !Number.isSafeInteger(t) || Math.abs(t - wallNow) > TIME_WINDOW_MS)
    fail(path, `must be a time in unix milliseconds within 200 years of now (got ${JSON.stringify(t)})`);
}

/** Numbers anywhere in a slice: finite and safe; a number under a `…_at` or `…_at_ms` name is a time. */
function checkNumbers(path: string, v: unknown, wallNow: number): void {
  if (typeof v === "number") {
    if (/(^|_)at(_ms)?$/.test(path.slice(path.lastIndexOf(".") + 1))) checkTime(path, v, wallNow);
    else if (!Number.isFinite(v) || Math.abs(v) > Number.MAX_SAFE_INTEGER) fail(path, `is out of range (${v})`);
  } else if (v && typeof v === "object")
    for (const [k, c] of Object.entries(v)) checkNumbers(`${path}.${k}`, c, wallNow);
}

/** A slice against its initial value: the same fields (optional ones may be absent) of the same kinds, one level down too. */
function checkSlice(spec: SliceSpec, value: unknown): void {
  const path = `areas.${spec.name}`;
  const template = spec.init() as Record<string, unknown>;
  if (kindOf(value) !== "object") fail(path, `must be an object (got ${kindOf(value)})`);
  const slice = value as Record<string, unknown>;
  for (const [field, init] of Object.entries(template)) {
    const v = Object.hasOwn(slice, field) ? slice[field] : undefined;
    if (v === undefined) {
      if (!(spec.optional as readonly string[] | undefined)?.includes(field)) fail(`${path}.${field}`, "is missing");
      continue;
    }
    if (init !== null && kindOf(v) !== kindOf(init))
      fail(
        `${path}.${field}`,
        `must be ${kindOf(init) === "array" ? "an array" : `a ${kindOf(init)}`} (got ${kindOf(v)})`,
      );
    // Fixed sub-objects (settings …): their fields, when present, keep their kinds.
    if (kindOf(init) === "object")
      for (const [sub, subInit] of Object.entries(init as Record<string, unknown>)) {
        const sv = (v as Record<string, unknown>)[sub];
        if (sv !== undefined && subInit !== null && Object.hasOwn(v as object, sub) && kindOf(sv) !== kindOf(subInit))
          fail(`${path}.${field}.${sub}`, `must be a ${kindOf(subInit)} (got ${kindOf(sv)})`);
      }
  }
}

/** Validates an export's `now` and `state` against the declared slices; throws a one-line reason naming the field. */
export function validateState(now: unknown, state: unknown, slices: readonly SliceSpec[], wallNow = Date.now()): void {
  checkTime("now", now, wallNow);
  const parsed = stateShape.safeParse(state);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    fail(issue.path.map(String).join(".") || "state", `is invalid (${issue.message})`);
  }
  const s = parsed.data!;
  for (const [k, rec] of Object.entries(s.keys))
    if (rec.key !== k) fail(`keys.${k}.key`, "must equal its entry's name");
  for (const spec of slices) if (Object.hasOwn(s.areas, spec.name)) checkSlice(spec, s.areas[spec.name]);
  for (const [name, slice] of Object.entries(s.areas)) checkNumbers(`areas.${name}`, slice, wallNow);
}
