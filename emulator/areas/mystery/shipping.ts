import { createHash } from "node:crypto";
import { badRequest } from "../../pipeline/errors.ts";
import type { ShippingAddress, ShippingQuote } from "./state.ts";
import type { Body } from "./util.ts";

// Address validation and live-looking shipping rates for redemption quotes.
// Rates are a fixed table (deterministic): the emulator has no Shippo.

export const CARRIERS = ["usps", "ups", "dhl_express", "lso"] as const;
type Carrier = (typeof CARRIERS)[number];

interface RateRow {
  carrier: Carrier;
  label: string;
  service: string;
  service_token: string;
  domestic: number | null;
  international: number | null;
  days: [number, number];
}

const RATES: readonly RateRow[] = [
  { carrier: "usps", label: "USPS", service: "USPS Ground Advantage", service_token: "usps_ground_advantage", domestic: 5.4, international: 18.5, days: [4, 10] },
  { carrier: "ups", label: "UPS", service: "UPS Ground", service_token: "ups_ground", domestic: 9.8, international: 42, days: [3, 6] },
  { carrier: "dhl_express", label: "DHL Express", service: "DHL Express Worldwide", service_token: "dhl_express_worldwide", domestic: 24, international: 36, days: [2, 4] },
  { carrier: "lso", label: "LSO", service: "LSO Ground", service_token: "lso_ground", domestic: 7.25, international: null, days: [2, 2] },
];

const str = (v: unknown) => (typeof v === "string" && v.trim() !== "" ? v.trim() : undefined);

/** missing_shipping_address, invalid_address (details.field) or phone_required. */
export function parseAddress(b: Body): ShippingAddress {
  const raw = b.shipping_address ?? b.address;
  if (raw === undefined || raw === null || (typeof raw === "object" && !Array.isArray(raw) && Object.keys(raw).length === 0))
    throw badRequest("missing_shipping_address", "shipping_address is required ({name, street1, city, zip, country, state?, phone?, email?})");
  if (typeof raw !== "object" || Array.isArray(raw)) throw badRequest("invalid_address", "shipping_address must be an object", { details: { field: "shipping_address" } });
  const a = raw as Record<string, unknown>;
  const invalid = (field: string, why: string) => badRequest("invalid_address", `shipping_address.${field} ${why}`, { details: { field } });
  for (const f of ["name", "street1", "city", "zip", "country"]) if (!str(a[f])) throw invalid(f, "is required");
  const country = str(a.country)!.toUpperCase();
  if (!/^[A-Z]{2}$/.test(country)) throw invalid("country", "must be an ISO 3166-1 alpha-2 code such as US");
  const zip = str(a.zip)!;
  if (country === "US") {
    if (!/^\d{5}(-\d{4})?$/.test(zip)) throw invalid("zip", "must be a US ZIP code (12345 or 12345-6789)");
    if (!str(a.state) || !/^[A-Za-z]{2}$/.test(str(a.state)!)) throw invalid("state", "must be a two-letter US state code");
  }
  const phone = str(a.phone);
  if (phone !== undefined && !/^\+?[0-9 ()\-.]{6,20}$/.test(phone)) throw invalid("phone", "is not a phone number");
  if (country !== "US" && !phone) throw badRequest("phone_required", "Shipping outside the US needs shipping_address.phone (customs)");
  const email = str(a.email);
  if (email !== undefined && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) throw invalid("email", "is not an email address");
  return {
    name: str(a.name)!,
    street1: str(a.street1)!,
    ...(str(a.street2) ? { street2: str(a.street2) } : {}),
    city: str(a.city)!,
    ...(str(a.state) ? { state: str(a.state)!.toUpperCase() } : {}),
    zip,
    country,
    ...(phone ? { phone } : {}),
    ...(email ? { email } : {}),
  };
}

/** Optional carriers filter: unknown tokens are 400 unknown_carrier. */
export function parseCarriers(b: Body): Carrier[] | null {
  const v = b.carriers;
  if (v === undefined || v === null) return null;
  const list = typeof v === "string" ? v.split(",").map((s) => s.trim()) : v;
  if (!Array.isArray(list) || list.length === 0 || list.some((c) => typeof c !== "string"))
    throw badRequest("unknown_carrier", `carriers must be a non-empty array of: ${CARRIERS.join(", ")}`);
  const bad = list.filter((c) => !CARRIERS.includes(c as Carrier));
  if (bad.length) throw badRequest("unknown_carrier", `Unknown carrier ${bad.map((c) => `"${c}"`).join(", ")}; available: ${CARRIERS.join(", ")}`, { details: { carriers: bad } });
  return list as Carrier[];
}

/** Every available rate for the destination, cheapest first. */
export function rates(address: ShippingAddress, carriers: Carrier[] | null, quotedAt: string): ShippingQuote[] {
  const domestic = address.country === "US";
  const rows = RATES.filter((r) => !carriers || carriers.includes(r.carrier))
    .map((r) => ({ r, amount: domestic ? r.domestic : r.international }))
    .filter((x): x is { r: RateRow; amount: number } => x.amount !== null)
    .sort((a, b) => a.amount - b.amount);
  if (rows.length === 0)
    throw badRequest("unknown_carrier", `None of ${carriers!.join(", ")} ships to ${address.country}; available: usps, ups, dhl_express`);
  return rows.map(({ r, amount }) => ({
    amount_usdc: amount.toFixed(2),
    currency: "USD",
    carrier: r.label,
    service: r.service,
    service_token: r.service_token,
    estimated_days: domestic ? r.days[0] : r.days[1],
    rate_id: `rate_${createHash("sha256").update(`${r.carrier}:${address.country}:${address.zip}:${quotedAt}`).digest("hex").slice(0, 24)}`,
    quoted_at: quotedAt,
  }));
}
