import { z } from "./zod.ts";

// Shipping on the wire (docs/warehouse.md, docs/mystery.md "Redemption"):
// warehouse quotes and orders and mystery redemptions take and show the same
// address shape, and quotes name carrier tokens. The checks (required fields,
// US ZIP and state, phone outside the US; known carriers) are one rule each,
// `readShippingAddress` and `readCarriers`: the emulator's parsers and the
// redemption schemas both read by them.

/** Carrier tokens a quote may name (`carriers`), and that rates carry. */
export const CARRIERS = ["usps", "ups", "dhl_express", "lso"] as const;
export type Carrier = (typeof CARRIERS)[number];

const text = z.string();

/** An address as answers show it: absent optional fields are left out. */
export const ShippingAddress = z.object({
  name: text,
  street1: text,
  street2: text.optional(),
  city: text,
  state: text.optional().describe("Two-letter state code; required in the US"),
  zip: text.describe("A US ZIP code (12345 or 12345-6789) in the US"),
  country: text.describe("ISO 3166-1 alpha-2 code, e.g. US"),
  phone: text.optional().describe("Required outside the US (customs)"),
  email: text.optional(),
});
export type ShippingAddress = z.output<typeof ShippingAddress>;

/** An address as requests send it: an optional field may also be null (the same as absent). */
export const ShippingAddressInput = ShippingAddress.extend({
  street2: text.nullable().optional(),
  state: text.nullable().optional().describe("Two-letter state code; required in the US"),
  phone: text.nullable().optional().describe("Required outside the US (customs)"),
  email: text.nullable().optional(),
});
export type ShippingAddressInput = z.output<typeof ShippingAddressInput>;

/** Why a shipping field was refused: its 400 code, a message, and the address fields at fault. */
export interface ShippingProblem {
  code: "missing_shipping_address" | "invalid_address" | "phone_required" | "unknown_carrier";
  message: string;
  fields?: string[];
  details?: Record<string, unknown>;
}

const REQUIRED = ["name", "street1", "city", "zip", "country"] as const;
const OPTIONAL = ["street2", "state", "phone", "email"] as const;
const given = (v: unknown) => (typeof v === "string" && v.trim() !== "" ? v.trim() : undefined);

/** A shipping address as sent → the address, or what is wrong (`field` names the body field, for messages). */
export function readShippingAddress(raw: unknown, field: string): ShippingAddress | ShippingProblem {
  if (
    raw === undefined ||
    raw === null ||
    (typeof raw === "object" && !Array.isArray(raw) && Object.keys(raw).length === 0)
  )
    return {
      code: "missing_shipping_address",
      message: `${field} is required: {name, street1, city, state (US), zip, country, phone (outside the US)?, email?}`,
    };
  if (typeof raw !== "object" || Array.isArray(raw))
    return { code: "invalid_address", message: `${field} must be an object`, fields: [field] };
  const a = raw as Record<string, unknown>;
  const invalid = (fields: string[], why: string): ShippingProblem => ({
    code: "invalid_address",
    message: `${field}.${fields.join(", ")} ${why}`,
    fields,
  });

  const missing = REQUIRED.filter((f) => !given(a[f]));
  const mistyped = OPTIONAL.filter((f) => a[f] !== undefined && a[f] !== null && typeof a[f] !== "string");
  if (missing.length || mistyped.length) return invalid([...missing, ...mistyped], "missing or not a string");

  const country = given(a.country)!.toUpperCase();
  if (!/^[A-Z]{2}$/.test(country)) return invalid(["country"], "must be an ISO 3166-1 alpha-2 code such as US");
  const zip = given(a.zip)!;
  const state = given(a.state);
  if (country === "US") {
    if (!/^\d{5}(-\d{4})?$/.test(zip)) return invalid(["zip"], "must be a US ZIP code (12345 or 12345-6789)");
    if (!state || !/^[A-Za-z]{2}$/.test(state)) return invalid(["state"], "must be a two-letter US state code");
  }
  const phone = given(a.phone);
  if (phone !== undefined && !/^\+?[0-9 ()\-.]{6,20}$/.test(phone)) return invalid(["phone"], "is not a phone number");
  if (country !== "US" && !phone)
    return { code: "phone_required", message: `Shipping outside the US needs ${field}.phone (customs)` };
  const email = given(a.email);
  if (email !== undefined && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email))
    return invalid(["email"], "is not an email address");
  return {
    name: given(a.name)!,
    street1: given(a.street1)!,
    ...(given(a.street2) ? { street2: given(a.street2) } : {}),
    city: given(a.city)!,
    ...(state ? { state: state.toUpperCase() } : {}),
    zip,
    country,
    ...(phone ? { phone } : {}),
    ...(email ? { email } : {}),
  };
}

/** `carriers` as sent (an array, or a comma-separated string; absent: every carrier) → the tokens, or what is wrong. */
export function readCarriers(raw: unknown): Carrier[] | ShippingProblem {
  if (raw === undefined || raw === null) return [...CARRIERS];
  const list = typeof raw === "string" ? raw.split(",").map((s) => s.trim()) : raw;
  if (!Array.isArray(list) || list.length === 0 || list.some((x) => typeof x !== "string"))
    return {
      code: "unknown_carrier",
      message: `carriers must be a non-empty array of carrier tokens: ${CARRIERS.join(", ")}`,
      details: { available: [...CARRIERS] },
    };
  const unknown = (list as string[]).filter((c) => !(CARRIERS as readonly string[]).includes(c.toLowerCase()));
  if (unknown.length)
    return {
      code: "unknown_carrier",
      message: `Unavailable carrier ${unknown.map((u) => `"${u}"`).join(", ")}; available: ${CARRIERS.join(", ")}`,
      details: { unknown, available: [...CARRIERS] },
    };
  return [...new Set((list as string[]).map((c) => c.toLowerCase() as Carrier))];
}

/** True when a reader refused its input. */
export const isShippingProblem = (v: unknown): v is ShippingProblem =>
  typeof v === "object" && v !== null && !Array.isArray(v) && "code" in v && "message" in v && !("street1" in v);
