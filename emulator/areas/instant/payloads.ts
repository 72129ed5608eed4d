import { eventsOf } from "../../../contract/lifecycle.ts";
import { INSTANT_PURCHASE, type InstantPurchaseEvent } from "../../../contract/lifecycles/purchases.ts";
import type { PayloadBuilders } from "../../events/payloads.ts";
import type { Services } from "../../pipeline/services.ts";
import { formatPurchase } from "./format.ts";
import type { InstantPurchaseRow } from "./state.ts";

// Every payload the instant area publishes: one builder per event of its table (contract/lifecycles/purchases.ts
// INSTANT_PURCHASE), in the shapes of docs/reference/sdk-shapes.md “Webhook event data”: the lifecycle
// publishes through these (emulator/events/publish.ts), never writes a payload inline.

/** Every event type the instant table declares (GET /_emulator/instant/events shows these). */
export const INSTANT_EVENT_TYPES: readonly string[] = eventsOf(INSTANT_PURCHASE);

const byId = (p: InstantPurchaseRow) => String(p.id);

/** What an instant purchase's events are built from: the row as moved, and the emulator (the partner's slug). */
export interface InstantMove {
  s: Services;
  p: InstantPurchaseRow;
}

export const INSTANT_PAYLOADS: PayloadBuilders<InstantPurchaseEvent, InstantMove> = {
  "instant_purchase.reserved": ({ p }) => ({ key: byId(p), data: { purchase_id: p.id, status: "RESERVED" } }),
  // store_request_id is the store's VRF request; the emulator has no separate pool request (null).
  "instant_purchase.submitted": ({ p }) => ({
    key: byId(p),
    data: {
      purchase_id: p.id,
      status: "SUBMITTED",
      transaction_hash: p.transaction_hash,
      store_request_id: p.onchain_request_id,
      pool_request_id: null,
      // The shapes type custody as "NON_CUSTODIAL" only (optional): a custodial purchase's event leaves it out.
      ...(p.custody === "NON_CUSTODIAL" ? { custody: "NON_CUSTODIAL" } : {}),
    },
  }),
  "instant_purchase.fulfilled": ({ s, p }) => ({ key: byId(p), data: { ...formatPurchase(s, p), purchase_id: p.id } }),
  "instant_purchase.refunded": ({ p }) => ({ key: byId(p), data: { purchase_id: p.id, status: "REFUNDED" } }),
  "instant_purchase.failed": ({ p }) => ({
    key: byId(p),
    data: { purchase_id: p.id, status: "FAILED", reason: p.failure_reason ?? "unknown" },
  }),
};
