import { ApiError, badRequest } from "../../pipeline/errors.ts";
import { checkIdArray } from "../../pipeline/pagination.ts";
import { hashString } from "../../../fixtures/catalog/rng.ts";
import type { Address, CardRow, Rate, TenantState } from "./model.ts";

// Shipping quotes: input checks in a fixed order (ids shape, address, carriers,
// then the cards themselves), and the rate table. Rates are deterministic: a
// base price per carrier service plus a per-card handling increment.

export const CARRIERS = ["usps", "ups", "dhl_express", "lso"] as const;
export type Carrier = (typeof CARRIERS)[number];

interface ServiceDef {
  carrier: Carrier;
  service: string;
  service_token: string;
  base: number;
  days: number;
  scope: "domestic" | "international";
}

const SERVICES: readonly ServiceDef[] = [
  { carrier: "usps", service: "USPS Ground Advantage", service_token: "usps_ground_advantage", base: 5.4, days: 5, scope: "domestic" },
  { carrier: "usps", service: "USPS Priority Mail", service_token: "usps_priority", base: 9.85, days: 3, scope: "domestic" },
  { carrier: "usps", service: "USPS Priority Mail International", service_token: "usps_priority_mail_international", base: 38.5, days: 8, scope: "international" },
  { carrier: "ups", service: "UPS Ground", service_token: "ups_ground", base: 11.2, days: 4, scope: "domestic" },
  { carrier: "ups", service: "UPS 2nd Day Air", service_token: "ups_second_day_air", base: 24.6, days: 2, scope: "domestic" },
  { carrier: "ups", service: "UPS Worldwide Saver", service_token: "ups_saver", base: 72, days: 4, scope: "international" },
  { carrier: "dhl_express", service: "DHL Express Worldwide", service_token: "dhl_express_worldwide", base: 58, days: 3, scope: "international" },
  { carrier: "lso", service: "LSO Ground", service_token: "lso_ground", base: 8.9, days: 2, scope: "domestic" },
];

export interface QuoteInput {
  unique_ids: string[];
  address: Address;
  carriers: Carrier[];
}

export function parseUniqueIds(raw: unknown): string[] {
  if (raw === undefined || raw === null) throw badRequest("invalid_unique_ids", "unique_ids is required: an array of unique_id strings (always an array, even for one card)");
  if (!Array.isArray(raw)) throw badRequest("invalid_unique_ids", "unique_ids must be an array (always an array, even for one card)");
  checkIdArray(raw, "unique_ids");
  if (raw.length === 0) throw badRequest("invalid_unique_ids", "unique_ids must name at least one card");
  if (raw.some((x) => typeof x !== "string" || x === "")) throw badRequest("invalid_unique_ids", "every unique_ids entry must be a non-empty string");
  const ids = raw as string[];
  if (new Set(ids).size !== ids.length) throw badRequest("invalid_unique_ids", "unique_ids must not repeat a card");
  return ids;
}

const ADDRESS_REQUIRED = ["name", "street1", "city", "zip", "country"] as const;
const ADDRESS_OPTIONAL = ["street2", "state", "phone", "email"] as const;

export function parseAddress(raw: unknown): Address {
  if (raw === undefined || raw === null) throw badRequest("missing_shipping_address", "address is required: {name, street1, city, state, zip, country, phone?}");
  if (typeof raw !== "object" || Array.isArray(raw)) throw badRequest("invalid_address", "address must be an object");
  const a = raw as Record<string, unknown>;
  const bad = [...ADDRESS_REQUIRED.filter((f) => typeof a[f] !== "string" || (a[f] as string).trim() === ""), ...ADDRESS_OPTIONAL.filter((f) => a[f] !== undefined && a[f] !== null && typeof a[f] !== "string")];
  if (bad.length) throw badRequest("invalid_address", `address is missing or has invalid ${bad.join(", ")}`, { details: { fields: bad } });
  const country = (a.country as string).trim().toUpperCase();
  if (!/^[A-Z]{2}$/.test(country)) throw badRequest("invalid_address", "address.country must be an ISO 3166 alpha-2 code such as US", { details: { fields: ["country"] } });
  if (country === "US" && (typeof a.state !== "string" || a.state.trim() === ""))
    throw badRequest("invalid_address", "address.state is required for US addresses", { details: { fields: ["state"] } });
  const out: Address = { name: a.name as string, street1: a.street1 as string, city: a.city as string, zip: a.zip as string, country };
  for (const f of ADDRESS_OPTIONAL) if (typeof a[f] === "string" && (a[f] as string).trim() !== "") out[f] = a[f] as string;
  if (country !== "US" && !out.phone) throw badRequest("phone_required", "A phone number (address.phone) is required for shipments outside the US");
  return out;
}

export function parseCarriers(raw: unknown): Carrier[] {
  if (raw === undefined || raw === null) return [...CARRIERS];
  const list = typeof raw === "string" ? raw.split(",").map((s) => s.trim()) : raw;
  if (!Array.isArray(list) || list.length === 0 || list.some((x) => typeof x !== "string"))
    throw badRequest("unknown_carrier", `carriers must be a non-empty array of carrier tokens: ${CARRIERS.join(", ")}`, { details: { available: [...CARRIERS] } });
  const unknown = (list as string[]).filter((c) => !(CARRIERS as readonly string[]).includes(c.toLowerCase()));
  if (unknown.length)
    throw badRequest("unknown_carrier", `Unavailable carrier ${unknown.map((u) => `"${u}"`).join(", ")}; available: ${CARRIERS.join(", ")}`, {
      details: { unknown, available: [...CARRIERS] },
    });
  return [...new Set((list as string[]).map((c) => c.toLowerCase() as Carrier))];
}

/** Why a card cannot ship, or null when it can. A declared value or a return does not make a card eligible. */
export function ineligibility(card: CardRow): string | null {
  if (card.status !== "AVAILABLE") return `status ${card.status}`;
  if (card.location !== "OFFCHAIN") return `location ${card.location} (only cards held OFFCHAIN in the vault ship)`;
  if (card.identity.status !== "confirmed") return "identity not confirmed";
  return null;
}

/** 404 for ids that are not the tenant's; 409 not_eligible (data: each blocked card) otherwise. */
export function requireShippable(t: TenantState, ids: readonly string[], ignoreHolder?: string): CardRow[] {
  const missing = ids.filter((id) => !t.cards[id]);
  if (missing.length) throw new ApiError(404, "not_found", `No card ${missing[0]} in this tenant's inventory${missing.length > 1 ? ` (and ${missing.length - 1} more)` : ""}`, { data: { unique_ids: missing } });
  const cards = ids.map((id) => t.cards[id]);
  const blocked = cards
    .map((card) => ({ card, reason: card.held_by !== null && card.held_by === ignoreHolder ? null : ineligibility(card) }))
    .filter((x) => x.reason !== null);
  if (blocked.length)
    throw new ApiError(409, "not_eligible", `${blocked.length} card(s) cannot be shipped now`, {
      data: { cards: blocked.map(({ card, reason }) => ({ unique_id: card.unique_id, status: card.status, location: card.location, identity: { ...card.identity }, reason })) },
      human: "Some cards are not eligible for shipment",
    });
  return cards;
}

export function rateTable(orderId: number, seed: number, input: QuoteInput): Rate[] {
  const scope = input.address.country === "US" ? "domestic" : "international";
  const n = input.unique_ids.length;
  return SERVICES.filter((s) => s.scope === scope && input.carriers.includes(s.carrier)).map((s) => ({
    rate_id: `rate_${orderId.toString(36)}${hashString(`${orderId}:${s.service_token}`, seed).toString(36).slice(0, 6)}`,
    carrier: s.carrier,
    service: s.service,
    service_token: s.service_token,
    amount: (s.base + 0.35 * (n - 1)).toFixed(2),
    currency: "USD",
    estimated_days: s.days,
  }));
}
