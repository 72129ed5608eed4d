import type { InstantPurchase } from "../../../contract/index.ts";
import type { Services } from "../../pipeline/services.ts";
import { usdc } from "../../../contract/money.ts";
import { partnerSlug, type InstantPurchaseRow } from "./state.ts";

// The wire shape of an instant purchase (contract/instant.ts InstantPurchase):
// `pack` and `cards` only once FULFILLED; memo `<partner-slug>-instant-<id>`, the slug as the slice keeps it.

export function formatPurchase(s: Services, p: InstantPurchaseRow): InstantPurchase {
  const fulfilled = p.status === "FULFILLED";
  return {
    id: p.id,
    memo: `${partnerSlug(s, p.account_id)}-instant-${p.id}`,
    status: p.status,
    custody: p.custody,
    packet_type_id: p.packet_type_id,
    set_id: p.set_id,
    product_id: p.product_id,
    quantity: 1,
    price: p.price_micros,
    price_usdc: usdc(p.price_micros),
    onchain_request_id: p.onchain_request_id,
    transaction_hash: p.transaction_hash,
    purchaser_address: p.purchaser_address,
    recipient_address: p.recipient_address,
    failure_reason: p.failure_reason,
    reserved_at: p.reserved_at,
    submitted_at: p.submitted_at,
    fulfilled_at: p.fulfilled_at,
    created_at: p.created_at,
    ...(fulfilled ? { pack: p.pack, cards: p.cards ?? [] } : {}),
  };
}
