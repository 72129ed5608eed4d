import { defineControl, type ControlSpec } from "../../control/route.ts";
import { listLimit, newestFirst } from "../../control/schemas.ts";
import { z } from "../../pipeline/schema.ts";
import { ok } from "../../pipeline/route.ts";
import { usdc } from "../../../contract/money.ts";
import { seededPartners } from "./partners.ts";
import { KYC_STATUSES } from "../../../contract/mystery/redemption.ts";
import { kycRequired } from "./redemption/kyc.ts";
import { mystery, PURCHASE_STATUSES, REDEMPTION_STATUSES } from "./state.ts";

// The operator's overview of the mystery area: its switches and every record of
// every partner (newest first) with state and transaction hashes, as the
// dashboard's commerce view shows them. Read-only; the actions are the other
// /_emulator/mystery routes.

const limitQuery = z.object({ limit: listLimit() });

const purchase = z.object({
  id: z.number().int(),
  account_id: z.string(),
  custody: z.enum(["CUSTODIAL", "NON_CUSTODIAL"]),
  status: z.enum(PURCHASE_STATUSES),
  tier_id: z.number().int(),
  price_usdc: z.string(),
  external_user_id: z.string().nullable(),
  transaction_hash: z.string().nullable(),
  onchain_request_id: z.string().nullable(),
  items: z.number().int(),
  created_at: z.string(),
});
const redemption = z.object({
  redemption_id: z.number().int(),
  account_id: z.string(),
  status: z.enum(REDEMPTION_STATUSES),
  kyc_status: z.enum(KYC_STATUSES),
  token_id: z.string(),
  holder: z.string(),
  burn_tx_hash: z.string().nullable(),
  shipping_paid_tx_hash: z.string().nullable(),
  tracking_number: z.string().nullable(),
  updated_at: z.string(),
});
const buyback = z.object({
  offer_id: z.number().int(),
  account_id: z.string(),
  token_id: z.string(),
  status: z.enum(["active", "accepted", "cancelled", "expired"]),
  price_usdc: z.string(),
  accept_tx_hash: z.string().nullable(),
  created_at: z.string(),
});
const sellBack = z.object({
  sellback_id: z.number().int(),
  account_id: z.string(),
  seller: z.string(),
  token_ids: z.array(z.string()),
  total_usdc: z.string(),
  transaction_hash: z.string(),
  sold_at: z.string(),
});

export const overviewControl: ControlSpec[] = [
  defineControl({
    method: "GET",
    path: "/mystery",
    describe:
      "Operator overview: the area's switches (relayer, shipping signer, warehouse mode, KYC per partner) and the newest purchases, redemptions, buybacks and sell-backs of every partner with their states and tx hashes (?limit=, default 50)",
    schema: {
      query: limitQuery,
      responses: {
        200: {
          description: "Switches and records, newest first",
          data: z.object({
            relayer: z.enum(["on", "off"]),
            shipping_signer: z.enum(["on", "off"]),
            warehouse_mode: z.enum(["auto", "manual"]),
            kyc_required: z.record(z.string(), z.boolean()),
            purchases: z.array(purchase),
            redemptions: z.array(redemption),
            buybacks: z.array(buyback),
            sell_backs: z.array(sellBack),
          }),
        },
        400: { description: "limit is not an integer from 1 to 1000", codes: ["invalid_value"] },
      },
    },
    handle: (c) => {
      const m = mystery(c.services);
      const limit = c.input.query.limit;
      return ok({
        relayer: m.relayer,
        shipping_signer: m.shipping_signer ?? "on",
        warehouse_mode: m.warehouse_mode,
        kyc_required: Object.fromEntries(
          seededPartners(c.services).map((account) => [account, kycRequired(c.services, account)]),
        ),
        purchases: newestFirst(m.purchases, (p) => p.id, limit).map((p) => ({
          id: p.id,
          account_id: p.account_id,
          custody: p.custody,
          status: p.status,
          tier_id: p.tier_id,
          price_usdc: usdc(p.price_micros),
          external_user_id: p.external_user_id,
          transaction_hash: p.transaction_hash,
          onchain_request_id: p.onchain_request_id,
          items: p.items?.length ?? 0,
          created_at: p.created_at,
        })),
        redemptions: newestFirst(m.redemptions, (r) => r.redemption_id, limit).map((r) => ({
          redemption_id: r.redemption_id,
          account_id: r.account_id,
          status: r.status,
          kyc_status: r.kyc_status,
          token_id: r.token_id,
          holder: r.holder,
          burn_tx_hash: r.burn_tx_hash,
          shipping_paid_tx_hash: r.shipping?.paid_tx_hash ?? null,
          tracking_number: r.tracking_number,
          updated_at: r.updated_at,
        })),
        buybacks: newestFirst(m.offers, (o) => o.offer_id, limit).map((o) => ({
          offer_id: o.offer_id,
          account_id: o.account_id,
          token_id: o.token_id,
          status: o.status,
          price_usdc: usdc(o.price_micros),
          accept_tx_hash: o.accept_tx_hash,
          created_at: o.created_at,
        })),
        sell_backs: newestFirst(m.sellbacks, (s) => s.sellback_id, limit).map((s) => ({
          sellback_id: s.sellback_id,
          account_id: s.account_id,
          seller: s.seller,
          token_ids: s.token_ids,
          total_usdc: usdc(s.total_micros),
          transaction_hash: s.transaction_hash,
          sold_at: s.sold_at,
        })),
      });
    },
  }),
];
