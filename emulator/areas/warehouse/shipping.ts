import { ApiError, badRequest } from "../../pipeline/errors.ts";
import { checkIdArray } from "../../pipeline/pagination.ts";
import { checkIdentifier } from "../../pipeline/identifiers.ts";
import { own } from "../../state/own.ts";
import { hashString } from "../../../fixtures/catalog/rng.ts";
import type { Address, CardRow, Rate, TenantState } from "./model.ts";
import { parseShippingAddress } from "../../shipping/address.ts";
import { servicesFor, type Carrier } from "../../shipping/carriers.ts";
import { usd } from "./money.ts";

// Shipping quotes: input checks in a fixed order (ids shape, address, carriers,
// then the cards themselves), and the rate table. Rates are deterministic: a
// base price per carrier service plus a per-card handling increment.

export { CARRIERS, parseCarriers, type Carrier } from "../../shipping/carriers.ts";

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
  ids.forEach((id, i) => checkIdentifier(id, `unique_ids[${i}]`));
  if (new Set(ids).size !== ids.length) throw badRequest("invalid_unique_ids", "unique_ids must not repeat a card");
  return ids;
}

export function parseAddress(raw: unknown): Address {
  return parseShippingAddress(raw, "address");
}

/** Why a card cannot ship, or null when it can. A declared value or a return does not make a card eligible. */
export function ineligibility(card: CardRow): string | null {
  if (card.status !== "AVAILABLE") return `status ${card.status}`;
  if (card.location !== "OFFCHAIN") return `location ${card.location} (only cards held OFFCHAIN in the vault ship)`;
  if (card.identity.status !== "confirmed") return "identity not confirmed";
  return null;
}

/** 404 for ids that are not the tenant's; 409 not_eligible (data: each blocked card) otherwise. */
export function requireShippable(t: TenantState, ids: readonly string[]): CardRow[] {
  const found = ids.map((id) => own(t.cards, id));
  const missing = ids.filter((_, i) => found[i] === undefined);
  if (missing.length) throw new ApiError(404, "not_found", `No card ${missing[0]} in this tenant's inventory${missing.length > 1 ? ` (and ${missing.length - 1} more)` : ""}`, { data: { unique_ids: missing } });
  const cards = found as CardRow[];
  const blocked = cards.map((card) => ({ card, reason: ineligibility(card) })).filter((x) => x.reason !== null);
  if (blocked.length)
    throw new ApiError(409, "not_eligible", `${blocked.length} card(s) cannot be shipped now`, {
      data: { cards: blocked.map(({ card, reason }) => ({ unique_id: card.unique_id, status: card.status, location: card.location, identity: { ...card.identity }, reason })) },
      human: "Some cards are not eligible for shipment",
    });
  return cards;
}

export function rateTable(orderId: number, seed: number, input: QuoteInput): Rate[] {
  const n = input.unique_ids.length;
  return servicesFor(input.address.country, input.carriers).map((s) => ({
    rate_id: `rate_${orderId.toString(36)}${hashString(`${orderId}:${s.service_token}`, seed).toString(36).slice(0, 6)}`,
    carrier: s.carrier,
    service: s.service,
    service_token: s.service_token,
    amount: usd(s.base + 0.35 * (n - 1)),
    currency: "USD",
    estimated_days: s.days,
  }));
}
