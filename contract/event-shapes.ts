import { z } from "./zod.ts";
import {
  address as addr,
  isoTime as iso,
  micros,
  txHash as hash,
  usdcString as usdc,
  usdDecimal,
} from "./primitives.ts";

// Pieces of the webhook events' `data` shapes that more than one event type shares (docs/webhooks.md "Events"):
// each event type's own shape is declared by the lifecycle table that publishes it (contract/lifecycles/, its
// `catalogue` or side events), built from these and the wire's primitives. As the official SDK types them: its
// optional keys are optional here, its nullable ones nullable, and extra keys are allowed (looseObject).

export const int = z.number().int();

/** A VRF request id: a uint256 as a decimal string. */
export const requestId = z.string().regex(/^\d+$/);

/** WebhookPurchaseItem: token_id nullable here, unlike RevealItem. */
export const purchaseItem = z.looseObject({
  token_id: z.string().nullable(),
  item_type: z.string(),
  category: z.enum(["card", "product", "unknown"]),
  card_id: z.string().nullable().optional(),
  name: z.string().nullable(),
  image_url: z.string().nullable(),
  value_usd: usdDecimal.nullable(),
  rarity: z.string().nullable().optional(),
  card_number: z.string().nullable().optional(),
  set_id: z.string().nullable().optional(),
});

/** The buyback keys every buyback.* event carries (B in the wire shapes). */
export const buybackKeys = { purchase_id: int.nullable(), offer_id: int, token_id: z.string() };

/** The keys every redemption.* event carries. */
export const redemptionKeys = {
  redemption_id: int,
  purchase_id: int.nullable(),
  token_id: z.string(),
  item_type: z.string(),
  status: z.string(),
};

const breakdown = z.looseObject({
  packs: int,
  gross_usdc: usdc,
  sellback_usdc: usdc.optional(),
  net_usdc: usdc,
  share_bps: int,
  share_usdc: usdc,
});

/** A payout statement, as payout.statement_ready and payout.paid carry it. */
export const payoutStatement = z.looseObject({
  payout_id: int,
  period: z.looseObject({ kind: z.string(), from: iso, to: iso }),
  qualifying_packs: int,
  gross_usdc: usdc,
  sellback_count: int,
  sellback_usdc: usdc,
  net_usdc: usdc,
  revenue_share_bps: int,
  revenue_share_pct: z.string().regex(/^\d+\.\d\d$/),
  revenue_share_usdc: usdc,
  fees_usdc: usdc,
  rip_retained_usdc: usdc,
  by_product: z.looseObject({ tier: breakdown, instant: breakdown }),
  payout_usdc: usdc,
  payout_micros: micros,
  status: z.string(),
  payout_address: addr.nullable(),
  chain: z.string().nullable(),
  tx_hash: hash.nullable(),
  paid_at: iso.nullable(),
});

/** An order's tracking, as order.tracking_updated and order.tracking_status_changed carry it (ours: docs/warehouse.md). */
export const orderTracking = z.looseObject({
  order_id: int,
  status: z.string(),
  carrier: z.string(),
  tracking_number: z.string().nullable(),
  tracking_status: z.string(),
  previous_tracking_status: z.string().optional(),
  unique_ids: z.array(z.string()),
  updated_at: iso,
});
