import { START, type Due, type Lifecycle, type TransitionSpec } from "../lifecycle.ts";
import type { PurchaseStatus } from "../mystery/purchases.ts";
import type { InstantStatus } from "../instant.ts";

// The purchase lifecycles of mystery and instant packs (docs/mystery.md, docs/instant.md).
// Custodial purchases of both share the relayer's part: held RESERVED, picked up
// RELAY_PICKUP_MS later, waiting PENDING while the relayer is off and FAILED
// (hold released) PENDING_TIMEOUT_MS after the reserve if it stays off.

/** The relayer picks a held purchase up this long after the 202. */
export const RELAY_PICKUP_MS = 2_000;
/** A mystery relayer transaction confirms this long after the broadcast. */
export const RELAY_CONFIRM_MS = 2_000;
/** A purchase held while the relayer is off fails (hold released) this long after it was reserved. */
export const PENDING_TIMEOUT_MS = 60 * 60 * 1000;
/** An unopened instant purchase fails (vrf_timeout, paid back on chain) this long after it is submitted. */
export const OPEN_TIMEOUT_MS = 10 * 60 * 1000;

/** The custodial wallet's movements (the ledger entry types they write). */
export type WalletMove = "HOLD" | "HOLD_RELEASE" | "HOLD_SETTLE" | "REFUND_CREDIT";

/** What the shared relayer fires on a held purchase (emulator/pipeline/relayer.ts). */
export type RelayerTrigger = "relayer_off" | "resume" | "pending_timeout";

const now = (after_ms: number): Due => ({ after_ms, since: "now" });

/** The relayer's rows, the same for both kinds of purchase but for the failure event. */
function relayerRows<E extends string>(failed: E) {
  return [
    {
      from: ["RESERVED"],
      to: "PENDING",
      trigger: "relayer_off",
      moves: [],
      events: [],
      due: { after_ms: PENDING_TIMEOUT_MS, since: "reserved" },
      note: "picked up while the relayer is off: waits, hold kept",
    },
    {
      from: ["PENDING"],
      to: "PENDING",
      trigger: "resume",
      moves: [],
      events: [],
      due: now(0),
      note: "the relayer is back on: due now",
    },
    {
      from: ["PENDING"],
      to: "FAILED",
      trigger: "pending_timeout",
      moves: [{ move: "HOLD_RELEASE", amount: "hold" }],
      events: [failed],
      due: null,
      note: "the relayer stayed off: hold released",
    },
  ] as const satisfies readonly TransitionSpec<"RESERVED" | "PENDING" | "FAILED", RelayerTrigger, WalletMove, E>[];
}

export type MysteryPurchaseTrigger =
  | RelayerTrigger
  | "reserve"
  | "submit"
  | "broadcast"
  | "sent"
  | "confirm"
  | "relay_failed"
  | "reveal"
  | "reveal_short"
  | "refund";
export type MysteryPurchaseEvent =
  "purchase.reserved" | "purchase.submitted" | "purchase.fulfilled" | "purchase.refunded" | "purchase.failed";

export const MYSTERY_PURCHASE: Lifecycle<PurchaseStatus, MysteryPurchaseTrigger, WalletMove, MysteryPurchaseEvent> = {
  name: "mystery purchase",
  states: ["RESERVED", "PENDING", "SUBMITTING", "SUBMITTED", "FULFILLED", "PARTIALLY_FULFILLED", "REFUNDED", "FAILED"],
  transitions: [
    {
      from: [START],
      to: "RESERVED",
      trigger: "reserve",
      moves: [{ move: "HOLD", amount: "hold" }],
      events: ["purchase.reserved"],
      due: now(RELAY_PICKUP_MS),
      note: "POST /mystery/purchase: 202, the price cap held",
    },
    {
      from: [START],
      to: "SUBMITTED",
      trigger: "submit",
      moves: [],
      events: ["purchase.submitted"],
      note: "non-custodial submit: the wallet's transaction is mined",
    },
    ...relayerRows("purchase.failed"),
    {
      from: ["RESERVED", "PENDING", "SUBMITTING"],
      to: "SUBMITTING",
      trigger: "broadcast",
      moves: [],
      events: [],
      due: now(RELAY_CONFIRM_MS),
      note: "the relayer sends purchaseFor (again, if a restore lost the hash)",
    },
    {
      from: ["SUBMITTING"],
      to: "SUBMITTING",
      trigger: "sent",
      moves: [],
      events: [],
      due: now(RELAY_CONFIRM_MS),
      note: "broadcast: the transaction hash is known",
    },
    {
      from: ["SUBMITTING"],
      to: "SUBMITTED",
      trigger: "confirm",
      moves: [
        { move: "HOLD_SETTLE", amount: "charged" },
        { move: "HOLD_RELEASE", amount: "rest" },
      ],
      events: ["purchase.submitted"],
      due: null,
      note: "mined: the charge is spent, the rest of the hold released",
    },
    {
      from: ["SUBMITTING"],
      to: "FAILED",
      trigger: "relay_failed",
      moves: [{ move: "HOLD_RELEASE", amount: "hold" }],
      events: ["purchase.failed"],
      due: null,
      note: "the broadcast failed, reverted or is not on the chain",
    },
    {
      from: ["SUBMITTED"],
      to: "FULFILLED",
      trigger: "reveal",
      moves: [],
      events: ["purchase.fulfilled"],
      note: "VRF revealed every item",
    },
    {
      from: ["SUBMITTED"],
      to: "PARTIALLY_FULFILLED",
      trigger: "reveal_short",
      moves: [{ move: "REFUND_CREDIT", amount: "refund" }],
      events: ["purchase.fulfilled"],
      note: "an operator shortfall: the undelivered share paid back",
    },
    {
      from: ["SUBMITTED"],
      to: "REFUNDED",
      trigger: "refund",
      moves: [{ move: "REFUND_CREDIT", amount: "refund" }],
      events: ["purchase.refunded"],
      note: "refunded on chain before the reveal",
    },
  ],
  sideEvents: [
    { event: "pool.item_pulled", note: "POOL model: the reveal drew one item from the partner's pool (one per item)" },
    { event: "deposit.credited", note: "a USDC deposit credited the end user's custodial balance that purchases hold" },
  ],
};

export type InstantPurchaseTrigger =
  RelayerTrigger | "reserve" | "submit" | "relayed" | "relay_failed" | "open" | "refund" | "open_failed";
export type InstantPurchaseEvent =
  | "instant_purchase.reserved"
  | "instant_purchase.submitted"
  | "instant_purchase.fulfilled"
  | "instant_purchase.refunded"
  | "instant_purchase.failed";

export const INSTANT_PURCHASE: Lifecycle<InstantStatus, InstantPurchaseTrigger, WalletMove, InstantPurchaseEvent> = {
  name: "instant purchase",
  states: ["RESERVED", "PENDING", "SUBMITTED", "FULFILLED", "REFUNDED", "FAILED"],
  transitions: [
    {
      from: [START],
      to: "RESERVED",
      trigger: "reserve",
      moves: [{ move: "HOLD", amount: "hold" }],
      events: ["instant_purchase.reserved"],
      due: now(RELAY_PICKUP_MS),
      note: "the operator's custodial purchase, price held",
    },
    {
      from: [START],
      to: "SUBMITTED",
      trigger: "submit",
      moves: [],
      events: ["instant_purchase.submitted"],
      due: now(OPEN_TIMEOUT_MS),
      note: "submit: the wallet's buy-and-open transaction is mined",
    },
    ...relayerRows("instant_purchase.failed"),
    {
      from: ["RESERVED", "PENDING"],
      to: "SUBMITTED",
      trigger: "relayed",
      moves: [
        { move: "HOLD_SETTLE", amount: "charged" },
        { move: "HOLD_RELEASE", amount: "rest" },
      ],
      events: ["instant_purchase.submitted"],
      due: now(OPEN_TIMEOUT_MS),
      note: "the relayer bought and opened it on chain",
    },
    {
      from: ["RESERVED", "PENDING"],
      to: "FAILED",
      trigger: "relay_failed",
      moves: [{ move: "HOLD_RELEASE", amount: "hold" }],
      events: ["instant_purchase.failed"],
      due: null,
      note: "the chain refused the relayer's purchase",
    },
    {
      from: ["SUBMITTED"],
      to: "FULFILLED",
      trigger: "open",
      moves: [],
      events: ["instant_purchase.fulfilled"],
      due: null,
      note: "VRF drew a bundle: pack and cards",
    },
    {
      from: ["SUBMITTED"],
      to: "REFUNDED",
      trigger: "refund",
      moves: [{ move: "REFUND_CREDIT", amount: "refund" }],
      events: ["instant_purchase.refunded"],
      due: null,
      note: "paid back on chain by the operator",
    },
    {
      from: ["SUBMITTED"],
      to: "FAILED",
      trigger: "open_failed",
      moves: [{ move: "REFUND_CREDIT", amount: "refund" }],
      events: ["instant_purchase.failed"],
      due: null,
      note: "unopened past its timeout (or failed by the operator): paid back",
    },
  ],
};
