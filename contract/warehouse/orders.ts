import { operation } from "../operation.ts";
import { CARRIERS, ShippingAddress } from "../shipping.ts";
import { identifier, later, withCode, z } from "../zod.ts";
import {
  badJson,
  count,
  filteredList,
  given,
  instant,
  int,
  notFound,
  pathId,
  scoped,
  TENANT_ONLY,
  uniqueIds,
  usd,
} from "./common.ts";

// Shipping quotes and orders (docs/warehouse.md, "Orders"): a quote is an
// order in PENDING_PAYMENT with its rates; committing a rate buys the label.

export const ORDER_STATUSES = [
  "PENDING_PAYMENT",
  "LABEL_PURCHASING",
  "LABEL_PURCHASED",
  "SHIPPED",
  "DELIVERED",
  "RETURNED",
  "CANCELLED",
] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export const CANCEL_REASONS = ["superseded", "cancelled", "cancelled_label_voided"] as const;
export type CancelReason = (typeof CANCEL_REASONS)[number];

/** One carrier rate of a quote. */
export const OrderRate = z.object({
  rate_id: z.string(),
  carrier: z.enum(CARRIERS),
  service: z.string(),
  service_token: z.string(),
  amount: usd,
  currency: z.literal("USD"),
  estimated_days: count,
});
export type OrderRate = z.output<typeof OrderRate>;

/** An order (ship_by_at and sla_due_at are UTC). */
export const Order = z.object({
  order_id: int,
  status: z.enum(ORDER_STATUSES),
  unique_ids: z.array(z.string()),
  address: ShippingAddress,
  rates: z.array(OrderRate),
  quoted_at: instant,
  quote_expires_at: instant,
  superseded_by: int.nullable(),
  cancel_reason: z.enum(CANCEL_REASONS).nullable(),
  rate_id: z.string().describe("The chosen rate; before one is chosen, the quote's cheapest"),
  carrier: z.string().nullable(),
  service: z.string().nullable(),
  amount: usd.nullable(),
  tracking_number: z.string().nullable(),
  tracking_status: z.string().nullable(),
  label_url: z.string().nullable(),
  ship_by_at: instant.nullable(),
  sla_due_at: instant.nullable(),
  committed_at: instant.nullable(),
  label_purchased_at: instant.nullable(),
  shipped_at: instant.nullable(),
  delivered_at: instant.nullable(),
  returned_at: instant.nullable(),
  cancelled_at: instant.nullable(),
  attempts: count,
  last_error: z.object({ code: z.string(), message: z.string(), at: instant }).nullable(),
  created_at: instant,
  updated_at: instant,
  awaiting_scan_unique_ids: z.array(z.string()).describe("Cards of a RETURNED order not yet scanned back"),
});
export type Order = z.output<typeof Order>;

/** A shipping quote: the order in PENDING_PAYMENT and its rates. */
export const Quote = z.object({
  order_id: int,
  status: z.literal("PENDING_PAYMENT"),
  unique_ids: z.array(z.string()),
  address: ShippingAddress,
  rates: z.array(OrderRate).min(1),
  quoted_at: instant,
  expires_at: instant,
  superseded_order_id: int.nullable().describe("The newest quote this one superseded"),
  superseded_order_ids: z.array(int).describe("Every uncommitted quote of this key this one superseded"),
});
export type Quote = z.output<typeof Quote>;

const quoteBody = z.object({
  unique_ids: uniqueIds,
  // The shared shipping rules check these (missing_shipping_address, invalid_address with details.fields, phone_required; unknown_carrier with details.available).
  address: later(ShippingAddress),
  shipping_address: later(ShippingAddress.describe("Alias of address")),
  carriers: later(
    z
      .union([z.array(z.enum(CARRIERS)), z.string().describe("Comma-separated")])
      .describe("Only these carriers (default: all)"),
  ),
});
export type QuoteBody = z.output<typeof quoteBody>;

const commitBody = z.object({
  order_id: withCode(
    z.int({ error: given("an integer (the order_id returned by POST /shipping-quote)") }),
    "invalid_order_id",
  ),
  rate_id: withCode(
    identifier(
      z
        .string({ error: given("a non-empty string (one of the quote's rates)") })
        .min(1, "must be a non-empty string (one of the quote's rates)"),
    ),
    "invalid_rate_id",
  ),
});

const WRITE_ORDER = scoped("write:order");
const orderId = pathId("order_id", "order");

export const WAREHOUSE_ORDERS = {
  quote: operation({
    id: "warehouse.quotes.create",
    method: "POST",
    path: "/shipping-quote",
    summary: "Quote shipping rates for cards to an address (supersedes the caller's uncommitted quotes)",
    ...WRITE_ORDER,
    schema: {
      body: quoteBody,
      responses: {
        200: {
          description: "An order in PENDING_PAYMENT with its rates; the caller's uncommitted quotes are superseded",
          data: Quote,
        },
        400: {
          description: "unique_ids, then address, then carriers",
          codes: [
            ...badJson,
            "invalid_unique_ids",
            "invalid_pagination",
            "identifier_too_long",
            "missing_shipping_address",
            "invalid_address",
            "phone_required",
            "unknown_carrier",
          ],
        },
        404: { description: "A card that is not the tenant's", codes: ["not_found"] },
        409: { description: "Cards that cannot ship now (data.cards)", codes: ["not_eligible"] },
        422: { description: "No carrier serves the destination", codes: ["no_rates"] },
      },
    },
  }),
  create: operation({
    id: "warehouse.orders.create",
    method: "POST",
    path: "/orders",
    summary:
      "Commit a quote's rate: buys the shipping label (a failure leaves the order in PENDING_PAYMENT, safe to retry)",
    ...WRITE_ORDER,
    schema: {
      body: commitBody,
      responses: {
        202: {
          description: "LABEL_PURCHASING (or, for a retry of a commit that went through, the order as it is)",
          data: Order,
        },
        400: {
          description: "order_id or rate_id",
          codes: [...badJson, "invalid_order_id", "invalid_rate_id", "identifier_too_long"],
        },
        404: {
          description: "No such order, or a rate that is not the order's",
          codes: ["not_found", "rate_not_found"],
        },
        409: {
          description:
            "Superseded, expired, not committable, or cards no longer eligible (data: the order or the cards)",
          codes: ["quote_superseded", "invalid_status", "quote_expired", "not_eligible"],
        },
      },
    },
  }),
  list: operation({
    id: "warehouse.orders.list",
    method: "GET",
    path: "/orders",
    summary: "The tenant's orders, newest first",
    ...TENANT_ONLY,
    schema: filteredList("orders", Order, ORDER_STATUSES, "Orders, newest first"),
  }),
  get: operation({
    id: "warehouse.orders.get",
    method: "GET",
    path: "/orders/:order_id",
    summary: "One order",
    ...TENANT_ONLY,
    schema: { params: orderId, responses: { 200: { description: "The order", data: Order }, 404: notFound("order") } },
  }),
  cancel: operation({
    id: "warehouse.orders.cancel",
    method: "POST",
    path: "/orders/:order_id/cancel",
    summary: "Cancel an order before it ships (a purchased label is voided)",
    ...WRITE_ORDER,
    schema: {
      params: orderId,
      responses: {
        200: { description: "CANCELLED (a purchased label is voided); the cards are released", data: Order },
        404: notFound("order"),
        409: { description: "Not PENDING_PAYMENT or LABEL_PURCHASED (data: the order)", codes: ["invalid_status"] },
      },
    },
  }),
};
