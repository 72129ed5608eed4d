import { publishEvent } from "../../events/publish.ts";
import type { EventType } from "../../events/types.ts";
import type { Services } from "../../pipeline/services.ts";
import { formatPurchase } from "./format.ts";
import { instant, type InstantPurchaseRow } from "./state.ts";

// One payload builder per instant_purchase.* event, in the shapes of
// docs/reference/sdk-shapes.md “Webhook event data”: the lifecycle calls these, never writes a payload inline.

const BUILDERS = {
  "instant_purchase.reserved": (p: InstantPurchaseRow) => ({ purchase_id: p.id, status: "RESERVED" as const }),
  // store_request_id is the store's VRF request; the emulator has no separate pool request (null).
  "instant_purchase.submitted": (p: InstantPurchaseRow) => ({
    purchase_id: p.id,
    status: "SUBMITTED" as const,
    transaction_hash: p.transaction_hash,
    store_request_id: p.onchain_request_id,
    pool_request_id: null,
    // The shapes type custody as "NON_CUSTODIAL" only (optional): a custodial purchase's event leaves it out.
    ...(p.custody === "NON_CUSTODIAL" ? { custody: "NON_CUSTODIAL" as const } : {}),
  }),
  "instant_purchase.fulfilled": (p: InstantPurchaseRow) => ({ ...formatPurchase(p), purchase_id: p.id }),
  "instant_purchase.refunded": (p: InstantPurchaseRow) => ({ purchase_id: p.id, status: "REFUNDED" as const }),
  "instant_purchase.failed": (p: InstantPurchaseRow) => ({
    purchase_id: p.id,
    status: "FAILED" as const,
    reason: p.failure_reason ?? "unknown",
  }),
} satisfies Partial<Record<EventType, (p: InstantPurchaseRow) => Record<string, unknown>>>;

export type InstantEvent = keyof typeof BUILDERS;

/** Publishes an instant purchase event built from the row as it is now (recorded for GET /_emulator/instant/events). */
export function emitInstant(s: Services, p: InstantPurchaseRow, type: InstantEvent): void {
  const data = BUILDERS[type](p);
  instant(s).events.push({ type, account_id: p.account_id, key: String(p.id), data, at: s.clock.nowIso() });
  publishEvent(s, p.account_id, type, String(p.id), data);
}
