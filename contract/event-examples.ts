import { createHash } from "node:crypto";
import type { EventType } from "./events.ts";

// A realistic `data` payload for every webhook event type, in the live
// service's shapes (docs/webhooks.md "Events"; the warehouse ones are ours).
// Deterministic from the type and a sequence number. The emulator's
// `POST /_emulator/events` builds from here, and the receiver check sends these.

export type Payload = Record<string, unknown>;

export interface FixtureContext {
  /** Sequence number of the triggered event: different n, different ids and hashes. */
  n: number;
  /** Virtual time of the event (ISO-8601). */
  now: string;
}

type Builder = (f: Fixtures) => Payload;

/** Deterministic fixture values derived from the event type and n. */
class Fixtures {
  constructor(
    readonly type: EventType,
    readonly ctx: FixtureContext,
  ) {}
  get n(): number {
    return this.ctx.n;
  }
  get now(): string {
    return this.ctx.now;
  }
  hex(label: string, bytes: number): string {
    let out = "";
    for (let i = 0; out.length < bytes * 2; i++)
      out += createHash("sha256")
        .update(`cardos-emulator:event:${this.type}:${this.ctx.n}:${label}:${i}`)
        .digest("hex");
    return `0x${out.slice(0, bytes * 2)}`;
  }
  txHash(label = "tx"): string {
    return this.hex(label, 32);
  }
  address(label: string): string {
    return this.hex(`addr:${label}`, 20);
  }
  /** A decimal-digit string (token ids, VRF request ids are uint256 strings). */
  digits(label: string, length: number): string {
    const h = this.hex(label, 32).slice(2);
    let out = "";
    for (let i = 0; out.length < length; i++)
      out += (parseInt(h.slice((i * 2) % 64, ((i * 2) % 64) + 2), 16) % 10).toString();
    return out.replace(/^0/, "1");
  }
  id(base: number): number {
    return base + this.ctx.n;
  }
}

/** Integer micros → `{micros string, decimal usdc string}`. */
export function money(micros: number): { micros: string; usdc: string } {
  // Integer arithmetic only: a float division would round large amounts.
  const m = BigInt(micros);
  return { micros: m.toString(), usdc: `${m / 1_000_000n}.${(m % 1_000_000n).toString().padStart(6, "0")}` };
}

// Contract addresses in fixtures are stable across events (one deployment).
const CARD_CONTRACT = "0x5fbdb2315678afecb367f032d93f642f64180aa3";
const POOL_WALLET = "0x70997970c51812dc3a010c7d01b50e0d17dc79c8";

const purchaseItem = (f: Fixtures) => ({
  token_id: f.digits("token", 12),
  item_type: "CARD",
  category: "card",
  card_id: "base1-4",
  name: "Charizard",
  image_url: "https://images.pokemontcg.io/base1/4_hires.png",
  value_usd: "312.45",
  rarity: "Rare Holo",
  card_number: "4",
  set_id: "base1",
});

const payoutStatement = (f: Fixtures, status: "PENDING" | "PAID"): Payload => {
  const gross = money(48_250_000_000);
  const sellback = money(6_120_000_000);
  const net = money(42_130_000_000);
  const share = money(2_106_500_000);
  return {
    payout_id: f.id(300),
    period: { kind: "QUARTERLY", from: "2025-10-01T00:00:00.000Z", to: "2026-01-01T00:00:00.000Z" },
    qualifying_packs: 1930,
    gross_usdc: gross.usdc,
    sellback_count: 214,
    sellback_usdc: sellback.usdc,
    net_usdc: net.usdc,
    revenue_share_bps: 500,
    revenue_share_pct: "5.00",
    revenue_share_usdc: share.usdc,
    fees_usdc: "0.000000",
    rip_retained_usdc: money(40_023_500_000).usdc,
    by_product: {
      tier: {
        packs: 1930,
        gross_usdc: gross.usdc,
        sellback_count: 214,
        sellback_usdc: sellback.usdc,
        net_usdc: net.usdc,
        share_bps: 500,
        share_usdc: share.usdc,
      },
      instant: {
        packs: 0,
        gross_usdc: "0.000000",
        sellback_usdc: "0.000000",
        net_usdc: "0.000000",
        share_bps: 100,
        share_usdc: "0.000000",
      },
    },
    payout_usdc: share.usdc,
    payout_micros: share.micros,
    status,
    payout_address: f.address("payout"),
    chain: "base",
    tx_hash: status === "PAID" ? f.txHash("payout") : null,
    paid_at: status === "PAID" ? f.now : null,
  };
};

/** One realistic `data` per event type. */
export const EVENT_EXAMPLES: Record<EventType, Builder> = {
  "deposit.credited": (f) => {
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
  "purchase.reserved": (f) => ({ purchase_id: f.id(1000), status: "RESERVED" }),
  // As a non-custodial submit emits it (purchases/events.ts): custody, no VRF request id (the
  // custodial relayer's event carries onchain_request_id instead of custody).
  "purchase.submitted": (f) => ({
    purchase_id: f.id(1000),
    status: "SUBMITTED",
    transaction_hash: f.txHash(),
    custody: "NON_CUSTODIAL",
  }),
  "purchase.fulfilled": (f) => ({
    purchase_id: f.id(1000),
    status: "FULFILLED",
    onchain_request_id: f.digits("vrf", 40),
    items: [purchaseItem(f)],
  }),
  "purchase.refunded": (f) => ({
    purchase_id: f.id(1000),
    status: "REFUNDED",
    onchain_request_id: f.digits("vrf", 40),
  }),
  "purchase.failed": (f) => ({ purchase_id: f.id(1000), status: "FAILED", reason: "vrf_timeout" }),
  "instant_purchase.reserved": (f) => ({ purchase_id: f.id(2000), status: "RESERVED" }),
  "instant_purchase.submitted": (f) => ({
    purchase_id: f.id(2000),
    status: "SUBMITTED",
    transaction_hash: f.txHash(),
    store_request_id: f.digits("store", 20),
    pool_request_id: f.digits("pool", 40),
    custody: "NON_CUSTODIAL",
  }),
  "instant_purchase.fulfilled": (f) => ({
    id: f.id(2000),
    purchase_id: f.id(2000),
    status: "FULFILLED",
    packet_type_id: 3,
    quantity: 1,
    price: money(10_000_000).micros,
    price_usdc: money(10_000_000).usdc,
    transaction_hash: f.txHash(),
    cards: [purchaseItem(f)],
  }),
  "instant_purchase.refunded": (f) => ({ purchase_id: f.id(2000), status: "REFUNDED" }),
  "instant_purchase.failed": (f) => ({ purchase_id: f.id(2000), status: "FAILED", reason: "unknown" }),
  "buyback.confirmed": (f) => ({
    purchase_id: f.id(1000),
    offer_id: f.id(5000),
    token_id: f.digits("token", 12),
    status: "accepted",
    seller_receives_usdc: money(258_100_000).usdc,
  }),
  "buyback.transfer_held": (f) => ({
    purchase_id: f.id(1000),
    offer_id: f.id(5000),
    offer_signature: f.hex("offer-sig", 65),
    token_id: f.digits("token", 12),
    reason: "pool_wallet_not_set",
    message:
      "No active pool wallet is set; the transfer is retried every 15 minutes. Set one with PUT /api/v1/mystery/pool-wallet.",
  }),
  "buyback.card_transferred": (f) => ({
    purchase_id: f.id(1000),
    offer_id: f.id(5000),
    offer_signature: f.hex("offer-sig", 65),
    token_id: f.digits("token", 12),
    contract_address: CARD_CONTRACT,
    to_address: POOL_WALLET,
    tx_hash: f.txHash(),
  }),
  "buyback.transfer_failed": (f) => ({
    purchase_id: f.id(1000),
    offer_id: f.id(5000),
    offer_signature: f.hex("offer-sig", 65),
    token_id: f.digits("token", 12),
    error: "transfer failed after 10 attempts: no active pool wallet",
  }),
  "redemption.prepared": (f) => ({
    redemption_id: f.id(4000),
    purchase_id: f.id(1000),
    token_id: f.digits("token", 12),
    item_type: "CARD",
    status: "PREPARED",
  }),
  "redemption.updated": (f) => ({
    redemption_id: f.id(4000),
    purchase_id: f.id(1000),
    token_id: f.digits("token", 12),
    item_type: "CARD",
    status: "IN_FULFILLMENT",
    burn_tx_hash: f.txHash("burn"),
    failure_reason: null,
  }),
  "pool.item_pulled": (f) => ({
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
  "sellback.confirmed": (f) => ({
    sellback_id: f.id(6000),
    seller: f.address("seller"),
    token_ids: [f.digits("token", 12), f.digits("token-2", 12)],
    total_usdc: money(41_800_000).usdc,
    transaction_hash: f.txHash(),
  }),
  "payout.statement_ready": (f) => payoutStatement(f, "PENDING"),
  "payout.paid": (f) => payoutStatement(f, "PAID"),
  // Warehouse shapes follow what the warehouse area emits (emulator/areas/warehouse/orders.ts).
  "order.tracking_updated": (f) => ({
    order_id: f.id(880_000),
    status: "SHIPPED",
    carrier: "usps",
    tracking_number: `9400${f.digits("tracking", 18)}`,
    tracking_status: "in_transit",
    previous_tracking_status: "label_created",
    unique_ids: [`CARD-NW${f.digits("card", 10)}`],
    updated_at: f.now,
  }),
  "order.tracking_status_changed": (f) => ({
    order_id: f.id(880_000),
    status: "DELIVERED",
    carrier: "usps",
    tracking_number: `9400${f.digits("tracking", 18)}`,
    tracking_status: "delivered",
    previous_tracking_status: "in_transit",
    unique_ids: [`CARD-NW${f.digits("card", 10)}`],
    updated_at: f.now,
  }),
  "card.returned": (f) => ({
    unique_id: `CARD-NW${f.digits("card", 10)}`,
    order_id: f.id(880_000),
    location: "OFFCHAIN",
    scanned_at: f.now,
  }),
  "order.returned": (f) => ({
    order_id: f.id(880_000),
    status: "RETURNED",
    unique_ids: [`CARD-NW${f.digits("card", 10)}`],
    returned_at: f.now,
  }),
};

/** The example `data` of an event type (different `n`, different ids and hashes). */
export function exampleEventData(type: EventType, ctx: FixtureContext): Payload {
  return EVENT_EXAMPLES[type](new Fixtures(type, ctx));
}
