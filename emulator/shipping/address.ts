import { badRequest } from "../pipeline/errors.ts";

// One validation for shipping addresses (warehouse quotes and mystery
// redemptions): missing_shipping_address, invalid_address (details.field and
// details.fields name what is wrong), phone_required outside the US.

// The address shapes are the contract's (contract/shipping.ts); the checks are parseShippingAddress's.
export type { ShippingAddress } from "../../contract/shipping.ts";
import type { ShippingAddress } from "../../contract/shipping.ts";

const REQUIRED = ["name", "street1", "city", "zip", "country"] as const;
const OPTIONAL = ["street2", "state", "phone", "email"] as const;
const text = (v: unknown) => (typeof v === "string" && v.trim() !== "" ? v.trim() : undefined);

/** `field` is the body field the address came in (`address` or `shipping_address`), for messages. */
export function parseShippingAddress(raw: unknown, field: string): ShippingAddress {
  if (
    raw === undefined ||
    raw === null ||
    (typeof raw === "object" && !Array.isArray(raw) && Object.keys(raw).length === 0)
  )
    throw badRequest(
      "missing_shipping_address",
      `${field} is required: {name, street1, city, state (US), zip, country, phone (outside the US)?, email?}`,
    );
  if (typeof raw !== "object" || Array.isArray(raw))
    throw badRequest("invalid_address", `${field} must be an object`, { details: { field, fields: [field] } });
  const a = raw as Record<string, unknown>;
  const invalid = (fields: string[], why: string) =>
    badRequest("invalid_address", `${field}.${fields.join(", ")} ${why}`, { details: { field: fields[0], fields } });

  const missing = REQUIRED.filter((f) => !text(a[f]));
  const mistyped = OPTIONAL.filter((f) => a[f] !== undefined && a[f] !== null && typeof a[f] !== "string");
  if (missing.length || mistyped.length) throw invalid([...missing, ...mistyped], "missing or not a string");

  const country = text(a.country)!.toUpperCase();
  if (!/^[A-Z]{2}$/.test(country)) throw invalid(["country"], "must be an ISO 3166-1 alpha-2 code such as US");
  const zip = text(a.zip)!;
  const state = text(a.state);
  if (country === "US") {
    if (!/^\d{5}(-\d{4})?$/.test(zip)) throw invalid(["zip"], "must be a US ZIP code (12345 or 12345-6789)");
    if (!state || !/^[A-Za-z]{2}$/.test(state)) throw invalid(["state"], "must be a two-letter US state code");
  }
  const phone = text(a.phone);
  if (phone !== undefined && !/^\+?[0-9 ()\-.]{6,20}$/.test(phone)) throw invalid(["phone"], "is not a phone number");
  if (country !== "US" && !phone)
    throw badRequest("phone_required", `Shipping outside the US needs ${field}.phone (customs)`);
  const email = text(a.email);
  if (email !== undefined && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email))
    throw invalid(["email"], "is not an email address");
  return {
    name: text(a.name)!,
    street1: text(a.street1)!,
    ...(text(a.street2) ? { street2: text(a.street2) } : {}),
    city: text(a.city)!,
    ...(state ? { state: state.toUpperCase() } : {}),
    zip,
    country,
    ...(phone ? { phone } : {}),
    ...(email ? { email } : {}),
  };
}
