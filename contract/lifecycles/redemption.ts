import { START, type Due, type Lifecycle } from "../lifecycle.ts";
import type { RedemptionStatus } from "../mystery/redemption.ts";
import { z } from "../zod.ts";
import { txHash } from "../primitives.ts";
import { redemptionKeys } from "../event-shapes.ts";
import type { Fixtures } from "../event-fixtures.ts";

// The redemption lifecycle (docs/mystery.md "Redemption"): prepared, the burn
// flagged on chain, fulfilled by the warehouse once the shipping payment has
// landed, completed when the item ships (the burn finalised). Every move
// after the first publishes redemption.updated; none moves a balance.

/** Auto mode: a paid burn goes IN_FULFILLMENT this long after the payment is seen. */
export const FULFILLMENT_DELAY_MS = 60 * 60 * 1000;
/** Auto mode: IN_FULFILLMENT ships (COMPLETED) this long after it began. */
export const DISPATCH_DELAY_MS = 24 * 60 * 60 * 1000;

export type RedemptionTrigger =
  | "prepare"
  | "kyc_approved"
  | "kyc_declined"
  | "burn"
  | "paid"
  | "fulfil"
  | "dispatch"
  | "dispatch_failed"
  | "cancel"
  | "expire";

const now = (after_ms: number): Due => ({ after_ms, since: "now" });
const LIVE = ["PREPARED", "BURN_SUBMITTED", "IN_FULFILLMENT"] as const;

export type RedemptionEvent = "redemption.prepared" | "redemption.updated";

/** The keys every redemption.* example carries but its status. */
const exampleKeys = (f: Fixtures) => ({
  redemption_id: f.id(4000),
  purchase_id: f.id(1000),
  token_id: f.digits("token", 12),
  item_type: "CARD",
});

export const REDEMPTION: Lifecycle<RedemptionStatus, RedemptionTrigger, never, RedemptionEvent> = {
  name: "redemption",
  states: ["PREPARED", "BURN_SUBMITTED", "IN_FULFILLMENT", "COMPLETED", "FAILED", "CANCELLED", "EXPIRED"],
  transitions: [
    {
      from: [START],
      to: "PREPARED",
      trigger: "prepare",
      moves: [],
      events: ["redemption.prepared"],
      due: null,
      note: "prepare: the holder's calls (or KYC pending, no calls)",
    },
    {
      from: ["PREPARED"],
      to: "PREPARED",
      trigger: "kyc_approved",
      moves: [],
      events: ["redemption.updated"],
      note: "the operator approves KYC: the calls are given",
    },
    {
      from: ["PREPARED"],
      to: "FAILED",
      trigger: "kyc_declined",
      moves: [],
      events: ["redemption.updated"],
      note: "the operator declines KYC",
    },
    {
      from: ["PREPARED"],
      to: "BURN_SUBMITTED",
      trigger: "burn",
      moves: [],
      events: ["redemption.updated"],
      due: null,
      note: "the burn transaction is recorded",
    },
    {
      from: ["BURN_SUBMITTED"],
      to: "BURN_SUBMITTED",
      trigger: "paid",
      moves: [],
      events: [],
      due: now(FULFILLMENT_DELAY_MS),
      note: "the shipping payment is on chain: the warehouse is due (auto mode)",
    },
    {
      from: ["BURN_SUBMITTED"],
      to: "IN_FULFILLMENT",
      trigger: "fulfil",
      moves: [],
      events: ["redemption.updated"],
      due: now(DISPATCH_DELAY_MS),
      note: "the warehouse begins (paid shipping only)",
    },
    {
      from: ["IN_FULFILLMENT"],
      to: "COMPLETED",
      trigger: "dispatch",
      moves: [],
      events: ["redemption.updated"],
      due: null,
      note: "shipped: the burn finalised on chain, tracking number set",
    },
    {
      from: ["IN_FULFILLMENT"],
      to: "FAILED",
      trigger: "dispatch_failed",
      moves: [],
      events: ["redemption.updated"],
      due: null,
      note: "the burn could not be finalised",
    },
    {
      from: LIVE,
      to: "CANCELLED",
      trigger: "cancel",
      moves: [],
      events: ["redemption.updated"],
      due: null,
      note: "the operator cancels, or the shipping was not paid by expires_at: burn cancelled, payment paid back",
    },
    {
      from: LIVE,
      to: "EXPIRED",
      trigger: "expire",
      moves: [],
      events: ["redemption.updated"],
      due: null,
      note: "no burn by expires_at",
    },
  ],
  catalogue: {
    "redemption.prepared": {
      data: z.looseObject(redemptionKeys),
      example: (f) => ({ ...exampleKeys(f), status: "PREPARED" }),
    },
    "redemption.updated": {
      data: z.looseObject({
        ...redemptionKeys,
        burn_tx_hash: txHash.nullable(),
        failure_reason: z.string().nullable(),
      }),
      example: (f) => ({
        ...exampleKeys(f),
        status: "IN_FULFILLMENT",
        burn_tx_hash: f.txHash("burn"),
        failure_reason: null,
      }),
    },
  },
};
