import { START, type Due, type Lifecycle } from "../lifecycle.ts";
import type { OFFER_STATUSES } from "../mystery/buyback.ts";

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
export const BUYBACK_OFFER: Lifecycle<OfferStatus, OfferTrigger, never, OfferEvent> = {
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
  sideEvents: [
    {
      event: "sellback.confirmed",
      note: "a sell-back (POST /mystery/sellback/submit): the pool bought the cards at once",
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
};
