// The webhook event catalogue's names: the interface document's, the live
// service's (docs/reference/live-service.md “Event types”, SDK 0.1.2) and the warehouse ones.

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

export const WAREHOUSE_EVENT_TYPES = ["order.tracking_updated", "order.tracking_status_changed", "card.returned", "order.returned"] as const;

export const EVENT_TYPES = [...PARTNER_EVENT_TYPES, ...WAREHOUSE_EVENT_TYPES] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** Documented but not live: registering for them is 400 invalid_event_types. */
export const NOT_LIVE_EVENT_TYPES = ["card.price_updated", "card.added", "card.updated", "expansion.released", "sealed.price_updated", "population.updated"] as const;
