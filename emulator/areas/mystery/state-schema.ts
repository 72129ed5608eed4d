import { z } from "zod";
import {
  KYC_STATUSES,
  OFFER_STATUSES,
  PURCHASE_STATUSES,
  REDEMPTION_STATUSES,
  ShippingAddress,
} from "../../../contract/index.ts";
import {
  address,
  count,
  decimal,
  hash32,
  hexBytes,
  isoTime,
  json,
  ownRecord,
  timeMs,
  uint,
  unixSeconds,
} from "../../state/fields.ts";

// The mystery slice's records in full (state.ts), what an import is held to:
// every amount is one BigInt reads, every address one getAddress takes,
// every time inside the clock's range.

const text = z.string();
const itemType = z.enum(["CARD", "GRADED_CARD", "PACKET", "SEALED_PRODUCT"]);
const custody = z.enum(["CUSTODIAL", "NON_CUSTODIAL"]);

const item = z.strictObject({
  token_id: uint,
  item_type: itemType,
  category: z.enum(["card", "product", "unknown"]),
  card_id: text.optional(),
  name: text,
  image_url: text.nullable(),
  value_usd: decimal,
  rarity: text.optional(),
  card_number: text.optional(),
  set_id: text.optional(),
  group_id: count,
});

/** A purchase as the state keeps it: its type is this schema's output (`PurchaseRow`, state.ts). */
export const purchaseRecord = z.strictObject({
  id: count,
  account_id: text,
  custody,
  status: z.enum(PURCHASE_STATUSES),
  tier_id: count,
  price_micros: uint,
  onchain_request_id: uint.nullable(),
  transaction_hash: hash32.nullable(),
  purchaser_address: address,
  external_user_id: text.nullable(),
  failure_reason: text.nullable(),
  reserved_at: isoTime.nullable(),
  submitted_at: isoTime.nullable(),
  fulfilled_at: isoTime.nullable(),
  created_at: isoTime,
  items: z.array(item).nullable(),
  /** Custodial lifecycle: when the worker takes the next step (virtual-clock ms); null when none waits. */
  due_at_ms: timeMs.nullable().optional(),
  /** Custodial: the price cap the relayer sends with purchaseFor (micros). */
  max_price_micros: uint.optional(),
  /** The operator's shortfall mark (purchases/shortfall.ts); what applies is read from the chain at the reveal. */
  shortfall: count.optional(),
  /** PARTIALLY_FULFILLED: the price share paid back for the undelivered items (micros). */
  refunded_micros: uint.optional(),
  /** The block of the purchase's transaction, where the search for its reveal log starts (older rows lack it). */
  block_number: count.optional(),
});

const endUser = z.strictObject({
  id: count.optional(),
  external_user_id: text,
  wallet_address: address,
  balance_micros: uint,
  reserved_micros: uint,
});

/** A carrier quote as redemptions keep it (every field known). */
const quote = z.strictObject({
  amount_usdc: z.string().regex(/^(0|[1-9]\d{0,17})(\.\d{1,6})?$/, "must be a USD amount with at most 6 decimals"),
  currency: text,
  carrier: text,
  service: text,
  service_token: text,
  estimated_days: count,
  rate_id: text,
  quoted_at: isoTime,
});

const redemption = z.strictObject({
  redemption_id: count,
  account_id: text,
  idempotency_key: text,
  purchase_id: count,
  token_id: uint,
  item_type: itemType,
  holder: address,
  status: z.enum(REDEMPTION_STATUSES),
  kyc_status: z.enum(KYC_STATUSES),
  shipping_address: ShippingAddress.strict(),
  shipping_quote: quote,
  burn_type: count,
  burn_tx_hash: hash32.nullable(),
  is_burned: z.boolean(),
  tracking_number: text.nullable(),
  failure_reason: text.nullable(),
  due_at_ms: timeMs.nullable(),
  expires_at: isoTime,
  shipping: z
    .strictObject({
      payer: address,
      processor: address,
      total_micros: uint,
      expiration_time: unixSeconds,
      provider_order_id: text,
      signature: hexBytes,
      paid_tx_hash: hash32.nullable(),
      refund_tx_hash: hash32.nullable(),
    })
    .optional(),
  created_at: isoTime,
  updated_at: isoTime,
});

const offer = z.strictObject({
  offer_id: count,
  account_id: text,
  purchase_id: count.nullable(),
  token_id: uint,
  item_type: itemType,
  offer_hash: hash32,
  offer_signature: hexBytes,
  target: address,
  price_micros: uint,
  fee_micros: uint,
  value_micros: uint,
  deadline: unixSeconds,
  status: z.enum(OFFER_STATUSES),
  accepted_at: isoTime.nullable(),
  accept_tx_hash: hash32.nullable(),
  created_at: isoTime,
});

const transfer = z.strictObject({
  offer_id: count,
  account_id: text,
  token_id: uint,
  status: z.enum(["pending", "held", "transferred", "failed"]),
  attempts: count,
  due_at_ms: timeMs.nullable(),
  to_address: address.nullable(),
  tx_hash: hash32.nullable(),
  last_error: text.nullable(),
});

const wallet = z.strictObject({ chain: text, address, is_active: z.boolean(), created_at: isoTime });

const sellback = z.strictObject({
  sellback_id: count,
  account_id: text,
  seller: address,
  token_ids: z.array(uint),
  total_micros: uint,
  transaction_hash: hash32,
  sold_at: isoTime,
});

const event = z.strictObject({ account_id: text, type: text, key: text, data: ownRecord(json), at: isoTime });

/** A partner's seeded facts (seed.ts); older files lack them and get the fixtures' on import (seed.ts upgrade). */
const partner = z.strictObject({ slug: text, kyc_required: z.boolean() });

export const mysterySchema = z.strictObject({
  partners: ownRecord(partner),
  purchases: ownRecord(purchaseRecord),
  end_users: ownRecord(ownRecord(endUser)),
  redemptions: ownRecord(redemption),
  redemption_keys: ownRecord(count),
  kyc: ownRecord(z.enum(["APPROVED", "DECLINED"])),
  offers: ownRecord(offer),
  transfers: ownRecord(transfer),
  pool_wallets: ownRecord(z.array(wallet)),
  payout_wallets: ownRecord(z.array(wallet)),
  sellbacks: ownRecord(sellback),
  /** The area's old event log: read from older states, no longer written (emulator/events/log.ts keeps one log). */
  events: z.array(event).optional(),
  warehouse_mode: z.enum(["auto", "manual"]),
  relayer: z.enum(["on", "off"]),
  // Added after states were first written: absent in older files.
  kyc_required: ownRecord(z.boolean()).optional(),
  shipping_signer: z.enum(["on", "off"]).optional(),
});
