import { START, type Due, type Lifecycle } from "../lifecycle.ts";
import type { OFFER_STATUSES } from "../mystery/buyback.ts";
import { z } from "../zod.ts";
import { address, txHash, usdcString as usdc } from "../primitives.ts";
import { buybackKeys, int } from "../event-shapes.ts";
import { CARD_CONTRACT, money, POOL_WALLET, type Fixtures } from "../event-fixtures.ts";

// Buyback (docs/mystery.md "Buyback"): an offer the pool signer signed is
// active until the holder accepts it on chain, it expires or its token is
// burned; an accepted offer's card is then forwarded to the partner's pool
// wallet, held and retried while none is set, failed after TRANSFER_MAX_ATTEMPTS.

/** A held forwarding is tried again this long after the last attempt. */
export const TRANSFER_RETRY_MS = 15 * 60 * 1000;
/** Forwarding fails for good after this many attempts. */
export const TRANSFER_MAX_ATTEMPTS = 10;

export type OfferStatus = (typeof OFFER_STATUSES)[number];
export type OfferTrigger = "offer" | "accept" | "expire" | "cancel";

/** buyback.confirmed on acceptance (sellback.confirmed, the pool buying cards back at once, is a side event). */
export type OfferEvent = "buyback.confirmed";
export type OfferSideEvent = "sellback.confirmed";

/** The keys every buyback.* example carries. */
const exampleKeys = (f: Fixtures) => ({ purchase_id: f.id(1000), offer_id: f.id(5000) });

export const BUYBACK_OFFER: Lifecycle<OfferStatus, OfferTrigger, never, OfferEvent, OfferSideEvent> = {
  name: "buyback offer",
  states: ["active", "accepted", "cancelled", "expired"],
  transitions: [
    { from: [START], to: "active", trigger: "offer", moves: [], events: [], note: "the pool signer signs the offer" },
    {
      from: ["active"],
      to: "accepted",
      trigger: "accept",
      moves: [],
      events: ["buyback.confirmed"],
      note: "OfferAccepted on chain (holder or relayed): the card is forwarded",
    },
    { from: ["active"], to: "expired", trigger: "expire", moves: [], events: [], note: "unused past its deadline" },
    {
      from: ["active"],
      to: "cancelled",
      trigger: "cancel",
      moves: [],
      events: [],
      note: "its token burned, or its hash confirmed another offer",
    },
  ],
  catalogue: {
    "buyback.confirmed": {
      data: z.looseObject({ ...buybackKeys, status: z.literal("accepted"), seller_receives_usdc: usdc }),
      example: (f) => ({
        ...exampleKeys(f),
        token_id: f.digits("token", 12),
        status: "accepted",
        seller_receives_usdc: money(258_100_000).usdc,
      }),
    },
  },
  sideEvents: [
    {
      event: "sellback.confirmed",
      note: "a sell-back (POST /mystery/sellback/submit): the pool bought the cards at once",
      data: z.looseObject({
        sellback_id: int,
        seller: address,
        token_ids: z.array(z.string()),
        total_usdc: usdc,
        transaction_hash: txHash,
      }),
      example: (f) => ({
        sellback_id: f.id(6000),
        seller: f.address("seller"),
        token_ids: [f.digits("token", 12), f.digits("token-2", 12)],
        total_usdc: money(41_800_000).usdc,
        transaction_hash: f.txHash(),
      }),
    },
  ],
};

export type TransferStatus = "pending" | "held" | "transferred" | "failed";
export type TransferTrigger = "forward" | "transferred" | "hold" | "retry" | "fail";
export type TransferEvent = "buyback.card_transferred" | "buyback.transfer_held" | "buyback.transfer_failed";

const later: Due = { after_ms: TRANSFER_RETRY_MS, since: "now" };

export const BUYBACK_TRANSFER: Lifecycle<TransferStatus, TransferTrigger, never, TransferEvent> = {
  name: "buyback transfer",
  states: ["pending", "held", "transferred", "failed"],
  transitions: [
    {
      from: [START],
      to: "pending",
      trigger: "forward",
      moves: [],
      events: [],
      due: { after_ms: 0, since: "now" },
      note: "the offer is accepted: the card is due for the pool wallet",
    },
    {
      from: ["pending", "held"],
      to: "transferred",
      trigger: "transferred",
      moves: [],
      events: ["buyback.card_transferred"],
      due: null,
      note: "sent to the active pool wallet",
    },
    {
      from: ["pending"],
      to: "held",
      trigger: "hold",
      moves: [],
      events: ["buyback.transfer_held"],
      due: later,
      note: "no pool wallet, or the transfer failed: retried",
    },
    { from: ["held"], to: "held", trigger: "retry", moves: [], events: [], due: later, note: "failed again: retried" },
    {
      from: ["pending", "held"],
      to: "failed",
      trigger: "fail",
      moves: [],
      events: ["buyback.transfer_failed"],
      due: null,
      note: "the last of TRANSFER_MAX_ATTEMPTS failed",
    },
  ],
  catalogue: {
    "buyback.card_transferred": {
      data: z.looseObject({
        ...buybackKeys,
        offer_signature: z.string(),
        contract_address: address,
        to_address: address,
        tx_hash: txHash,
      }),
      example: (f) => ({
        ...exampleKeys(f),
        offer_signature: f.hex("offer-sig", 65),
        token_id: f.digits("token", 12),
        contract_address: CARD_CONTRACT,
        to_address: POOL_WALLET,
        tx_hash: f.txHash(),
      }),
    },
    "buyback.transfer_held": {
      data: z.looseObject({ ...buybackKeys, offer_signature: z.string(), reason: z.string(), message: z.string() }),
      example: (f) => ({
        ...exampleKeys(f),
        offer_signature: f.hex("offer-sig", 65),
        token_id: f.digits("token", 12),
        reason: "pool_wallet_not_set",
        message:
          "No active pool wallet is set; the transfer is retried every 15 minutes. Set one with PUT /api/v1/mystery/pool-wallet.",
      }),
    },
    "buyback.transfer_failed": {
      data: z.looseObject({ ...buybackKeys, offer_signature: z.string(), error: z.string() }),
      example: (f) => ({
        ...exampleKeys(f),
        offer_signature: f.hex("offer-sig", 65),
        token_id: f.digits("token", 12),
        error: "transfer failed after 10 attempts: no active pool wallet",
      }),
    },
  },
};
