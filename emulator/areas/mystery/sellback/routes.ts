import { checkLater } from "../../../pipeline/schema.ts";
import { paginate } from "../../../pipeline/pagination.ts";
import { ok, type RouteSpec } from "../../../pipeline/route.ts";
import { partner, schemaRoute as typed } from "../access.ts";
import { usdc } from "../util.ts";
import { listRoute, minTotalSchema, prepareRoute, quoteRoute, slippageSchema, submitRoute } from "./schemas.ts";
import { checkSellable, formatSellback, quoteSellback, sellbackCalls, sellbacksOf, submitSellback } from "./sellback.ts";

// Sell-back endpoints (TIER model; a POOL key gets 403 not_tier_partner).

const TIER = ["TIER"] as const;

/** min_total_usdc, else the quoted total less slippage_bps (default 100). */
function minTotalOf(b: { min_total_usdc?: unknown; slippage_bps?: unknown }, total: bigint): bigint {
  const m = checkLater(minTotalSchema, b.min_total_usdc, "min_total_usdc");
  if (m !== null) return m;
  const bps = checkLater(slippageSchema, b.slippage_bps, "slippage_bps");
  return (total * BigInt(10_000 - bps)) / 10_000n;
}

export const sellbackRoutes: RouteSpec[] = [
  typed("POST", "/mystery/sellback/quote", partner("packs:read", TIER), "partner_read", quoteRoute, async (c) => {
    const { token_ids: ids, wallet_address: wallet } = c.input.body;
    const q = await quoteSellback(c.services, wallet, ids);
    return ok({
      seller: wallet.toLowerCase(),
      items: q.items,
      eligible_token_ids: q.items.filter((i) => i.eligible).map((i) => i.token_id),
      total_payout_micros: q.total.toString(),
      total_payout_usdc: usdc(q.total),
      approval_needed: q.approvalNeeded,
      pool_liquidity_usdc: usdc(q.liquidity),
      sufficient_liquidity: q.liquidity >= q.total,
    });
  }),

  typed("POST", "/mystery/sellback/prepare", partner("packs:buyback", TIER), "partner_write", prepareRoute, async (c) => {
    const b = c.input.body;
    const ids = b.token_ids;
    const q = await quoteSellback(c.services, b.wallet_address, ids);
    checkSellable(q, ids);
    return ok(sellbackCalls(c.services, b.wallet_address, ids, q, minTotalOf(b, q.total)));
  }),

  typed("POST", "/mystery/sellback/submit", partner("packs:buyback", TIER), "partner_write", submitRoute, async (c) => {
    const { hash, claimed } = c.input.body;
    return ok(formatSellback(await submitSellback(c.services, c.key!.account_id, hash, claimed)));
  }),

  typed("GET", "/mystery/sellbacks", partner("packs:read", TIER), "partner_read", listRoute, (c) => {
    const { items, pagination } = paginate(sellbacksOf(c.services, c.key!.account_id), c.input.query);
    return ok({ sellbacks: items.map(formatSellback) }, { pagination });
  }),
];
