import { START, type Due, type Lifecycle, type TransitionSpec } from "../lifecycle.ts";
import { z } from "../zod.ts";
import { address, micros, txHash, usdcString as usdc } from "../primitives.ts";
import { int, purchaseItem, requestId } from "../event-shapes.ts";
import { CARD_CONTRACT, exampleItem, money } from "../event-fixtures.ts";
import type { PurchaseStatus } from "../mystery/purchases.ts";
import type { InstantStatus } from "../instant.ts";

// The purchase lifecycles of mystery and instant packs (docs/mystery.md, docs/instant.md), and the events they
// publish: each type's `data` in the shapes of docs/reference/sdk-shapes.md "Webhook event data".
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
export type MysteryPurchaseSideEvent = "pool.item_pulled" | "deposit.credited";

export const MYSTERY_PURCHASE: Lifecycle<
  PurchaseStatus,
  MysteryPurchaseTrigger,
  WalletMove,
  MysteryPurchaseEvent,
  MysteryPurchaseSideEvent
> = {
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
  catalogue: {
    "purchase.reserved": {
      data: z.looseObject({ purchase_id: int, status: z.literal("RESERVED") }),
      example: (f) => ({ purchase_id: f.id(1000), status: "RESERVED" }),
    },
    "purchase.submitted": {
      data: z.looseObject({
        purchase_id: int,
        status: z.literal("SUBMITTED"),
        transaction_hash: txHash.optional(),
        onchain_request_id: requestId.optional(),
        custody: z.literal("NON_CUSTODIAL").optional(),
      }),
      // As a non-custodial submit emits it: custody, no VRF request id (the custodial relayer's event carries
      // onchain_request_id instead of custody).
      example: (f) => ({
        purchase_id: f.id(1000),
        status: "SUBMITTED",
        transaction_hash: f.txHash(),
        custody: "NON_CUSTODIAL",
      }),
    },
    // PARTIALLY_FULFILLED rides on purchase.fulfilled (the live list has no event of its own for it).
    "purchase.fulfilled": {
      data: z.looseObject({
        purchase_id: int,
        status: z.enum(["FULFILLED", "PARTIALLY_FULFILLED"]),
        onchain_request_id: requestId.optional(),
        items: z.array(purchaseItem).optional(),
      }),
      example: (f) => ({
        purchase_id: f.id(1000),
        status: "FULFILLED",
        onchain_request_id: f.digits("vrf", 40),
        items: [exampleItem(f)],
      }),
    },
    "purchase.refunded": {
      data: z.looseObject({
        purchase_id: int,
        status: z.literal("REFUNDED"),
        onchain_request_id: requestId.optional(),
      }),
      example: (f) => ({ purchase_id: f.id(1000), status: "REFUNDED", onchain_request_id: f.digits("vrf", 40) }),
    },
    "purchase.failed": {
      data: z.looseObject({ purchase_id: int, status: z.literal("FAILED"), reason: z.string().min(1) }),
      example: (f) => ({ purchase_id: f.id(1000), status: "FAILED", reason: "vrf_timeout" }),
    },
  },
  sideEvents: [
    {
      event: "pool.item_pulled",
      note: "POOL model: the reveal drew one item from the partner's pool (one per item)",
      data: z.looseObject({
        token_id: z.string(),
        item_type: z.string(),
        contract_address: address,
        card_id: z.string().nullable(),
        category: z.string().nullable(),
        game: z.string().nullable(),
        to: address,
        transaction_hash: txHash.nullable(),
        amount_usdc: usdc,
        value_source: z.string(),
        value_unknown: z.boolean(),
        usage_id: int,
      }),
      example: (f) => ({
        token_id: f.digits("token", 12),
        item_type: "CARD",
        contract_address: CARD_CONTRACT,
        card_id: "base1-4",
        category: "card",
        game: "pokemon",
        to: f.address("end-user"),
        transaction_hash: f.txHash(),
        amount_usdc: money(312_450_000).usdc,
        value_source: "card_raw_price",
        value_unknown: false,
        usage_id: f.id(9000),
      }),
    },
    {
      event: "deposit.credited",
      note: "a USDC deposit credited the end user's custodial balance that purchases hold",
      data: z.looseObject({
        deposit_id: int,
        amount: micros,
        amount_usdc: usdc,
        chain_in: z.string(),
        token_in: z.string(),
        tx_hash: txHash,
      }),
      example: (f) => {
        const m = money(25_000_000);
        return {
          deposit_id: f.id(7000),
          amount: m.micros,
          amount_usdc: m.usdc,
          chain_in: "base",
          token_in: "USDC",
          tx_hash: f.txHash(),
        };
      },
    },
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
  catalogue: {
    "instant_purchase.reserved": {
      data: z.looseObject({ purchase_id: int, status: z.literal("RESERVED") }),
      example: (f) => ({ purchase_id: f.id(2000), status: "RESERVED" }),
    },
    "instant_purchase.submitted": {
      data: z.looseObject({
        purchase_id: int,
        status: z.literal("SUBMITTED"),
        transaction_hash: txHash.optional(),
        store_request_id: z.union([z.string(), int]).nullable().optional(),
        pool_request_id: z.union([z.string(), int]).nullable().optional(),
        custody: z.literal("NON_CUSTODIAL").optional(),
      }),
      example: (f) => ({
        purchase_id: f.id(2000),
        status: "SUBMITTED",
        transaction_hash: f.txHash(),
        store_request_id: f.digits("store", 20),
        pool_request_id: f.digits("pool", 40),
        custody: "NON_CUSTODIAL",
      }),
    },
    "instant_purchase.fulfilled": {
      data: z.looseObject({ status: z.string(), id: int.optional(), purchase_id: int.optional() }),
      example: (f) => ({
        id: f.id(2000),
        purchase_id: f.id(2000),
        status: "FULFILLED",
        packet_type_id: 3,
        quantity: 1,
        price: money(10_000_000).micros,
        price_usdc: money(10_000_000).usdc,
        transaction_hash: f.txHash(),
        cards: [exampleItem(f)],
      }),
    },
    "instant_purchase.refunded": {
      data: z.looseObject({ purchase_id: int, status: z.literal("REFUNDED") }),
      example: (f) => ({ purchase_id: f.id(2000), status: "REFUNDED" }),
    },
    "instant_purchase.failed": {
      data: z.looseObject({ purchase_id: int, status: z.literal("FAILED"), reason: z.string() }),
      example: (f) => ({ purchase_id: f.id(2000), status: "FAILED", reason: "unknown" }),
    },
  },
};
