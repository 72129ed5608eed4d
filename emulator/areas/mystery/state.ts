import { defineSlice } from "../../state/slices.ts";
import { mysterySchema, purchaseRecord } from "./state-schema.ts";
import type { z } from "zod";
import type { Services } from "../../pipeline/services.ts";
import { seedEndUsers, seedPartners, upgradeMysterySlice, type PartnerRow } from "./seed.ts";
import type { OfferStatus, TransferStatus } from "../../../contract/lifecycles/buyback.ts";

// The mystery area's slice of the store: plain JSON, re-read on every use
// (restore/reset/import replace the whole object).

// Every purchase status (contract/mystery/purchases.ts); contract/lifecycles/purchases.ts says how each is reached.
export { PURCHASE_STATUSES, type PurchaseStatus } from "../../../contract/index.ts";
import type { PurchaseStatus } from "../../../contract/index.ts";

/** The terminal successes: the reveal landed and `items` are the items delivered (all, or all but a shortfall). */
export const isRevealed = (status: PurchaseStatus): boolean =>
  status === "FULFILLED" || status === "PARTIALLY_FULFILLED";

export type ItemTypeName = "CARD" | "GRADED_CARD" | "PACKET" | "SEALED_PRODUCT";

export interface ItemRow {
  token_id: string;
  item_type: ItemTypeName;
  category: "card" | "product" | "unknown";
  card_id?: string;
  name: string;
  image_url: string | null;
  value_usd: string;
  rarity?: string;
  card_number?: string;
  set_id?: string;
  group_id: number;
}

/** A purchase as the state keeps it: declared once, by its import schema (state-schema.ts). */
export type PurchaseRow = z.output<typeof purchaseRecord>;

export interface EndUserRow {
  /** The service's own numeric id of the end user (wallet.balance end_user.id); assigned on first reference. */
  id?: number;
  external_user_id: string;
  wallet_address: string;
  balance_micros: string;
  reserved_micros: string;
}

// The wire's lifecycle (contract/mystery/redemption.ts); KYC pending is PREPARED with kyc_status PENDING.
export { REDEMPTION_STATUSES, type RedemptionStatus } from "../../../contract/mystery/redemption.ts";
import type { KycStatus, RedemptionShippingQuote, RedemptionStatus } from "../../../contract/mystery/redemption.ts";
export const LIVE_REDEMPTION: readonly RedemptionStatus[] = ["PREPARED", "BURN_SUBMITTED", "IN_FULFILLMENT"];

export type { ShippingAddress } from "../../shipping/address.ts";
import type { ShippingAddress } from "../../shipping/address.ts";

/** A rate as the carrier table gives it (every field known); the wire allows nulls. */
export type ShippingQuote = { [K in keyof RedemptionShippingQuote]: NonNullable<RedemptionShippingQuote[K]> };

export interface RedemptionRow {
  redemption_id: number;
  account_id: string;
  idempotency_key: string;
  purchase_id: number;
  token_id: string;
  item_type: ItemTypeName;
  holder: string;
  status: RedemptionStatus;
  /** PENDING: the partner requires KYC and the holder is not approved yet (no calls until then). */
  kyc_status: KycStatus;
  shipping_address: ShippingAddress;
  shipping_quote: ShippingQuote;
  burn_type: number;
  burn_tx_hash: string | null;
  is_burned: boolean;
  tracking_number: string | null;
  failure_reason: string | null;
  /** Auto mode: when the warehouse takes the next step (virtual-clock ms; contract/lifecycles/redemption.ts). */
  due_at_ms: number | null;
  expires_at: string;
  /** The holder pays shipping on chain (redemption/payment.ts); absent on rows of older state files. */
  shipping?: RedemptionShipping;
  created_at: string;
  updated_at: string;
}

/** The shipping payment of a redemption: the signed quote the holder pays with payShipping. */
export interface RedemptionShipping {
  payer: string;
  processor: string;
  total_micros: string;
  /** Unix seconds (= expires_at). */
  expiration_time: number;
  provider_order_id: string;
  /** The shipping signer's EIP-712 signature of the quote. */
  signature: string;
  /** The ShippingPaid transaction once seen on chain. */
  paid_tx_hash: string | null;
  /** Paid back to the payer when the redemption ended without shipping. */
  refund_tx_hash: string | null;
}

export interface OfferRow {
  offer_id: number;
  account_id: string;
  purchase_id: number | null;
  token_id: string;
  item_type: ItemTypeName;
  offer_hash: string;
  offer_signature: string;
  target: string;
  price_micros: string;
  fee_micros: string;
  value_micros: string;
  deadline: number;
  status: OfferStatus;
  accepted_at: string | null;
  accept_tx_hash: string | null;
  created_at: string;
}

export interface TransferRow {
  offer_id: number;
  account_id: string;
  token_id: string;
  status: TransferStatus;
  attempts: number;
  /** When the next forwarding attempt is due (virtual-clock ms; contract/lifecycles/buyback.ts); null once done. */
  due_at_ms: number | null;
  to_address: string | null;
  tx_hash: string | null;
  last_error: string | null;
}

export interface WalletRow {
  chain: string;
  address: string;
  is_active: boolean;
  created_at: string;
}

export interface SellbackRow {
  sellback_id: number;
  account_id: string;
  seller: string;
  token_ids: string[];
  total_micros: string;
  transaction_hash: string;
  sold_at: string;
}

export interface EventRow {
  account_id: string;
  type: string;
  key: string;
  data: Record<string, unknown>;
  at: string;
}

export type { PartnerRow } from "./seed.ts";

export interface MysterySlice {
  /** Each fixture partner's facts by account id, copied in when the slice was seeded (seed.ts; partners.ts reads them). */
  partners: Record<string, PartnerRow>;
  purchases: Record<string, PurchaseRow>;
  /** account → external_user_id → custodial end user. */
  end_users: Record<string, Record<string, EndUserRow>>;
  redemptions: Record<string, RedemptionRow>;
  /** `${account}\u0000${key}` → redemption id. */
  redemption_keys: Record<string, number>;
  /** `${account}:${wallet lower}` → KYC decision. */
  kyc: Record<string, "APPROVED" | "DECLINED">;
  offers: Record<string, OfferRow>;
  transfers: Record<string, TransferRow>;
  pool_wallets: Record<string, WalletRow[]>;
  payout_wallets: Record<string, WalletRow[]>;
  sellbacks: Record<string, SellbackRow>;
  /** Older states only: the one event log is emulator/events/log.ts. */
  events?: EventRow[];
  warehouse_mode: "auto" | "manual";
  /** Control plane: "off" makes the relayer refuse to broadcast (custodial FAILED, relayed accept 503). */
  relayer: "on" | "off";
  /** Control plane: per-partner KYC switch (absent: the partner's seeded `kyc_required`). */
  kyc_required?: Record<string, boolean>;
  /** Control plane: "off" makes redemption prepare answer 503 shipping_signer_unavailable. */
  shipping_signer?: "on" | "off";
}

/** A new slice: the partner fixtures' facts and end users copied in (seed.ts), nothing else yet. */
function initial(): MysterySlice {
  return {
    partners: seedPartners(),
    purchases: {},
    end_users: seedEndUsers(),
    redemptions: {},
    redemption_keys: {},
    kyc: {},
    offers: {},
    transfers: {},
    pool_wallets: {},
    payout_wallets: {},
    sellbacks: {},
    warehouse_mode: "auto",
    relayer: "on",
    kyc_required: {},
    shipping_signer: "on",
  };
}

const MYSTERY_SLICE = defineSlice<MysterySlice>({
  name: "mystery",
  init: initial,
  schema: mysterySchema,
  upgrade: upgradeMysterySlice,
});

export const mystery = (s: Services): MysterySlice => s.store.slice(MYSTERY_SLICE);
