import { START, type Lifecycle } from "../lifecycle.ts";
import type { OrderStatus } from "../warehouse/orders.ts";
import { z } from "../zod.ts";
import { isoTime } from "../primitives.ts";
import { int, orderTracking } from "../event-shapes.ts";
import type { Fixtures } from "../event-fixtures.ts";

// A warehouse order (docs/warehouse.md): quoted, committed (the cards reserved,
// the label bought on the clock), shipped and delivered or returned by the
// carrier; cancelled before it ships. The label's charge and void are billing
// (emulator/areas/warehouse/label-billing.ts), made beside the move.

/** The carrier answers a label purchase this long after the commit. */
export const LABEL_PURCHASE_MS = 3_000;

export type OrderTrigger =
  "quote" | "supersede" | "commit" | "label_failed" | "label_bought" | "cancel" | "ship" | "deliver" | "return";

/** A tracking change publishes order.tracking_updated, then order.tracking_status_changed when the status changed. */
export type OrderEvent = "order.tracking_updated" | "order.tracking_status_changed" | "order.returned";
export type OrderSideEvent = "card.returned";

// The warehouse events' `data` are ours (the live docs do not show them): what the warehouse area publishes
// (docs/warehouse.md, orders).
const orderId = (f: Fixtures) => f.id(880_000);
const uniqueId = (f: Fixtures) => `CARD-NW${f.digits("card", 10)}`;
const trackingNumber = (f: Fixtures) => `9400${f.digits("tracking", 18)}`;

export const WAREHOUSE_ORDER: Lifecycle<OrderStatus, OrderTrigger, never, OrderEvent, OrderSideEvent> = {
  name: "order",
  states: ["PENDING_PAYMENT", "LABEL_PURCHASING", "LABEL_PURCHASED", "SHIPPED", "DELIVERED", "RETURNED", "CANCELLED"],
  transitions: [
    {
      from: [START],
      to: "PENDING_PAYMENT",
      trigger: "quote",
      moves: [],
      events: [],
      due: null,
      note: "POST /orders/quote: rates, nothing reserved",
    },
    {
      from: ["PENDING_PAYMENT"],
      to: "CANCELLED",
      trigger: "supersede",
      moves: [],
      events: [],
      note: "a newer quote of the same key",
    },
    {
      from: ["PENDING_PAYMENT"],
      to: "LABEL_PURCHASING",
      trigger: "commit",
      moves: [],
      events: [],
      due: { after_ms: LABEL_PURCHASE_MS, since: "now" },
      note: "POST /orders: the cards reserved, the label bought",
    },
    {
      from: ["LABEL_PURCHASING"],
      to: "PENDING_PAYMENT",
      trigger: "label_failed",
      moves: [],
      events: [],
      due: null,
      note: "the carrier refused: the cards released, commit again",
    },
    {
      from: ["LABEL_PURCHASING"],
      to: "LABEL_PURCHASED",
      trigger: "label_bought",
      moves: [],
      events: ["order.tracking_updated"],
      due: null,
      note: "the label is billed; tracking label_created",
    },
    {
      from: ["PENDING_PAYMENT", "LABEL_PURCHASED"],
      to: "CANCELLED",
      trigger: "cancel",
      moves: [],
      events: [],
      note: "the cards released; a bought label voided",
    },
    {
      from: ["LABEL_PURCHASED"],
      to: "SHIPPED",
      trigger: "ship",
      moves: [],
      events: ["order.tracking_updated", "order.tracking_status_changed"],
      note: "handed to the carrier: in_transit",
    },
    {
      from: ["SHIPPED"],
      to: "DELIVERED",
      trigger: "deliver",
      moves: [],
      events: ["order.tracking_updated", "order.tracking_status_changed"],
      note: "delivered",
    },
    {
      from: ["SHIPPED"],
      to: "RETURNED",
      trigger: "return",
      moves: [],
      events: ["order.tracking_updated", "order.tracking_status_changed", "order.returned"],
      note: "returned to sender: the cards await scan-back",
    },
  ],
  catalogue: {
    "order.tracking_updated": {
      data: orderTracking,
      example: (f) => ({
        order_id: orderId(f),
        status: "SHIPPED",
        carrier: "usps",
        tracking_number: trackingNumber(f),
        tracking_status: "in_transit",
        previous_tracking_status: "label_created",
        unique_ids: [uniqueId(f)],
        updated_at: f.now,
      }),
    },
    "order.tracking_status_changed": {
      data: orderTracking,
      example: (f) => ({
        order_id: orderId(f),
        status: "DELIVERED",
        carrier: "usps",
        tracking_number: trackingNumber(f),
        tracking_status: "delivered",
        previous_tracking_status: "in_transit",
        unique_ids: [uniqueId(f)],
        updated_at: f.now,
      }),
    },
    "order.returned": {
      data: z.looseObject({ order_id: int, status: z.string(), unique_ids: z.array(z.string()), returned_at: isoTime }),
      example: (f) => ({ order_id: orderId(f), status: "RETURNED", unique_ids: [uniqueId(f)], returned_at: f.now }),
    },
  },
  sideEvents: [
    {
      event: "card.returned",
      note: "a returned card is scanned back into inventory (one per card)",
      data: z.looseObject({ unique_id: z.string(), order_id: int, location: z.string(), scanned_at: isoTime }),
      example: (f) => ({ unique_id: uniqueId(f), order_id: orderId(f), location: "OFFCHAIN", scanned_at: f.now }),
    },
  ],
};
