import { eventsOf } from "../../../contract/lifecycle.ts";
import { MYSTERY_PURCHASE, type MysteryPurchaseEvent } from "../../../contract/lifecycles/purchases.ts";
import {
  BUYBACK_OFFER,
  BUYBACK_TRANSFER,
  type OfferEvent,
  type TransferEvent,
} from "../../../contract/lifecycles/buyback.ts";
import { REDEMPTION, type RedemptionEvent } from "../../../contract/lifecycles/redemption.ts";
import { PAYOUT_STATEMENT, type PayoutEvent } from "../../../contract/lifecycles/payout-statement.ts";
import { parseUsdc } from "../../../contract/money.ts";
import type { PayloadBuilders, SideBuilders } from "../../events/payloads.ts";
import type { Services } from "../../pipeline/services.ts";
import type { PayoutStatement } from "./revenue/revenue.ts";
import {
  mystery,
  type ItemRow,
  type OfferRow,
  type PurchaseRow,
  type RedemptionRow,
  type TransferRow,
} from "./state.ts";
import { usdc } from "../../../contract/money.ts";

// Every payload the mystery area publishes, one builder per event type of its tables (contract/lifecycles/
// purchases.ts, redemption.ts, buyback.ts, payout-statement.ts: rows and side events), in the shapes of
// docs/reference/sdk-shapes.md “Webhook event data”. The lifecycle code publishes
// through these (emulator/events/publish.ts), never writes a payload inline, so every emission of an event
// has the same keys; a table's new event fails to compile until its builder is here.

/** Every event type the mystery area's tables declare (GET /_emulator/mystery/events shows these). */
export const MYSTERY_EVENT_TYPES: readonly string[] = [
  MYSTERY_PURCHASE,
  REDEMPTION,
  BUYBACK_OFFER,
  BUYBACK_TRANSFER,
  PAYOUT_STATEMENT,
].flatMap((lc) => eventsOf(lc));

// ---------------------------------------------------------------- purchases

/** A revealed item as webhooks carry it (WebhookPurchaseItem): the purchase's item without internals. */
export const webhookItem = ({ group_id: _g, ...item }: ItemRow) => item;

const byId = (p: PurchaseRow) => String(p.id);

export const PURCHASE_PAYLOADS: PayloadBuilders<MysteryPurchaseEvent, PurchaseRow> = {
  /** A custodial purchase took its hold. */
  "purchase.reserved": (p) => ({ key: byId(p), data: { purchase_id: p.id, status: "RESERVED" } }),
  /** Custodial (relayer) with the hash and the VRF request; non-custodial with custody. */
  "purchase.submitted": (p) => ({
    key: byId(p),
    data:
      p.custody === "CUSTODIAL"
        ? {
            purchase_id: p.id,
            status: "SUBMITTED",
            transaction_hash: p.transaction_hash,
            onchain_request_id: p.onchain_request_id,
          }
        : { purchase_id: p.id, status: "SUBMITTED", transaction_hash: p.transaction_hash, custody: "NON_CUSTODIAL" },
  }),
  /**
   * Also sent for PARTIALLY_FULFILLED (the live list has no event of its own for it); `status` then says
   * PARTIALLY_FULFILLED and `items` lists only the delivered items.
   */
  "purchase.fulfilled": (p) => ({
    key: byId(p),
    data: {
      purchase_id: p.id,
      status: p.status === "PARTIALLY_FULFILLED" ? "PARTIALLY_FULFILLED" : "FULFILLED",
      onchain_request_id: p.onchain_request_id,
      items: (p.items ?? []).map(webhookItem),
    },
  }),
  "purchase.refunded": (p) => ({
    key: byId(p),
    data: { purchase_id: p.id, status: "REFUNDED", onchain_request_id: p.onchain_request_id },
  }),
  "purchase.failed": (p) => ({
    key: byId(p),
    data: { purchase_id: p.id, status: "FAILED", reason: p.failure_reason ?? "unknown" },
  }),
};

/** An item a reveal drew from a POOL partner's pool, and the pool usage it counts as. */
export interface PulledItem {
  s: Services;
  p: PurchaseRow;
  item: ItemRow;
  usageId: number;
  cardContract: string;
  revealTx: string | null;
}

/** A deposit as deposit.credited carries it. */
export interface CreditedDeposit {
  id: number;
  amount_micros: string;
  tx_hash: string;
}

/** The side events of the purchase table (contract/lifecycles/purchases.ts `sideEvents`). */
export const PURCHASE_SIDE_PAYLOADS = {
  /**
   * POOL model only: one per item a reveal drew from the partner's pool. `usage_id` numbers the pool usages;
   * `value_source` is where the item's value came from (the pool's on-chain oracle value, set at mint);
   * `transaction_hash` is the reveal's when known.
   */
  "pool.item_pulled": ({ s, p, item, usageId, cardContract, revealTx }: PulledItem) => {
    const value = parseUsdc(item.value_usd) ?? 0n;
    return {
      key: `${item.token_id}`,
      data: {
        token_id: item.token_id,
        item_type: item.item_type,
        contract_address: cardContract,
        card_id: item.card_id ?? null,
        category: item.category,
        game: item.card_id ? (s.catalog.cardAnyGame(item.card_id)?.game ?? null) : null,
        to: p.purchaser_address,
        transaction_hash: revealTx,
        amount_usdc: usdc(value),
        value_source: "buyback_oracle",
        value_unknown: value === 0n,
        usage_id: usageId,
        purchase_id: p.id,
      },
    };
  },
  /** A USDC deposit credited an end user's custodial balance. */
  "deposit.credited": (d: CreditedDeposit) => ({
    key: String(d.id),
    data: {
      deposit_id: d.id,
      amount: d.amount_micros,
      amount_usdc: usdc(BigInt(d.amount_micros)),
      chain_in: "base",
      token_in: "USDC",
      tx_hash: d.tx_hash,
    },
  }),
} satisfies SideBuilders;

// ---------------------------------------------------------------- redemptions

export const REDEMPTION_PAYLOADS: PayloadBuilders<RedemptionEvent, RedemptionRow> = {
  "redemption.prepared": ({ redemption_id, purchase_id, token_id, item_type, status }) => ({
    key: String(redemption_id),
    data: { redemption_id, purchase_id, token_id, item_type, status },
  }),
  "redemption.updated": (r) => ({
    key: `${r.redemption_id}:${r.status}`,
    data: {
      redemption_id: r.redemption_id,
      purchase_id: r.purchase_id,
      token_id: r.token_id,
      item_type: r.item_type,
      status: r.status,
      burn_tx_hash: r.burn_tx_hash,
      failure_reason: r.failure_reason,
    },
  }),
};

// ---------------------------------------------------------------- buyback and sell-back

/** The common buyback keys B (purchase_id is null for an offer made token-first). */
const common = (o: OfferRow) => ({ purchase_id: o.purchase_id, offer_id: o.offer_id, token_id: o.token_id });

/** The marketplace's OfferAccepted log of an offer, as buyback.confirmed carries it. */
export interface AcceptedLog {
  seller?: string;
  sellerAmount?: bigint;
  fee?: bigint;
  transactionHash: string;
}

export const OFFER_PAYLOADS: PayloadBuilders<OfferEvent, { o: OfferRow; accepted: AcceptedLog }> = {
  /** The marketplace's OfferAccepted log of the offer (extra keys: seller, fee, transaction). */
  "buyback.confirmed": ({ o, accepted }) => ({
    key: String(o.offer_id),
    data: {
      ...common(o),
      status: "accepted",
      seller_receives_usdc: usdc(accepted.sellerAmount ?? 0n),
      seller: accepted.seller,
      marketplace_fee_usdc: usdc(accepted.fee ?? 0n),
      transaction_hash: accepted.transactionHash,
    },
  }),
};

/** A sell-back as sellback.confirmed carries it. */
export interface ConfirmedSellback {
  sellback_id: number;
  seller: string;
  token_ids: string[];
  total_micros: string;
  transaction_hash: string;
}

/** The side event of the offer table (contract/lifecycles/buyback.ts `sideEvents`). */
export const OFFER_SIDE_PAYLOADS = {
  /** The pool bought the cards back at once (POST /mystery/sellback/submit). */
  "sellback.confirmed": (row: ConfirmedSellback) => ({
    key: String(row.sellback_id),
    data: {
      sellback_id: row.sellback_id,
      seller: row.seller,
      token_ids: row.token_ids,
      total_usdc: usdc(row.total_micros),
      transaction_hash: row.transaction_hash,
    },
  }),
} satisfies SideBuilders;

/** What a forwarding's events are built from: the row as moved, and what the attempt said. */
export interface TransferInput {
  s: Services;
  t: TransferRow;
  /** buyback.transfer_held's reason code, and the message of a held or failed attempt. */
  reason?: string;
  message?: string;
  /** The card contract (buyback.card_transferred). */
  contract?: string;
}

const needs = <T>(v: T | undefined, what: string): T => {
  if (v === undefined) throw new Error(`mystery payloads: ${what} needs it from the forwarding attempt`);
  return v;
};

const transferBase = (s: Services, t: TransferRow) => {
  const o = mystery(s).offers[t.offer_id]!;
  return { ...common(o), token_id: t.token_id, offer_signature: o.offer_signature };
};

export const TRANSFER_PAYLOADS: PayloadBuilders<TransferEvent, TransferInput> = {
  /** The card reached the partner's pool wallet. */
  "buyback.card_transferred": ({ s, t, contract }) => ({
    key: String(t.offer_id),
    data: {
      ...transferBase(s, t),
      contract_address: needs(contract, "buyback.card_transferred"),
      to_address: t.to_address,
      tx_hash: t.tx_hash,
    },
  }),
  /** No pool wallet (or a failed attempt); sent once, then retried every 15 minutes. */
  "buyback.transfer_held": ({ s, t, reason, message }) => ({
    key: String(t.offer_id),
    data: { ...transferBase(s, t), reason: needs(reason, "buyback.transfer_held"), message },
  }),
  /** The last of the 10 attempts failed (extra key: attempts). */
  "buyback.transfer_failed": ({ s, t, message }) => ({
    key: String(t.offer_id),
    data: { ...transferBase(s, t), error: needs(message, "buyback.transfer_failed"), attempts: t.attempts },
  }),
};

// ---------------------------------------------------------------- payout statements

/** Both payout events carry the statement as it is after the move. */
const statement = (st: PayoutStatement) => ({
  key: String(st.payout_id),
  data: structuredClone(st) as unknown as Record<string, unknown>,
});

export const PAYOUT_PAYLOADS: PayloadBuilders<PayoutEvent, PayoutStatement> = {
  "payout.statement_ready": statement,
  "payout.paid": statement,
};
