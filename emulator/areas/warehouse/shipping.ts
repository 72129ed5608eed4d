import { ApiError } from "../../pipeline/errors.ts";
import { own } from "../../state/own.ts";
import { hashString } from "../../state/ids.ts";
import type { Address, CardRow, Rate, TenantState } from "./model.ts";
import { parseShippingAddress } from "../../shipping/address.ts";
import { parseCarriers, servicesFor, type Carrier } from "../../shipping/carriers.ts";
import { toCents, usdCents } from "./money.ts";
import type { QuoteBody } from "../../../contract/index.ts";

// Shipping quotes: input checks in a fixed order (the ids' shape in the
// route's schema, then address, carriers, then the cards themselves), and the
// rate table. Rates are deterministic: a base price per carrier service plus a
// per-card handling increment.

export interface QuoteInput {
  unique_ids: string[];
  address: Address;
  carriers: Carrier[];
}

/** A quote's input: the ids as the schema checked them, then the shared rules for the address and the carriers, in that order. */
export function quoteInput(body: QuoteBody): QuoteInput {
  return {
    unique_ids: body.unique_ids,
    address: parseAddress(body.address ?? body.shipping_address),
    carriers: parseCarriers(body.carriers),
  };
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
  if (missing.length)
    throw new ApiError(
      404,
      "not_found",
      `No card ${missing[0]} in this tenant's inventory${missing.length > 1 ? ` (and ${missing.length - 1} more)` : ""}`,
      { data: { unique_ids: missing } },
    );
  const cards = found as CardRow[];
  const blocked = cards.map((card) => ({ card, reason: ineligibility(card) })).filter((x) => x.reason !== null);
  if (blocked.length)
    throw new ApiError(409, "not_eligible", `${blocked.length} card(s) cannot be shipped now`, {
      data: {
        cards: blocked.map(({ card, reason }) => ({
          unique_id: card.unique_id,
          status: card.status,
          location: card.location,
          identity: { ...card.identity },
          reason,
        })),
      },
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
    // Cents, never float sums: 35 cents per extra card.
    amount: usdCents(toCents(s.base) + 35 * (n - 1)),
    currency: "USD",
    estimated_days: s.days,
  }));
}
