import type { OrderEvent } from "../../../contract/lifecycles/warehouse-order.ts";
import type { PayloadBuilders } from "../../events/payloads.ts";
import type { CardRow, Order } from "./model.ts";

// Every payload the warehouse area publishes: one builder per event of the order table (contract/lifecycles/
// warehouse-order.ts: its rows and its side event), in the shapes of docs/warehouse.md (orders). The order
// lifecycle publishes through these (emulator/events/publish.ts), never writes a payload inline.

/** What an order's events are built from: the order as moved and its tracking status before the move. */
export interface OrderInput {
  o: Order;
  previous: string | null;
}

const tracking = ({ o, previous }: OrderInput) => ({
  key: `${o.order_id}:${o.tracking_status}`,
  data: {
    order_id: o.order_id,
    status: o.status,
    carrier: o.carrier,
    tracking_number: o.tracking_number,
    tracking_status: o.tracking_status,
    ...(previous !== null ? { previous_tracking_status: previous } : {}),
    unique_ids: [...o.unique_ids],
    updated_at: o.updated_at,
  },
});

export const ORDER_PAYLOADS: PayloadBuilders<OrderEvent, OrderInput> = {
  /** Every tracking change (label_created, in_transit, delivered, returned_to_sender). */
  "order.tracking_updated": tracking,
  /** A tracking change that changed the tracking status (nothing when it stayed the same). */
  "order.tracking_status_changed": (input) => (input.previous === input.o.tracking_status ? null : tracking(input)),
  "order.returned": ({ o }) => ({
    key: String(o.order_id),
    data: { order_id: o.order_id, status: o.status, unique_ids: [...o.unique_ids], returned_at: o.returned_at },
  }),
};

/** A card scanned back from a returned order. */
export interface ReturnedCard {
  card: CardRow;
  o: Order;
  scannedAt: string;
}

/** The side event of the order table (contract/lifecycles/warehouse-order.ts `sideEvents`). */
export const ORDER_SIDE_PAYLOADS = {
  "card.returned": ({ card, o, scannedAt }: ReturnedCard) => ({
    key: `${card.unique_id}:${o.order_id}`,
    data: { unique_id: card.unique_id, order_id: o.order_id, location: card.location, scanned_at: scannedAt },
  }),
};
