import { eventsOf, type AnyLifecycle } from "../lifecycle.ts";
import { INSTANT_PURCHASE, MYSTERY_PURCHASE } from "./purchases.ts";
import { REDEMPTION } from "./redemption.ts";
import { BUYBACK_OFFER, BUYBACK_TRANSFER } from "./buyback.ts";
import { WAREHOUSE_ORDER } from "./warehouse-order.ts";
import { WEBHOOK_DELIVERY } from "./webhook-delivery.ts";
import { INBOUND_SHIPMENT } from "./inbound-shipment.ts";
import { WITHDRAWAL } from "./withdrawal.ts";
import { PAYOUT_STATEMENT } from "./payout-statement.ts";

export * from "./purchases.ts";
export * from "./redemption.ts";
export * from "./buyback.ts";
export * from "./warehouse-order.ts";
export * from "./webhook-delivery.ts";
export * from "./inbound-shipment.ts";
export * from "./withdrawal.ts";
export * from "./payout-statement.ts";

/** Every lifecycle table, and the doc that draws it (the block between its markers). */
export const LIFECYCLE_DOCS: readonly { id: string; doc: string; lifecycle: AnyLifecycle }[] = [
  { id: "mystery-purchase", doc: "docs/mystery.md", lifecycle: MYSTERY_PURCHASE as AnyLifecycle },
  { id: "instant-purchase", doc: "docs/instant.md", lifecycle: INSTANT_PURCHASE as AnyLifecycle },
  { id: "mystery-redemption", doc: "docs/mystery.md", lifecycle: REDEMPTION as AnyLifecycle },
  { id: "buyback-offer", doc: "docs/mystery.md", lifecycle: BUYBACK_OFFER as AnyLifecycle },
  { id: "buyback-transfer", doc: "docs/mystery.md", lifecycle: BUYBACK_TRANSFER as AnyLifecycle },
  { id: "warehouse-order", doc: "docs/warehouse.md", lifecycle: WAREHOUSE_ORDER as AnyLifecycle },
  { id: "inbound-shipment", doc: "docs/warehouse.md", lifecycle: INBOUND_SHIPMENT as AnyLifecycle },
  { id: "withdrawal", doc: "docs/warehouse.md", lifecycle: WITHDRAWAL as AnyLifecycle },
  { id: "payout-statement", doc: "docs/mystery.md", lifecycle: PAYOUT_STATEMENT as AnyLifecycle },
  { id: "webhook-delivery", doc: "docs/webhooks.md", lifecycle: WEBHOOK_DELIVERY as AnyLifecycle },
];

/**
 * The tables whose records are partner accounts', and those whose records are tenant (warehouse) accounts': a
 * table's events go to its accounts' webhooks (the webhook delivery table is both's, and publishes none).
 */
export const PARTNER_TABLES = [
  MYSTERY_PURCHASE,
  INSTANT_PURCHASE,
  BUYBACK_OFFER,
  BUYBACK_TRANSFER,
  REDEMPTION,
  PAYOUT_STATEMENT,
] as const;
export const TENANT_TABLES = [WAREHOUSE_ORDER, INBOUND_SHIPMENT, WITHDRAWAL] as const;

/** Every lifecycle table once (LIFECYCLE_DOCS may draw one table in more than one doc). */
export const LIFECYCLES: readonly AnyLifecycle[] = LIFECYCLE_DOCS.map((d) => d.lifecycle).filter(
  (lc, i, all) => all.indexOf(lc) === i,
);

/**
 * Each event type the emulator publishes → the name of the one table that declares it (a row's event or a side
 * event). The publisher (emulator/events/publish.ts) refuses a type missing here; test/events/declared.test.ts
 * checks that no type is declared twice and that every one has a payload builder.
 */
export const EVENT_DECLARED_BY: Readonly<Record<string, string>> = Object.freeze(
  Object.fromEntries(LIFECYCLES.flatMap((lc) => eventsOf(lc).map((type) => [type, lc.name] as const))),
);

/** The name of the table that declares `type`, or null when none does. */
export const declaringTable = (type: string): string | null =>
  Object.hasOwn(EVENT_DECLARED_BY, type) ? EVENT_DECLARED_BY[type]! : null;
