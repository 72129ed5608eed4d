import { z } from "./zod.ts";
import {
  address as addr,
  isoTime as iso,
  micros,
  txHash as hash,
  usdcString as usdc,
  usdDecimal,
} from "./primitives.ts";

// The webhook events (docs/webhooks.md): every type's name and the shape of its
// `data`. The emulator publishes them, the receiver check (conformance/receiver/)
// sends them to a partner's endpoint; both read them from here.
// Names: the interface document's, the live service's and the warehouse ones.

export const PARTNER_EVENT_TYPES = [
  "deposit.credited",
  "purchase.reserved",
  "purchase.submitted",
  "purchase.fulfilled",
  "purchase.refunded",
  "purchase.failed",
  "instant_purchase.reserved",
  "instant_purchase.submitted",
  "instant_purchase.fulfilled",
  "instant_purchase.refunded",
  "instant_purchase.failed",
  "buyback.confirmed",
  "buyback.transfer_held",
  "buyback.card_transferred",
  "buyback.transfer_failed",
  "redemption.prepared",
  "redemption.updated",
  "pool.item_pulled",
  "sellback.confirmed",
  "payout.statement_ready",
  "payout.paid",
] as const;

export const WAREHOUSE_EVENT_TYPES = [
  "order.tracking_updated",
  "order.tracking_status_changed",
  "card.returned",
  "order.returned",
] as const;

export const EVENT_TYPES = [...PARTNER_EVENT_TYPES, ...WAREHOUSE_EVENT_TYPES] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** Documented but not live: registering for them is 400 invalid_event_types. */
export const NOT_LIVE_EVENT_TYPES = [
  "card.price_updated",
  "card.added",
  "card.updated",
  "expansion.released",
  "sealed.price_updated",
  "population.updated",
] as const;

// The `data` of each of the 21 live partner events, as the official SDK types
// them: its optional keys are optional here, its nullable ones nullable, and
// extra keys are allowed (the SDK's types tolerate them). The catalogue's fixtures and every live emission are held to these
// (test/mystery/purchase-events.test.ts), so the two cannot drift apart.

const int = z.number().int();

/** WebhookPurchaseItem: token_id nullable here, unlike RevealItem. */
const purchaseItem = z.looseObject({
  token_id: z.string().nullable(),
  item_type: z.string(),
  category: z.enum(["card", "product", "unknown"]),
  card_id: z.string().nullable().optional(),
  name: z.string().nullable(),
  image_url: z.string().nullable(),
  value_usd: usdDecimal.nullable(),
  rarity: z.string().nullable().optional(),
  card_number: z.string().nullable().optional(),
  set_id: z.string().nullable().optional(),
});

/** The buyback keys every buyback.* event carries (B in the wire shapes). */
const buyback = { purchase_id: int.nullable(), offer_id: int, token_id: z.string() };

const breakdown = z.looseObject({
  packs: int,
  gross_usdc: usdc,
  sellback_usdc: usdc.optional(),
  net_usdc: usdc,
  share_bps: int,
  share_usdc: usdc,
});
const payout = z.looseObject({
  payout_id: int,
  period: z.looseObject({ kind: z.string(), from: iso, to: iso }),
  qualifying_packs: int,
  gross_usdc: usdc,
  sellback_count: int,
  sellback_usdc: usdc,
  net_usdc: usdc,
  revenue_share_bps: int,
  revenue_share_pct: z.string().regex(/^\d+\.\d\d$/),
  revenue_share_usdc: usdc,
  fees_usdc: usdc,
  rip_retained_usdc: usdc,
  by_product: z.looseObject({ tier: breakdown, instant: breakdown }),
  payout_usdc: usdc,
  payout_micros: micros,
  status: z.string(),
  payout_address: addr.nullable(),
  chain: z.string().nullable(),
  tx_hash: hash.nullable(),
  paid_at: iso.nullable(),
});

const redemption = {
  redemption_id: int,
  purchase_id: int.nullable(),
  token_id: z.string(),
  item_type: z.string(),
  status: z.string(),
};

export const EVENT_PAYLOADS = {
  "deposit.credited": z.looseObject({
    deposit_id: int,
    amount: micros,
    amount_usdc: usdc,
    chain_in: z.string(),
    token_in: z.string(),
    tx_hash: hash,
  }),
  "purchase.reserved": z.looseObject({ purchase_id: int, status: z.literal("RESERVED") }),
  "purchase.submitted": z.looseObject({
    purchase_id: int,
    status: z.literal("SUBMITTED"),
    transaction_hash: hash.optional(),
    onchain_request_id: z.string().regex(/^\d+$/).optional(),
    custody: z.literal("NON_CUSTODIAL").optional(),
  }),
  // PARTIALLY_FULFILLED rides on purchase.fulfilled (the live list has no event of its own for it).
  "purchase.fulfilled": z.looseObject({
    purchase_id: int,
    status: z.enum(["FULFILLED", "PARTIALLY_FULFILLED"]),
    onchain_request_id: z.string().regex(/^\d+$/).optional(),
    items: z.array(purchaseItem).optional(),
  }),
  "purchase.refunded": z.looseObject({
    purchase_id: int,
    status: z.literal("REFUNDED"),
    onchain_request_id: z.string().regex(/^\d+$/).optional(),
  }),
  "purchase.failed": z.looseObject({ purchase_id: int, status: z.literal("FAILED"), reason: z.string().min(1) }),
  "instant_purchase.reserved": z.looseObject({ purchase_id: int, status: z.literal("RESERVED") }),
  "instant_purchase.submitted": z.looseObject({
    purchase_id: int,
    status: z.literal("SUBMITTED"),
    transaction_hash: hash.optional(),
    store_request_id: z.union([z.string(), int]).nullable().optional(),
    pool_request_id: z.union([z.string(), int]).nullable().optional(),
    custody: z.literal("NON_CUSTODIAL").optional(),
  }),
  "instant_purchase.fulfilled": z.looseObject({ status: z.string(), id: int.optional(), purchase_id: int.optional() }),
  "instant_purchase.refunded": z.looseObject({ purchase_id: int, status: z.literal("REFUNDED") }),
  "instant_purchase.failed": z.looseObject({ purchase_id: int, status: z.literal("FAILED"), reason: z.string() }),
  "buyback.confirmed": z.looseObject({ ...buyback, status: z.literal("accepted"), seller_receives_usdc: usdc }),
  "buyback.transfer_held": z.looseObject({
    ...buyback,
    offer_signature: z.string(),
    reason: z.string(),
    message: z.string(),
  }),
  "buyback.card_transferred": z.looseObject({
    ...buyback,
    offer_signature: z.string(),
    contract_address: addr,
    to_address: addr,
    tx_hash: hash,
  }),
  "buyback.transfer_failed": z.looseObject({ ...buyback, offer_signature: z.string(), error: z.string() }),
  "redemption.prepared": z.looseObject(redemption),
  "redemption.updated": z.looseObject({
    ...redemption,
    burn_tx_hash: hash.nullable(),
    failure_reason: z.string().nullable(),
  }),
  "pool.item_pulled": z.looseObject({
    token_id: z.string(),
    item_type: z.string(),
    contract_address: addr,
    card_id: z.string().nullable(),
    category: z.string().nullable(),
    game: z.string().nullable(),
    to: addr,
    transaction_hash: hash.nullable(),
    amount_usdc: usdc,
    value_source: z.string(),
    value_unknown: z.boolean(),
    usage_id: int,
  }),
  "sellback.confirmed": z.looseObject({
    sellback_id: int,
    seller: addr,
    token_ids: z.array(z.string()),
    total_usdc: usdc,
    transaction_hash: hash,
  }),
  "payout.statement_ready": payout,
  "payout.paid": payout,
} satisfies Record<(typeof PARTNER_EVENT_TYPES)[number], z.ZodType>;

export type PartnerEventType = keyof typeof EVENT_PAYLOADS;

// The warehouse events' `data`, as the warehouse area publishes them (docs/warehouse.md, orders).
const tracking = z.looseObject({
  order_id: int,
  status: z.string(),
  carrier: z.string(),
  tracking_number: z.string().nullable(),
  tracking_status: z.string(),
  previous_tracking_status: z.string().optional(),
  unique_ids: z.array(z.string()),
  updated_at: iso,
});

export const WAREHOUSE_EVENT_PAYLOADS = {
  "order.tracking_updated": tracking,
  "order.tracking_status_changed": tracking,
  "card.returned": z.looseObject({ unique_id: z.string(), order_id: int, location: z.string(), scanned_at: iso }),
  "order.returned": z.looseObject({
    order_id: int,
    status: z.string(),
    unique_ids: z.array(z.string()),
    returned_at: iso,
  }),
} satisfies Record<(typeof WAREHOUSE_EVENT_TYPES)[number], z.ZodType>;

/** The `data` schema of every event type: what the publisher (emulator/events/publish.ts) holds each event to. */
export const EVENT_SCHEMAS: Record<EventType, z.ZodType> = { ...EVENT_PAYLOADS, ...WAREHOUSE_EVENT_PAYLOADS };
